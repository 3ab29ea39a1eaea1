# SPDX-License-Identifier: Apache-2.0
"""The custom-operator plugin API, end to end and in every way it can be misused.

Uses the starter plugin (examples/custom_op/my_plugin/custom_noop.py), the
shared models and the host gcc; no stored numbers: C output is compared
with the reference interpreter by the emitted golden test program.
"""

import dataclasses
import pathlib
import re
import subprocess
import sys
import textwrap

import numpy as np
import pydantic
import pytest
from make_model import custom_noop_model
from my_plugin import custom_noop
from opbridge import cli
from opbridge.aot.operators import AotOperator, OperatorAttributes
from opbridge.aot.resolve import OperatorResolveError
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import ConfigError, ModelFormatError, OperatorPluginError, UnsupportedOperatorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.litert.nodes import custom_code_to_op_key
from opbridge.ir import DType, Graph
from opbridge.keyed_registry import RegistryError
from opbridge.plugins import PluginImportError, build_plugin_context, load_customizer
from opbridge.registry import build_default_registry_context, register_builtins
from opbridge.registry_context import RegistryContext
from opbridge.schemas.schema import ShapeInferenceError
from opbridge.transforms import Transform, TransformConfigError, make_options
from opbridge_testing.single_op import run_golden_program
from pydantic import ConfigDict
from pydantic.dataclasses import dataclass as pydantic_dataclass

MODELS = pathlib.Path("../shared_models/models")
KWS = MODELS / "mlperf_tiny/kws_ref_model.tflite"
KERNELS = sorted(pathlib.Path("cc/kernels").glob("opbridge_*.c"))


def plugin_context(*customizers, allow_override=False):
    return build_default_registry_context(
        customizers=[custom_noop.customize_registry, *customizers], allow_override=allow_override
    )


def convert(tmp_path: pathlib.Path, model: bytes | pathlib.Path, context=None, **settings) -> object:
    if isinstance(model, bytes):
        path = tmp_path / "model.tflite"
        path.write_bytes(model)
    else:
        path = model
    config = ConvertArgs(model=path, output_dir=tmp_path / "out", prefix="m", golden_test=tmp_path / "golden.c",
                         golden_cases=3, **settings)  # fmt: skip
    return AotConverter(config, registry_context=context).convert()


# -- keys --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("custom_code", "key"),
    [("custom-noop", "CUSTOM_NOOP"), ("my op", "MY_OP"), (" custom-noop ", "_CUSTOM_NOOP_"), ("Signal", "SIGNAL")],
)
def test_custom_code_to_op_key(custom_code: str, key: str) -> None:
    assert custom_code_to_op_key(custom_code) == key


@pytest.mark.parametrize("custom_code", ["custom.noop", "noop!", "1noop", ""])
def test_keys_that_are_not_c_identifiers_are_rejected(custom_code: str) -> None:
    with pytest.raises(UnsupportedOperatorError, match="not a C identifier"):
        custom_code_to_op_key(custom_code)


def test_a_dotted_custom_code_is_rejected_when_the_model_is_parsed() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"'my\.noop'.*not a C identifier") as error:
        read_litert_model(custom_noop_model(custom_code="my.noop"), plugin_context())
    assert "no dots" in str(error.value)


# -- the starter plugin --------------------------------------------------------


def test_unknown_custom_operator_names_its_custom_code_and_how_to_register_it() -> None:
    with pytest.raises(UnsupportedOperatorError) as error:
        read_litert_model(custom_noop_model(), build_default_registry_context())
    message = str(error.value)
    assert "'custom-noop'" in message and "CUSTOM_NOOP" in message
    assert "litert_parsers" in message and "--plugin" in message


