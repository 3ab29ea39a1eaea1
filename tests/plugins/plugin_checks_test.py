# SPDX-License-Identifier: Apache-2.0
"""Plugin mistakes fail early, with a message that names the fix.

Registration gaps fail when the registry context is built; misspelt keys,
plugin modules, functions and domains name the nearest valid one; plugin
shape inference and references that disagree with the model name the
plugin's function; golden-test mismatches print values in the output's type;
a stale Bazel runfiles tree is told apart from a missing package.
"""

import dataclasses
import pathlib
import re
import sys
import textwrap

import numpy as np
import pytest
from ai_edge_litert.schema_py_generated import BuiltinOperator
from make_model import custom_noop_model
from my_plugin import custom_noop
from onnx import TensorProto, helper
from opbridge import cli
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import OperatorPluginError, nearest
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.keyed_registry import Registry, RegistryError
from opbridge.ops.definition import OperatorDefinition
from opbridge.plugins import PluginImportError, load_customizer, stale_runfiles_hint
from opbridge.registry import build_default_registry_context, default_registry_context
from opbridge.schemas.opsets import OpsetDomain, UnknownSchemaError
from opbridge.transforms import Transform
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder, run_golden_program

KEY = "SQUARED_RELU"


def squared_relu_reference(call):
    x = call.value(0)
    return [np.maximum(x, 0) * np.maximum(x, 0)]


def squared_relu_definition(op_type: str = KEY, **changes) -> OperatorDefinition:
    definition = OperatorDefinition(
        op_type=op_type, reference=squared_relu_reference, schema=custom_noop.CUSTOM_NOOP_SCHEMA
    )
    return dataclasses.replace(definition, **changes)


def squared_relu_plugin(*, parser_key=KEY, class_key=KEY, definitions=None, extra=None):
    """A plugin registering a parser, an operator class and definitions under the keys given."""

    def customize_registry(context) -> None:
        context.opset_domains.register(custom_noop.DOMAIN, OpsetDomain(custom_noop.DOMAIN, 1, 1))
        if parser_key is not None:
            context.litert_parsers.register(parser_key, custom_noop.parse_custom_noop)
        if class_key is not None:
            context.aot_operator_classes.register(class_key, custom_noop.CustomNoopOperator)
        for definition in [squared_relu_definition()] if definitions is None else definitions:
            context.operators.add(definition)
        if extra is not None:
            extra(context)

    return customize_registry


# -- 1a: what a plugin registers has a definition with a schema and a reference --------------------------


def test_a_complete_plugin_builds() -> None:
    context = build_default_registry_context([squared_relu_plugin()])
    assert KEY in context.operators and KEY in context.aot_operator_classes


def test_an_operator_class_without_a_definition_names_the_nearest_key_and_the_fix() -> None:
    with pytest.raises(RegistryError) as error:
        build_default_registry_context([squared_relu_plugin(class_key="SQUARED_RELLU")])
    message = str(error.value)
    assert "registered 'SQUARED_RELLU' in aot_operator_classes, but there is no OperatorDefinition" in message
    assert "squared_relu_plugin.<locals>.customize_registry" in message
    assert "did you mean 'SQUARED_RELU'?" in message
    assert "OperatorDefinition(op_type='SQUARED_RELLU', schema=..., reference=...)" in message


def test_a_parser_without_a_definition_names_the_nearest_key() -> None:
    with pytest.raises(RegistryError, match=r"(?s)'SQUARE_RELU' in litert_parsers.*did you mean 'SQUARED_RELU'\?"):
        build_default_registry_context([squared_relu_plugin(parser_key="SQUARE_RELU")])


@pytest.mark.parametrize(
    ("changes", "missing"),
    [({"schema": None}, "has no schema"), ({"reference": None}, "has no reference")],
)
def test_a_definition_without_schema_or_reference_is_refused(changes: dict, missing: str) -> None:
    plugin = squared_relu_plugin(definitions=[squared_relu_definition(**changes)])
    with pytest.raises(
        RegistryError, match=f"'SQUARED_RELU' in aot_operator_classes, but its OperatorDefinition {missing}"
    ):
        build_default_registry_context([plugin])


def test_every_builtin_is_complete_so_none_needs_the_exemption() -> None:
    context = default_registry_context()
    for definition in context.operators.definitions():
        assert definition.schema is not None and definition.reference is not None, definition.op_type
    for key in [*context.aot_operator_classes, *context.litert_parsers]:
        assert key in context.operators, key
        assert definition.op_type in context.litert_parsers or definition.onnx_converters, definition.op_type


# -- 1b: what a plugin defines, something produces --------------------------------------------------------