def test_the_starter_parses_resolves_emits_compiles_and_runs(tmp_path: pathlib.Path) -> None:
    result = convert(tmp_path, custom_noop_model(), plugin_context())
    assert [node.op_type for node in result.graph.nodes] == ["CUSTOM_NOOP"]
    assert "includes-api/m_node_0_custom_noop.h" in result.module.files
    assert "0 failures" in run_golden_program(tmp_path / "out", tmp_path / "golden.c")


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (custom_noop_model(output_shape=(1, 8)), "same size"),
        (custom_noop_model(output_dtype=DType.INT16), "same dtype"),
    ],
)
def test_rejected_shapes_and_dtypes_give_the_plugins_own_error(
    tmp_path: pathlib.Path, model: bytes, message: str
) -> None:
    # The op's schema catches the mismatch first, naming the node and what it infers ...
    with pytest.raises(ShapeInferenceError, match=r"node 0 \(CUSTOM_NOOP .*differs from what its schema infers"):
        convert(tmp_path, model, plugin_context())
    assert not (tmp_path / "out").exists(), "a rejected conversion left files behind"

    # ... and without a schema, the operator class's own on_resolve check does. build_default_registry_context
    # refuses a plugin operator without a schema, so this context is assembled by hand.
    context = RegistryContext()
    register_builtins(context)
    custom_noop.customize_registry(context)
    definition = context.operators[custom_noop.CUSTOM_OP_KEY]
    context.operators.add(dataclasses.replace(definition, schema=None), overwrite=True)
    context.freeze()
    with pytest.raises(OperatorResolveError, match=f"node 0 .*CUSTOM_NOOP expects input and output of the {message}"):
        convert(tmp_path, model, context)
    assert not (tmp_path / "out").exists(), "a rejected conversion left files behind"


def test_a_plugin_raising_in_on_resolve_names_the_node_and_class(tmp_path: pathlib.Path) -> None:
    class Refusing(custom_noop.CustomNoopOperator):
        def on_resolve(self) -> None:
            raise RuntimeError("this board has no DMA for the copy")

    def customize(context) -> None:
        context.aot_operator_classes.register(custom_noop.CUSTOM_OP_KEY, Refusing, overwrite=True)

    context = build_default_registry_context([custom_noop.customize_registry, customize])
    with pytest.raises(OperatorResolveError, match="no DMA for the copy") as error:
        convert(tmp_path, custom_noop_model(), context)
    assert "Refusing" in str(error.value)


# -- registries ------------------------------------------------------------------


def test_overriding_a_builtin_needs_allow_override() -> None:
    def replace_conv(context) -> None:
        context.aot_operator_classes.register("CONV_2D", AotOperator, overwrite=True)

    with pytest.raises(RegistryError, match=r"replaced the built-in 'CONV_2D' in aot_operator_classes") as error:
        build_default_registry_context([replace_conv])
    assert "allow_override=True" in str(error.value)
    assert "replace_conv" in str(error.value)


def test_removing_a_builtin_needs_allow_override() -> None:
    with pytest.raises(RegistryError, match="removed the built-in 'ADD'"):
        build_default_registry_context([lambda context: context.operators.remove("ADD")])


def test_registering_an_existing_key_needs_overwrite() -> None:
    def twice(context) -> None:
        custom_noop.customize_registry(context)
        custom_noop.customize_registry(context)

    with pytest.raises(
        RegistryError, match=r"(?s)'(CUSTOM_NOOP|com.example.custom_op)' is already registered.*overwrite=True"
    ):
        build_default_registry_context([twice])


def test_a_built_context_is_frozen() -> None:
    context = plugin_context()
    with pytest.raises(RegistryError, match="frozen"):
        context.litert_parsers.register("LATE", custom_noop.parse_custom_noop)


def test_a_conversion_without_a_context_uses_the_builtins(tmp_path: pathlib.Path) -> None:
    result = convert(tmp_path, MODELS / "tflm/hello_world_int8.tflite")
    assert {node.op_type for node in result.graph.nodes} == {"FULLY_CONNECTED"}