def test_a_stray_definition_names_the_key_producers_have() -> None:
    stray = squared_relu_definition("SQUARED_RELLU", schema=None)
    with pytest.raises(RegistryError) as error:
        build_default_registry_context([squared_relu_plugin(definitions=[squared_relu_definition(), stray])])
    message = str(error.value)
    assert "added the OperatorDefinition 'SQUARED_RELLU', but nothing produces nodes of it" in message
    assert "did you mean 'SQUARED_RELU'?" in message
    assert "PRODUCES" in message and "litert_parsers.register('SQUARED_RELLU'" in message


class FuseSquares(Transform):
    NAME = "fuse_squares"
    PRODUCES = ("FUSED_SQUARES",)

    def apply(self, graph: Graph) -> Graph:
        return graph


def test_a_definition_only_a_transform_produces_is_kept_by_produces() -> None:
    fused = squared_relu_definition("FUSED_SQUARES", schema=None)

    def register_transform(context) -> None:
        context.transforms.register(FuseSquares.NAME, FuseSquares)

    context = build_default_registry_context(
        [squared_relu_plugin(definitions=[squared_relu_definition(), fused], extra=register_transform)]
    )
    assert "FUSED_SQUARES" in context.operators
    with pytest.raises(RegistryError, match="'FUSED_SQUARES', but nothing produces"):
        build_default_registry_context([squared_relu_plugin(definitions=[squared_relu_definition(), fused])])


def test_a_definition_in_a_custom_onnx_domain_needs_no_parser() -> None:
    # ONNX nodes of the plugin's domain select its schema, and so this definition.
    context = build_default_registry_context([squared_relu_plugin(parser_key=None, class_key=None)])
    assert context.schemas().select(custom_noop.DOMAIN, "CustomNoop", 1)[1] == KEY


# -- 2: nearest keys --------------------------------------------------------------------------------------


def test_nearest() -> None:
    assert nearest("CONV2D", ["CONV_2D", "ADD"]) == "did you mean 'CONV_2D'?"
    assert nearest("tiels", ["tiles"], prefix="patch_based.") == "did you mean 'patch_based.tiles'?"
    assert nearest("XYZ", ["CONV_2D"]) == ""


def test_registry_lookups_of_unknown_keys_name_the_nearest() -> None:
    registry: Registry[int] = Registry("things")
    registry.register("CONV_2D", 1)
    with pytest.raises(RegistryError, match=r"(?s)'CONV2D' is not registered.*did you mean 'CONV_2D'\?"):
        registry["CONV2D"]
    with pytest.raises(RegistryError, match=r"(?s)'CONV2D' is not registered.*did you mean 'CONV_2D'\?"):
        registry.remove("CONV2D")
    with pytest.raises(RegistryError, match=r"(?s)cannot overwrite 'CONV2D'.*did you mean 'CONV_2D'\?.*overwrite=True"):
        registry.register("CONV2D", 2, overwrite=True)
    with pytest.raises(RegistryError, match="registered: CONV_2D"):
        registry["ZZZ"]


def test_overwriting_a_misspelt_builtin_fails_in_the_customizer() -> None:
    def customize(context) -> None:
        context.aot_operator_classes.register("CONV2D", custom_noop.CustomNoopOperator, overwrite=True)

    with pytest.raises(RegistryError, match="did you mean 'CONV_2D'"):
        build_default_registry_context([customize], allow_override=True)


def test_a_misspelt_plugin_function_names_the_nearest_callable() -> None:
    with pytest.raises(PluginImportError) as error:
        load_customizer("my_plugin.custom_noop:customize_registy")
    assert "has no function 'customize_registy'" in str(error.value)
    assert "did you mean 'my_plugin.custom_noop:customize_registry'?" in str(error.value)


def test_a_misspelt_plugin_module_names_its_nearest_sibling_without_importlib_frames() -> None:
    with pytest.raises(PluginImportError) as error:
        load_customizer("my_plugin.custom_nop")
    message = str(error.value)
    assert "did you mean 'my_plugin.custom_noop'?" in message
    assert "<frozen" not in message and "importlib" not in message
    assert message.splitlines()[0].endswith("No module named 'my_plugin.custom_nop'")


def test_a_plugin_failing_to_import_names_its_own_line(tmp_path: pathlib.Path, monkeypatch) -> None:
    (tmp_path / "broken_plugin.py").write_text("X = 1\nimport not_a_real_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginImportError) as error:
        load_customizer("broken_plugin")
    message = str(error.value)
    assert f"({tmp_path / 'broken_plugin.py'}:2)" in message
    assert "<frozen" not in message
    assert "PYTHONPATH" in message  # a missing dependency: nothing nearer to suggest


def test_an_unknown_onnx_domain_names_the_nearest_registered_one() -> None:
    misspelt = custom_noop.DOMAIN + "s"
    model = helper.make_model(
        helper.make_graph(
            [helper.make_node("CustomNoop", ["x"], ["y"], domain=misspelt)],
            "noop",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        ),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(misspelt, 1)],
    )
    context = build_default_registry_context([custom_noop.customize_registry])
    with pytest.raises(
        UnknownSchemaError, match=f"(?s)'{misspelt}' is not registered.*did you mean '{custom_noop.DOMAIN}'"
    ):
        read_onnx_model(model.SerializeToString(), context)


# -- 4: `opbridge run` checks every node against its schema ---------------------------------------------


def test_run_checks_a_plugins_inference_and_names_its_function(tmp_path: pathlib.Path, monkeypatch, capsys) -> None:
    (tmp_path / "halving_plugin.py").write_text(
        textwrap.dedent("""
        import dataclasses

        from my_plugin import custom_noop
        from opbridge.schemas.schema import TensorType


        def infer_half(ctx):
            x = ctx.input(0)
            return [TensorType(x.dtype, (x.shape[0], x.shape[1] // 2))]


        def customize_registry(context):
            custom_noop.customize_registry(context)
            definition = context.operators[custom_noop.CUSTOM_OP_KEY]
            schema = dataclasses.replace(definition.schema, infer=infer_half)
            context.operators.add(dataclasses.replace(definition, schema=schema), overwrite=True)
        """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    model = tmp_path / "noop.tflite"
    model.write_bytes(custom_noop_model())
    np.save(tmp_path / "x.npy", np.zeros((1, 16), np.int8))
    arguments = ["run", str(model), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.npy")]
    assert cli.main([*arguments, "--no-entry-points", "--plugin", "my_plugin.custom_noop"]) == 0
    assert cli.main([*arguments, "--no-entry-points", "--plugin", "halving_plugin"]) == 1
    error = capsys.readouterr().err
    assert "node 0 (CUSTOM_NOOP" in error and "differs from what its schema infers, int8[1, 8]" in error
    assert "halving_plugin.infer_half" in error and "halving_plugin.customize_registry" in error
    assert "re-export" not in error


def test_run_rejects_a_model_whose_stored_output_a_plugin_schema_does_not_infer(tmp_path, capsys) -> None:
    model = tmp_path / "bad.tflite"
    model.write_bytes(custom_noop_model(output_shape=(1, 8)))
    np.save(tmp_path / "x.npy", np.zeros((1, 16), np.int8))
    arguments = ["run", str(model), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.npy")]
    assert cli.main([*arguments, "--no-entry-points", "--plugin", "my_plugin.custom_noop"]) == 1
    error = capsys.readouterr().err
    assert "differs from what its schema infers, int8[1, 16]" in error
    assert "its schema com.example.custom_op.CustomNoop (since version 1) infers with " in error
    assert not (tmp_path / "y.npy").exists()


def test_run_of_a_builtin_node_that_disagrees_with_its_schema_blames_the_model(tmp_path, capsys) -> None:
    builder = GraphBuilder()
    x, y = builder.tensor("x", DType.FLOAT32, (1, 16)), builder.tensor("y", DType.FLOAT32, (1, 8))
    model = tmp_path / "relu.tflite"
    model.write_bytes(single_op_model(builder.single_node_graph("RELU", [x], [y], None), BuiltinOperator.RELU, 1))
    np.save(tmp_path / "x.npy", np.zeros((1, 16), np.float32))
    arguments = ["run", str(model), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.npy")]
    assert cli.main([*arguments, "--no-entry-points"]) == 1
    error = capsys.readouterr().err
    assert "node 0 (RELU" in error and "differs from what its schema infers, float32[1, 16]" in error
    assert "re-export" in error and "plugin" not in error


# -- 5: a reference returning the wrong dtype or shape ----------------------------------------------------


def returns_int16(call):
    return [call.value(0).astype(np.int16)]


def returns_two(call):
    return [call.value(0), call.value(0)]


@pytest.mark.parametrize(
    ("reference", "returned", "expected"),
    [
        (returns_int16, "returned int16[1, 16] for output 0", "expected int8[1, 16] (as its schema"),
        (returns_two, "returned 2 value(s) [int8[1, 16], int8[1, 16]]", "expected a list of 1 array(s): int8[1, 16]"),
    ],
)
def test_a_reference_returning_the_wrong_arrays_is_a_plugin_error(reference, returned: str, expected: str) -> None:
    def customize(context) -> None:
        custom_noop.customize_registry(context)
        definition = context.operators[custom_noop.CUSTOM_OP_KEY]
        context.operators.add(dataclasses.replace(definition, reference=reference), overwrite=True)

    context = build_default_registry_context([customize])
    graph = read_litert_model(custom_noop_model(), context)
    with pytest.raises(OperatorPluginError) as error:
        ReferenceInterpreter(graph, context).run([np.zeros((1, 16), np.int8)])
    message = str(error.value)
    assert "node 0 (CUSTOM_NOOP" in message and returned in message and expected in message
    assert f"fix {__name__}.{reference.__qualname__}" in message


# -- 6: golden-test mismatches print values in the output's C type ----------------------------------------


@pytest.mark.parametrize(
    ("dtype", "value", "ctype"),
    [(DType.INT8, -128, "int8_t"), (DType.INT16, -30000, "int16_t"), (DType.INT32, -2000000000, "int32_t")],
)
def test_golden_mismatches_print_signed_values(tmp_path: pathlib.Path, dtype: DType, value: int, ctype: str) -> None:
    # The reference says every element is `value`; the C copies its input: every case fails.
    def customize(context) -> None:
        custom_noop.customize_registry(context)
        definition = context.operators[custom_noop.CUSTOM_OP_KEY]
        constant = dataclasses.replace(definition, reference=lambda call: [np.full_like(call.value(0), value)])
        context.operators.add(constant, overwrite=True)

    path = tmp_path / "noop.tflite"
    path.write_bytes(custom_noop_model(dtype=dtype))
    config = ConvertArgs(model=path, output_dir=tmp_path / "out", prefix="m", golden_test=tmp_path / "golden.c",
                         golden_cases=2)  # fmt: skip
    AotConverter(config, registry_context=build_default_registry_context([customize])).convert()
    with pytest.raises(AssertionError) as error:
        run_golden_program(tmp_path / "out", tmp_path / "golden.c")
    failures = re.findall(
        rf"FAIL case \d output 0 \({ctype}\): element \d+ is (-?\d+), expected (-?\d+)", str(error.value)
    )
    assert failures, str(error.value)
    info = np.iinfo(dtype.numpy)
    for found, expected in failures:
        assert int(expected) == value
        assert info.min <= int(found) <= info.max and int(found) != value


# -- 7: a stale Bazel runfiles tree -----------------------------------------------------------------------


def fake_runfiles(tmp_path: pathlib.Path, monkeypatch, listed: str) -> pathlib.Path:
    """bazel-out/.../bin/examples/custom_op/conv.runfiles whose manifest lists `listed` but whose tree lacks it,
    with examples/custom_op as an import root (as the launcher puts it on sys.path)."""
    tree = tmp_path / "bazel-out" / "k8-fastbuild" / "bin" / "examples" / "custom_op" / "conv.runfiles"
    (tree / "opbridge").mkdir(parents=True)
    (tree / "MANIFEST").write_text(
        f"opbridge/examples/custom_op/{listed} /src/examples/custom_op/{listed}\n"
        "opbridge/external/venv/site-packages/hypothesis/extra/numpy.py /venv/hypothesis/extra/numpy.py\n"
    )
    monkeypatch.syspath_prepend(str(tree / "opbridge" / "examples" / "custom_op"))
    monkeypatch.setenv("RUNFILES_DIR", str(tree))
    monkeypatch.delenv("RUNFILES_MANIFEST_FILE", raising=False)
    return tree


def test_a_plugin_missing_from_a_stale_runfiles_tree_says_how_to_refresh_it(tmp_path, monkeypatch, capsys) -> None:
    fake_runfiles(tmp_path, monkeypatch, "fresh_plugin/ops.py")
    with pytest.raises(PluginImportError) as error:
        load_customizer("fresh_plugin.ops")
    hint = error.value.hint
    assert "stale" in hint and "fresh_plugin/ops.py" in hint
    assert "bazel run //examples/custom_op:conv" in hint and "--build_runfile_links" in hint
    assert "PYTHONPATH" not in hint
    assert cli.main(["plugins", "list", "--no-entry-points", "--plugin", "fresh_plugin.ops"]) == 1
    assert "bazel run //examples/custom_op:conv" in capsys.readouterr().err


def test_a_module_the_manifest_does_not_list_keeps_the_pythonpath_hint(tmp_path, monkeypatch) -> None:
    fake_runfiles(tmp_path, monkeypatch, "other_plugin/ops.py")
    with pytest.raises(PluginImportError) as error:
        load_customizer("fresh_plugin.ops")
    assert "PYTHONPATH" in error.value.hint and "bazel run" not in error.value.hint
    # A file of that name elsewhere in the tree (not under an import root) is not the module.
    assert stale_runfiles_hint("numpy") == ""


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