def test_replacing_conv_2d_emission_keeps_the_model_bit_exact(tmp_path: pathlib.Path) -> None:
    def customize(context) -> None:
        builtin = context.aot_operator_classes.get("CONV_2D")

        class MarkedConv2D(builtin):
            def emit(self, save_path: pathlib.Path) -> None:
                super().emit(save_path)
                source = save_path / "src" / f"{self.prefix}_{self.name}.c"
                source.write_text("/* emitted by MarkedConv2D */\n" + source.read_text())

        context.aot_operator_classes.register("CONV_2D", MarkedConv2D, overwrite=True)

    result = convert(tmp_path, KWS, build_default_registry_context([customize], allow_override=True))
    conv_sources = [path for path in result.module.files if re.search(r"_node_\d+_conv_2d\.c$", path)]
    assert conv_sources
    assert all("MarkedConv2D" in (tmp_path / "out" / path).read_text() for path in conv_sources)
    assert "0 failures" in run_golden_program(tmp_path / "out", tmp_path / "golden.c")


# -- attributes and rules -----------------------------------------------------------


@pydantic_dataclass(kw_only=True)
class GainAttributes(OperatorAttributes):
    gain: int


@pydantic_dataclass(config=ConfigDict(extra="allow"))
class FreeFormAttributes(OperatorAttributes):
    pass


def with_attributes(attributes_class: type):
    class Operator(custom_noop.CustomNoopOperator):
        ATTRIBUTES = attributes_class

    def customize(context) -> None:
        custom_noop.customize_registry(context)
        context.aot_operator_classes.register(custom_noop.CUSTOM_OP_KEY, Operator, overwrite=True)

    return build_default_registry_context([customize]), Operator


def test_a_required_attribute_no_rule_sets_is_named(tmp_path: pathlib.Path) -> None:
    context, _ = with_attributes(GainAttributes)
    with pytest.raises(ConfigError, match=r"node 0 .*required attribute 'gain' is not set"):
        convert(tmp_path, custom_noop_model(), context)


def test_rules_set_attributes_in_order(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    context, operator_class = with_attributes(GainAttributes)
    seen = []
    monkeypatch.setattr(operator_class, "on_resolve", lambda self: seen.append(self.settings))
    rules = [{"type": "CUSTOM_NOOP", "attributes": {"gain": 2}}, {"type": "CUSTOM_NOOP", "attributes": {"gain": 5}}]
    convert(tmp_path, custom_noop_model(), context, operators=rules)
    assert seen == [GainAttributes(gain=5)]


def test_heliaaot_names_are_the_settings_and_the_node_attributes(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """heliaAOT's AotOperator.attributes is opbridge's settings, its .options the node's attributes."""
    context, operator_class = with_attributes(GainAttributes)
    seen = []
    monkeypatch.setattr(operator_class, "on_resolve", lambda self: seen.append(self))
    convert(tmp_path, custom_noop_model(), context, operators=[{"type": "CUSTOM_NOOP", "attributes": {"gain": 3}}])
    (operator,) = seen
    assert operator.attributes is operator.settings
    assert operator.settings == GainAttributes(gain=3)
    assert operator.options is operator.node.attributes


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ({"type": "CUSTOM_NOOP", "attributes": {"code_placment": ".itcm"}}, "did you mean 'code_placement'"),
        ({"type": "CONV2D", "attributes": {}}, "did you mean 'CONV_2D'"),
        ({"type": "*", "attributes": {"gian": 1}}, "did you mean 'gain'"),
        ({"type": "*", "attributes": {"scratch_placement": "sram"}}, "was removed"),
    ],
)
def test_misspelt_rules_name_the_nearest_valid_key(tmp_path: pathlib.Path, rule: dict, message: str) -> None:
    context, _ = with_attributes(GainAttributes)
    rules = [rule, {"type": "CUSTOM_NOOP", "attributes": {"gain": 1}}]
    with pytest.raises(ConfigError, match=message):
        convert(tmp_path, custom_noop_model(), context, operators=rules)


def test_free_form_attributes_keep_unknown_keys(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    context, operator_class = with_attributes(FreeFormAttributes)
    seen = []
    monkeypatch.setattr(operator_class, "on_resolve", lambda self: seen.append(self.settings))
    convert(tmp_path, custom_noop_model(), context, operators=[{"type": "CUSTOM_NOOP", "attributes": {"tile": 4}}])
    assert seen[0].tile == 4


def test_code_placement_puts_the_operators_functions_in_that_section(tmp_path: pathlib.Path) -> None:
    rules = [{"type": "*", "attributes": {"code_placement": ".itcm_text"}}]
    convert(tmp_path, custom_noop_model(), plugin_context(), operators=rules)
    source = tmp_path / "out" / "src" / "m_node_0_custom_noop.c"
    obj = tmp_path / "noop.o"
    subprocess.run(["gcc", "-std=c99", "-c", f"-I{tmp_path / 'out' / 'includes-api'}", str(source), "-o", str(obj)],
                   check=True)  # fmt: skip
    symbols = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True, check=True).stdout
    assert any(".itcm_text" in line and "m_node_0_custom_noop_run" in line for line in symbols.splitlines())


def test_a_bad_code_placement_is_a_config_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ConfigError, match=r"code_placement.*not a linker section"):
        convert(tmp_path, custom_noop_model(), plugin_context(), operators=[
            {"type": "*", "attributes": {"code_placement": "text; rm -rf"}}
        ])  # fmt: skip


# -- transforms and model hooks ------------------------------------------------------


@dataclasses.dataclass
class RenameOptions:
    suffix: str = "_renamed"


class RenameNodes(Transform):
    NAME = "rename_nodes"
    OPTIONS = RenameOptions

    def apply(self, graph: Graph) -> Graph:
        for node in graph.nodes:
            node.name += self.options.suffix
        return graph


class TakesNothing(Transform):
    NAME = "takes_nothing"

    def apply(self, graph: Graph) -> Graph:
        return graph


def transforms_context():
    def customize(context) -> None:
        custom_noop.customize_registry(context)
        context.transforms.register(RenameNodes.NAME, RenameNodes)
        context.transforms.register(TakesNothing.NAME, TakesNothing)

    return build_default_registry_context([customize])


def test_transforms_run_with_typed_options(tmp_path: pathlib.Path) -> None:
    rules = [{"name": "rename_nodes", "options": {"suffix": "_x"}}, {"name": "takes_nothing"}]
    result = convert(tmp_path, custom_noop_model(), transforms_context(), transforms=rules)
    assert result.graph.nodes[0].name.endswith("_x")


@pytest.mark.parametrize(
    ("rule", "error", "message"),
    [
        ({"name": "rename_node"}, ConfigError, "did you mean 'rename_nodes'"),
        ({"name": "rename_nodes", "options": {"sufix": "_x"}}, TransformConfigError, "did you mean 'suffix'"),
        ({"name": "takes_nothing", "options": {"a": 1}}, TransformConfigError, "takes no options"),
    ],
)
def test_transform_config_errors(tmp_path: pathlib.Path, rule: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        convert(tmp_path, custom_noop_model(), transforms_context(), transforms=[rule])


def test_model_hooks_rewrite_the_flatbuffer_before_parsing() -> None:
    # A model exported with an older custom code, renamed by a hook.
    old_model = custom_noop_model(custom_code="legacy-copy")

    def customize(context) -> None:
        custom_noop.customize_registry(context)
        context.litert_model_hooks.register(
            "rename_legacy_copy", lambda data: data.replace(b"legacy-copy", b"custom-noop")
        )

    graph = read_litert_model(old_model, build_default_registry_context([customize]))
    assert graph.nodes[0].op_type == "CUSTOM_NOOP"
    values = np.arange(16, dtype=np.int8).reshape(1, 16)
    (copied,) = ReferenceInterpreter(graph, build_default_registry_context([customize])).run([values])
    assert np.array_equal(copied, values)


def test_a_failing_model_hook_is_named() -> None:
    def customize(context) -> None:
        context.litert_model_hooks.register("broken", lambda data: 1 / 0)

    with pytest.raises(OperatorPluginError, match="model hook 'broken' failed: ZeroDivisionError"):
        read_litert_model(custom_noop_model(), build_default_registry_context([customize]))


def test_a_parser_returning_the_wrong_options_class_is_named() -> None:
    class NoopOptions:
        pass

    def customize(context) -> None:
        custom_noop.customize_registry(context)
        context.air_options.register(custom_noop.CUSTOM_OP_KEY, NoopOptions)
        context.litert_parsers.register(custom_noop.CUSTOM_OP_KEY, lambda node: object(), overwrite=True)

    with pytest.raises(OperatorPluginError, match="returned object, but air_options registers NoopOptions"):
        read_litert_model(custom_noop_model(), build_default_registry_context([customize]))


def test_a_parser_rejecting_options_is_a_model_error_naming_the_parser() -> None:
    with pytest.raises(ModelFormatError, match="custom-noop takes no options, got 3 bytes") as error:
        read_litert_model(custom_noop_model(custom_options=b"abc"), plugin_context())
    assert "my_plugin.custom_noop.parse_custom_noop" in str(error.value)


# -- plugins that break the contract ---------------------------------------------------


def test_a_custom_code_naming_a_builtin_is_not_compiled_as_the_builtin() -> None:
    with pytest.raises(UnsupportedOperatorError, match="its key RELU is a builtin operator's key"):
        read_litert_model(custom_noop_model(custom_code="relu"), plugin_context())


def replacing_noop_class(**members):
    operator_class = type("Broken", (custom_noop.CustomNoopOperator,), members)

    def customize(context) -> None:
        custom_noop.customize_registry(context)
        context.aot_operator_classes.register(custom_noop.CUSTOM_OP_KEY, operator_class, overwrite=True)

    return build_default_registry_context([customize])


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"persistent_bytes": lambda self: 16}, "asks for 16 persistent bytes but has no init"),
        ({"emit": lambda self, save_path: None}, "wrote no definition of m_node_0_custom_noop_run"),
        ({"TYPE": "OTHER_KEY"}, "registered for CUSTOM_NOOP but its TYPE is 'OTHER_KEY'"),
        ({"scratch_bytes": lambda self: -4}, r"scratch_bytes\(\) returned -4"),
        ({"kernel_sources": lambda self: [pathlib.Path("no/such/kernel.c")]}, "names no/such/kernel.c, which is not"),
    ],
)
def test_operator_classes_breaking_the_contract_are_named(tmp_path: pathlib.Path, members, message: str) -> None:
    with pytest.raises(OperatorPluginError, match=message):
        convert(tmp_path, custom_noop_model(), replacing_noop_class(**members))


def test_a_plugin_taking_over_a_builtin_code_needs_allow_override() -> None:
    from opbridge.aot.definition_registration import register_operator_definitions
    from opbridge.ops.fully_connected import FULLY_CONNECTED

    def take_over(context) -> None:
        # A schema of its own and no ONNX or torch converters: the built-in's (opbridge.FULLY_CONNECTED, Gemm,
        # aten.linear, ...) are its alone.
        schema = dataclasses.replace(FULLY_CONNECTED.schema, name="MY_FC")
        taken = dataclasses.replace(
            FULLY_CONNECTED, op_type="MY_FC", schema=schema, onnx_converters=(), torch_converters=()
        )
        register_operator_definitions(context, [taken])

    with pytest.raises(RegistryError, match="took over the LiteRT builtin code 9 of the built-in 'FULLY_CONNECTED'"):
        build_default_registry_context([take_over])
    context = build_default_registry_context([take_over], allow_override=True)
    graph = read_litert_model((MODELS / "tflm/hello_world_int8.tflite").read_bytes(), context)
    assert {node.op_type for node in graph.nodes} == {"MY_FC"}


def test_failing_customizers_and_references_are_named() -> None:
    with pytest.raises(OperatorPluginError, match=r"customizer .*broken_customizer failed: KeyError"):

        def broken_customizer(context) -> None:
            raise KeyError("oops")

        build_default_registry_context([broken_customizer])

    def failing_reference(context) -> None:
        custom_noop.customize_registry(context)
        context.operators.add(
            dataclasses.replace(context.operators["CUSTOM_NOOP"], reference=lambda call: 1 / 0), overwrite=True
        )

    context = build_default_registry_context([failing_reference])
    graph = read_litert_model(custom_noop_model(), context)
    with pytest.raises(OperatorPluginError, match=r"node 0 .*reference implementation failed: ZeroDivisionError"):
        ReferenceInterpreter(graph, context).run([np.zeros((1, 16), np.int8)])


def test_a_star_rule_typo_is_caught_even_beside_free_form_operators(tmp_path: pathlib.Path) -> None:
    context, _ = with_attributes(FreeFormAttributes)
    with pytest.raises(ConfigError, match="did you mean 'code_placement'"):
        convert(tmp_path, custom_noop_model(), context, operators=[{"type": "*", "attributes": {"code_placment": "x"}}])


class PydanticOptions(pydantic.BaseModel):
    factor: int = 2


class Scale(TakesNothing):
    NAME = "scale"
    OPTIONS = PydanticOptions


def test_pydantic_transform_options_reject_unknown_keys() -> None:
    with pytest.raises(TransformConfigError, match="did you mean 'factor'"):
        make_options(Scale, {"facter": 3})
    assert make_options(Scale, {"factor": 3}).factor == 3


# -- plugins from the command line ----------------------------------------------------


def test_a_plugin_module_that_fails_to_import_is_named(tmp_path: pathlib.Path, monkeypatch) -> None:
    (tmp_path / "broken_plugin.py").write_text("import not_a_real_module\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginImportError, match="'broken_plugin' failed to import: ModuleNotFoundError"):
        load_customizer("broken_plugin")
    with pytest.raises(PluginImportError, match="no function 'customize_registry'"):
        load_customizer("json")


def test_cli_convert_with_a_plugin(tmp_path: pathlib.Path, capsys) -> None:
    model = tmp_path / "noop.tflite"
    model.write_bytes(custom_noop_model())
    arguments = ["convert", str(model), "-o", str(tmp_path / "out"), "--prefix", "noop", "--no-entry-points"]
    assert cli.main(arguments) == 1
    assert "custom-noop" in capsys.readouterr().err
    assert cli.main([*arguments, "--plugin", "my_plugin.custom_noop"]) == 0
    assert (tmp_path / "out" / "src" / "noop_node_0_custom_noop.c").exists()


def test_cli_reports_a_plugin_that_fails_to_import(capsys) -> None:
    assert cli.main(["plugins", "list", "--plugin", "no_such_plugin_module"]) == 1
    assert "'no_such_plugin_module' failed to import" in capsys.readouterr().err


def test_plugins_list_and_entry_points(tmp_path: pathlib.Path, monkeypatch, capsys) -> None:
    # An installed package declaring the entry point group, found by importlib.metadata on sys.path.
    (tmp_path / "gain_plugin.py").write_text(
        textwrap.dedent("""
        from opbridge.ops.definition import OperatorDefinition
        from opbridge.schemas.opsets import OpsetDomain
        from opbridge.schemas.schema import ANY_TYPE, FormalParameter, OpSchema, TypeConstraint, same_as_input

        # ONNX nodes of domain com.example.gain produce GAIN.
        GAIN = OpSchema(
            domain="com.example.gain",
            name="Gain",
            since_version=1,
            inputs=(FormalParameter("x", "T"),),
            outputs=(FormalParameter("y", "T"),),
            type_constraints=(TypeConstraint("T", ANY_TYPE),),
            infer=same_as_input(0),
        )

        def customize_registry(context):
            context.opset_domains.register("com.example.gain", OpsetDomain("com.example.gain"))
            definition = OperatorDefinition(op_type="GAIN", reference=lambda call: [call.value(0)], schema=GAIN)
            context.operators.add(definition)
    """)
    )
    info = tmp_path / "gain_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gain-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[opbridge.plugins]\ngain = gain_plugin:customize_registry\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "GAIN" in build_plugin_context().operators
    assert "GAIN" not in build_plugin_context(entry_points=False).operators
    assert cli.main(["plugins", "list", "--plugin", "my_plugin.custom_noop"]) == 0
    listing = capsys.readouterr().out
    assert "gain_plugin.customize_registry: GAIN" in listing
    assert "my_plugin.custom_noop.customize_registry: CUSTOM_NOOP" in listing
    assert "builtin: " in listing and "CONV_2D" in listing


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
