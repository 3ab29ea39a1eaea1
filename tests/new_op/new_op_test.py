# SPDX-License-Identifier: Apache-2.0
"""`opbridge new-op` and the portable kernel interface.

The six packages beside this file are `opbridge new-op` output, committed
unchanged but for one statement: their own tests (`bazel test //tests/new_op/...`)
are the proof that a scaffold passes as generated on every platform, and the
first test here keeps them byte-identical to what the command writes today.
The exception is the `package(default_visibility = ...)` statement added by hand
to onnx_int8_torch/BUILD.bazel (VISIBLE_TO_THIS_TEST), which lets this test and
tests/openvino run that package's libraries; the first test strips it before
comparing.
"""

import dataclasses
import os
import pathlib
import subprocess

import pytest
from opbridge import cli
from opbridge.aot.kernel_adapters import portable_kernel_of
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelError
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import OpbridgeError
from opbridge.ir import DType
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.scaffold import OpNames, ScaffoldError, scaffold_files
from opbridge.schemas.schema import FormalParameter, OpSchema, ParameterOption, TypeConstraint, same_as_input
from opbridge_testing.host_build import COMPILER
from opbridge_testing.single_op import run_golden_program

HERE = pathlib.Path("tests/new_op")
SOFT_CLIP_LIBRARIES = ("examples/soft_clip/libsoft_clip_plugin.so", "examples/soft_clip/libsoft_clip_ort.so")
VARIANTS = {
    "litert_int8": ("LitertInt8", "litert", "int8", None),
    "litert_float32": ("LitertFloat32", "litert", "float32", None),
    "onnx_float32": ("OnnxFloat32", "onnx", "float32", None),
    "onnx_int8": ("OnnxInt8", "onnx", "int8", None),
    # `--torch`: also a PyTorch op; the int8 one's params come from the quantization PT2E gives its tensors.
    "onnx_float32_torch": ("OnnxFloat32Torch", "onnx", "float32", ""),
    "onnx_int8_torch": ("OnnxInt8Torch", "onnx", "int8", ""),
}
# The int8 PyTorch op's package as Bazel builds it: its kernel in the hosts.
INT8_TORCH = HERE / "onnx_int8_torch"
INT8_TORCH_ENVIRONMENT = {
    "OPBRIDGE_OP_PLUGIN": str(INT8_TORCH / "libonnx_int8_torch_plugin.so"),
    "OPBRIDGE_OP_ORT_LIBRARY": str(INT8_TORCH / "libonnx_int8_torch_ort.so"),
    "OPBRIDGE_OP_OPENVINO_EXTENSION": str(INT8_TORCH / "libonnx_int8_torch_openvino.so"),
    "OPBRIDGE_OP_GOLDEN_CASES": "20",
}
VISIBLE_TO_THIS_TEST = """package(default_visibility = [
    "//tests/new_op:__pkg__",  # new_op_test runs its libraries
    "//tests/openvino:__pkg__",  # and the OpenVINO tests its extension
])

"""


@pytest.mark.parametrize("package", sorted(VARIANTS))
def test_the_committed_packages_are_what_new_op_writes(package: str) -> None:
    name, fmt, dtype, torch = VARIANTS[package]
    expected = scaffold_files(name, fmt, dtype, torch=torch)  # type: ignore[arg-type]
    folder = HERE / package
    on_disk = {
        path.relative_to(folder).as_posix(): path.read_text()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".so"  # libraries this test runs
    }
    # The one line added by hand: this test runs the int8 PyTorch op's libraries (INT8_TORCH).
    on_disk["BUILD.bazel"] = on_disk["BUILD.bazel"].replace(VISIBLE_TO_THIS_TEST, "")
    # Bazel's runfiles add empty __init__.py files to every folder; nothing else may differ.
    extra = {path: text for path, text in on_disk.items() if path not in expected}
    assert all(path.endswith("__init__.py") and not text for path, text in extra.items()), sorted(extra)
    for relative, text in expected.items():
        assert on_disk[relative] == text, f"{folder / relative} differs from `opbridge new-op` output: regenerate it"


def test_names_in_every_spelling_give_one_package() -> None:
    for spelling in ("SquaredRelu", "squared_relu", "SQUARED_RELU"):
        names = OpNames.of(spelling)
        assert (names.camel, names.snake, names.key, names.custom_code) == (
            "SquaredRelu", "squared_relu", "SQUARED_RELU", "SQUARED_RELU"
        )  # fmt: skip
    assert OpNames.of("Conv1dInt8").snake == "conv1d_int8"
    # A model's customCode gives the key the LiteRT reader derives from it.
    names = OpNames.of("SquaredRelu").with_custom_code("SquaredRelu")
    assert (names.snake, names.key, names.custom_code) == ("squared_relu", "SQUAREDRELU", "SquaredRelu")
    assert (
        'CUSTOM_CODE = "SquaredRelu"'
        in scaffold_files("SquaredRelu", "litert", custom_code="SquaredRelu")["squared_relu/plugin.py"]
    )
    with pytest.raises(ScaffoldError, match="not a C identifier"):
        scaffold_files("SquaredRelu", "litert", custom_code="squared.relu")
    with pytest.raises(ScaffoldError, match="for LiteRT operators"):
        scaffold_files("SquaredRelu", "onnx", custom_code="SquaredRelu")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("my-op", "not an identifier"),
        ("3op", "not an identifier"),
        ("Kernel", "already has"),
        ("Lambda", "already has"),  # a Python keyword
        ("Json", "already has"),  # a standard module the package would shadow
        ("A" * 30, "longer"),
    ],
)
def test_bad_names_are_refused_with_the_reason(name: str, message: str) -> None:
    with pytest.raises(ScaffoldError, match=message):
        scaffold_files(name, "onnx")


def test_new_op_writes_a_package_and_refuses_a_folder_in_the_way(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "squared_relu"
    assert cli.main(["new-op", "SquaredRelu", "--format", "litert", "-o", str(target)]) == 0
    assert (target / "squared_relu" / "kernel" / "squared_relu_kernel.c").is_file()
    assert "wrote 7 files" in capsys.readouterr().out
    assert cli.main(["new-op", "SquaredRelu", "--format", "litert", "-o", str(target)]) == 1
    assert "exists and is not an empty folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["new-op", "SquaredRelu", "--format", "tflite"])
    assert "invalid choice: 'tflite'" in capsys.readouterr().err


def _schema(**changes: object) -> OpSchema:
    fields: dict[str, object] = {
        "domain": "com.example.tests",
        "name": "Op",
        "since_version": 1,
        "inputs": (FormalParameter("x", "T"),),
        "outputs": (FormalParameter("y", "T"),),
        "type_constraints": (TypeConstraint("T", (DType.FLOAT32,)),),
        "infer": same_as_input(0),
    }
    fields.update(changes)
    return OpSchema(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"function": "my-op"}, "not a C identifier"),
        ({"params": (KernelParam("gain", "double"),)}, r'(?s)C type .double.*"float" or "int32_t"'),  # type: ignore[arg-type]
        ({"params": (KernelParam("a", "float"), KernelParam("a", "int32_t"))}, "repeat a name"),
        ({"schema": _schema(inputs=(FormalParameter("x", "T", option=ParameterOption.VARIADIC),))}, "is variadic"),
        ({"schema": _schema(type_constraints=(TypeConstraint("T", (DType.FLOAT64,)),))}, "allows .'float64'."),
    ],
)
def test_a_portable_kernel_the_interface_cannot_serve_is_refused(changes: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "function": "op",
        "header": pathlib.Path("op_kernel.h"),
        "sources": (),
        "params": (),
        "schema": _schema(),
    }
    fields.update(changes)
    with pytest.raises(PortableKernelError, match=message):
        PortableKernel(**fields)  # type: ignore[arg-type]


def test_kernel_adapters_names_the_nearest_key_and_refuses_other_classes(capsys: pytest.CaptureFixture[str]) -> None:
    from soft_clip.plugin import customize_registry

    context = build_default_registry_context(customizers=[customize_registry])
    assert portable_kernel_of(context, "SOFT_CLIP").function == "soft_clip_kernel"
    with pytest.raises(PortableKernelError, match="did you mean 'SOFT_CLIP'"):
        portable_kernel_of(context, "SOFT_CLP")
    with pytest.raises(PortableKernelError, match="is not a PortableKernelOperator"):
        portable_kernel_of(context, "CONV_2D")
    assert cli.main(["kernel-adapters", "SOFT_CLIP", "--plugin", "soft_clip.plugin"]) == 1
    assert "nothing to write" in capsys.readouterr().err


def test_a_kernel_left_out_of_the_build_is_named_by_the_compiler(tmp_path: pathlib.Path) -> None:
    """Friction point 4: without the plugin's kernel library the module says which node needs which
    kernel and how to link it, not gcc's bare "No such file or directory"."""
    from soft_clip.plugin import customize_registry

    model = tmp_path / "soft_clip.onnx"
    model.write_bytes(pathlib.Path("examples/soft_clip/soft_clip.onnx").read_bytes())
    context = build_default_registry_context(customizers=[customize_registry])
    out = tmp_path / "module"
    config = ConvertArgs(model=model, output_dir=out, prefix="clip", bundle_kernels=False, cmake_lists=False)
    AotConverter(config, registry_context=context).convert()
    (source,) = out.glob("src/clip_node_0_*.c")
    includes = ["-I", str(out / "src"), "-I", str(out / "includes-api"), "-I", "."]
    result = subprocess.run(
        [COMPILER, "-std=c99", "-fsyntax-only", *includes, str(source)], capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert "calls soft_clip_kernel() of soft_clip_kernel.h, which this build lacks" in result.stderr
    assert "aot_model(kernel_deps = [...])" in result.stderr
    assert "No such file or directory" not in result.stderr
    # With the kernel's folder on the include path the same source compiles.
    kernel_folder = ["-I", "examples/soft_clip/soft_clip/kernel"]
    result = subprocess.run(
        [COMPILER, "-std=c99", "-fsyntax-only", *includes, *kernel_folder, str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_a_self_contained_module_carries_the_kernel_and_passes_its_golden_test(tmp_path: pathlib.Path) -> None:
    """What `opbridge convert` writes outside Bazel (kernels bundled, a CMakeLists.txt) builds alone."""
    from soft_clip.plugin import customize_registry

    model = tmp_path / "soft_clip.onnx"
    model.write_bytes(pathlib.Path("examples/soft_clip/soft_clip.onnx").read_bytes())
    context = build_default_registry_context(customizers=[customize_registry])
    out = tmp_path / "module"
    golden = tmp_path / "golden_test.c"
    config = ConvertArgs(model=model, output_dir=out, prefix="clip", golden_test=golden)
    AotConverter(config, registry_context=context).convert()
    assert (out / "src" / "soft_clip_kernel.c").is_file() and (out / "src" / "soft_clip_kernel.h").is_file()
    assert (out / "kernels" / "cc" / "kernels" / "opbridge_kernel_api.h").is_file()
    assert "soft_clip_kernel.c" in (out / "CMakeLists.txt").read_text()
    assert "0 failures" in run_golden_program(out, golden)  # it also fails on a nonzero exit


def test_params_that_do_not_match_the_kernel_s_struct_stop_the_conversion(tmp_path: pathlib.Path) -> None:
    from soft_clip.plugin import KERNEL as SOFT_CLIP_KERNEL
    from soft_clip.plugin import SoftClipOperator, customize_registry

    def wrong_params(kernel: PortableKernel, graph: object, node: object) -> dict[str, float]:
        return {"limit": 1.0, "gain": 2.0}

    class WrongParams(SoftClipOperator):
        KERNEL = dataclasses.replace(SOFT_CLIP_KERNEL, param_values_of=wrong_params)

    def customize(context: RegistryContext) -> None:
        customize_registry(context)
        context.aot_operator_classes.register("SOFT_CLIP", WrongParams, overwrite=True)

    model = tmp_path / "soft_clip.onnx"
    model.write_bytes(pathlib.Path("examples/soft_clip/soft_clip.onnx").read_bytes())
    context = build_default_registry_context(customizers=[customize])
    with pytest.raises(
        PortableKernelError, match=r"soft_clip_node.*params of soft_clip_kernel are \['gain', 'limit'\]"
    ):
        AotConverter(ConvertArgs(model=model, output_dir=tmp_path / "out"), registry_context=context).convert()


def test_a_non_positive_limit_is_refused_naming_the_node(tmp_path: pathlib.Path) -> None:
    from soft_clip.model import make_model
    from soft_clip.plugin import customize_registry

    model = tmp_path / "soft_clip.onnx"
    model.write_bytes(make_model(limit=0.0))
    context = build_default_registry_context(customizers=[customize_registry])
    with pytest.raises(OpbridgeError, match=r"soft_clip_node.*limit 0.0 is not positive"):
        AotConverter(ConvertArgs(model=model, output_dir=tmp_path / "out"), registry_context=context).convert()


def test_any_plugin_s_kernel_header_left_out_of_the_build_is_named(tmp_path: pathlib.Path) -> None:
    """Friction point 4 for plugins that write their own C (not PortableKernelOperator): a node source
    that includes one of the class's kernel_sources() headers checks for it first."""
    from make_model import custom_noop_model
    from my_plugin.custom_noop import CUSTOM_OP_KEY, CustomNoopOperator
    from my_plugin.custom_noop import customize_registry as customize_noop

    (tmp_path / "noop_kernel.h").write_text("int noop_kernel(void);\n")
    (tmp_path / "noop_kernel.c").write_text('#include "noop_kernel.h"\nint noop_kernel(void) { return 0; }\n')

    class WithKernel(CustomNoopOperator):
        def emit(self, save_path: pathlib.Path) -> None:
            super().emit(save_path)
            source = save_path / "src" / f"{self.prefix}_{self.name}.c"
            source.write_text('#include "noop_kernel.h"\n' + source.read_text())

        def kernel_sources(self) -> list[pathlib.Path]:
            return [tmp_path / "noop_kernel.c", tmp_path / "noop_kernel.h"]

    def customize(context: RegistryContext) -> None:
        customize_noop(context)
        context.aot_operator_classes.register(CUSTOM_OP_KEY, WithKernel, overwrite=True)

    model = tmp_path / "noop.tflite"
    model.write_bytes(custom_noop_model())
    context = build_default_registry_context(customizers=[customize])
    out = tmp_path / "module"
    config = ConvertArgs(model=model, output_dir=out, prefix="noop", bundle_kernels=False, cmake_lists=False)
    AotConverter(config, registry_context=context).convert()
    (source,) = out.glob("src/noop_node_0_*.c")
    includes = ["-I", str(out / "src"), "-I", str(out / "includes-api"), "-I", "."]
    result = subprocess.run(
        [COMPILER, "-std=c99", "-fsyntax-only", *includes, str(source)], capture_output=True, text=True, check=False
    )
    assert "includes noop_kernel.h, a kernel of its plugin" in result.stderr, result.stderr
    assert "WithKernel.kernel_sources()" in result.stderr
    assert "No such file or directory" not in result.stderr
    result = subprocess.run(
        [COMPILER, "-std=c99", "-fsyntax-only", *includes, "-I", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_an_unknown_custom_operator_s_hint_names_all_four_parts_and_new_op(tmp_path: pathlib.Path) -> None:
    """Friction point 2: following the hint literally gives a complete plugin, not one without schema or
    reference; `new-op KEY` with the key shown keeps that key."""
    from make_model import custom_noop_model

    model = tmp_path / "op.tflite"
    model.write_bytes(custom_noop_model(custom_code="squared-relu"))
    with pytest.raises(OpbridgeError) as raised:
        AotConverter(ConvertArgs(model=model, output_dir=tmp_path / "out")).convert()
    hint = raised.value.hint
    assert "custom operator 'squared-relu' (key SQUARED_RELU)" in raised.value.message
    assert "opbridge new-op KEY --format litert" in hint
    for part in ("OperatorDefinition with schema and reference", "litert_parsers", "aot_operator_classes"):
        assert part in hint
    for key in ("SQUARED_RELU", "SQUAREDRELU", "CONV1D_INT8"):
        assert OpNames.of(key).key == key


def test_two_scaffolded_operators_load_together(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each scaffold has a domain of its own (com.example.<name>), so plugins of several ops combine."""
    from soft_clip.plugin import customize_registry as soft_clip

    for relative, text in scaffold_files("OtherOp", "onnx").items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    from other_op.plugin import customize_registry as other_op  # type: ignore[import-not-found]

    context = build_default_registry_context(customizers=[soft_clip, other_op])
    assert {"SOFT_CLIP", "OTHER_OP"} <= set(context.aot_operator_classes)
    assert context.schemas().select("com.example.other_op", "OtherOp", 1)[1] == "OTHER_OP"


@pytest.mark.parametrize(("attributes", "limit"), [({}, 1.0), ({"limit": 2}, 2.0)])
def test_the_host_adapters_read_attributes_as_opbridge_does(
    tmp_path: pathlib.Path, attributes: dict[str, int], limit: float
) -> None:
    """A node without `limit` takes the schema's default, and an int attribute counts as a float, in
    opbridge's native host and in onnxruntime alike: the same model runs unchanged in all three."""
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
    from opbridge.backends.host_plugins import CustomOpSession
    from opbridge.backends.reference import ReferenceInterpreter
    from opbridge.frontends.models import load_model
    from soft_clip.plugin import DOMAIN, NAME, customize_registry

    node = helper.make_node(NAME, ["x"], ["y"], domain=DOMAIN, **attributes)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, (2, 3))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, (2, 3))],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(DOMAIN, 1)]
    model = helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()
    (tmp_path / "m.onnx").write_bytes(model)
    context = build_default_registry_context(customizers=[customize_registry])
    x = np.linspace(-5, 5, 6, dtype=np.float32).reshape(2, 3)
    (expected,) = ReferenceInterpreter(load_model(tmp_path / "m.onnx", context), context).run([x])
    np.testing.assert_array_equal(expected, x / (np.float32(1) + np.abs(x) / np.float32(limit)))
    with CustomOpSession(SOFT_CLIP_LIBRARIES[0], model, abi="opbridge") as session:
        np.testing.assert_array_equal(session.run([x])[0], expected)
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(SOFT_CLIP_LIBRARIES[1]))
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(session.run(None, {"x": x})[0], expected)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--format", "litert", "--torch"], "--torch is for --format onnx operators"),
        (["--format", "onnx", "--torch", "soft_threshold"], "is not a torch qualified name"),
        (["--format", "onnx", "--torch", "aten::soft_threshold"], "namespace 'aten' belongs to torch"),
    ],
)
def test_new_op_torch_refuses_what_cannot_be_a_torch_op(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    assert cli.main(["new-op", "SoftThreshold", *arguments, "-o", str(tmp_path / "op")]) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "op").exists()


def test_new_op_torch_declares_the_torch_op_by_its_qualified_name(tmp_path: pathlib.Path) -> None:
    assert cli.main(["new-op", "SoftThreshold", "--format", "onnx", "--torch", "-o", str(tmp_path / "a")]) == 0
    plugin = (tmp_path / "a" / "soft_threshold" / "plugin.py").read_text()
    assert 'TORCH_NAME = "soft_threshold::soft_threshold"' in plugin  # <the domain's last part>::<name>
    assert "register_torch_op(context, TorchOp(KEY, TORCH_NAME, quantization=FLOAT, defined_by=DEFINED_BY))" in plugin
    arguments = ["--format", "onnx", "--dtype", "int8", "--torch", "mylib::soft_threshold", "--domain", "com.acme"]
    assert cli.main(["new-op", "SoftThreshold", *arguments, "-o", str(tmp_path / "b")]) == 0
    plugin = (tmp_path / "b" / "soft_threshold" / "plugin.py").read_text()
    assert 'TORCH_NAME = "mylib::soft_threshold"' in plugin and "quantization=SAME_AS_INPUT" in plugin
    assert 'test_deps = ["@torch_packages//:torch"]' in (tmp_path / "b" / "BUILD.bazel").read_text()


def test_a_computed_param_missing_from_the_node_is_named_with_the_fix_in_onnxruntime() -> None:
    """The int8 PyTorch op's params come from its tensors' quantization (param_values_of), which no ONNX node
    carries: onnxruntime, given the model as it is, says so and how to pass them (op_test.py's host_model)."""
    import numpy as np
    import onnxruntime as ort
    from onnx_int8_torch.model import make_model  # type: ignore[import-not-found]

    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(INT8_TORCH_ENVIRONMENT["OPBRIDGE_OP_ORT_LIBRARY"]))
    with pytest.raises(Exception, match=r'lacks the int attribute "zero_point"') as raised:
        session = ort.InferenceSession(make_model((2, 3)), options, providers=["CPUExecutionProvider"])
        session.run(None, {"x": np.zeros((2, 3), np.int8)})
    assert "the plugin computes this param (param_values_of)" in str(raised.value)
    assert "add it to the node" not in str(raised.value)


# The user's own op: the generated reference's math, and a line in the file $MYLIB_NEW_OP_CALLS per eager call,
# so that the test sees that eager torch ran this kernel (adopted and kept), not a generated one.
USER_TORCH_OP = """
import os

import torch


@torch.library.custom_op("mylib_new_op::soft_threshold", mutates_args=())
def leaky(x: torch.Tensor, alpha: float = 0.25) -> torch.Tensor:
    with open(os.environ["MYLIB_NEW_OP_CALLS"], "a") as calls:
        calls.write(f"{list(x.shape)}\\n")
    return torch.where(x >= 0, x, x * alpha)


@leaky.register_fake
def _(x, alpha=0.25):
    return torch.empty_like(x)
"""


@pytest.mark.parametrize("order", ["plugin_first", "user_first"])
def test_an_int8_torch_op_adopting_a_users_torch_library_op_passes_its_generated_tests(
    tmp_path: pathlib.Path, order: str
) -> None:
    """`new-op --torch mylib::name` for a torch.library op the user already has: the plugin names the user's
    module (DEFINED_BY, the one edit), and the generated op_test.py passes as written, whichever of the user's
    module and the plugin is imported first; its torch tests run the user's own kernel (each call is logged).
    The hosts run the Bazel-built kernel of tests/new_op/onnx_int8_torch,
    which is the same op (domain, name, kernel) under another torch name."""
    import sys

    package = tmp_path / "package"
    arguments = ["--format", "onnx", "--dtype", "int8", "--torch", "mylib_new_op::soft_threshold"]
    assert cli.main(["new-op", "OnnxInt8Torch", *arguments, "-o", str(package)]) == 0
    plugin = package / "onnx_int8_torch" / "plugin.py"
    plugin.write_text(plugin.read_text().replace("DEFINED_BY = None", 'DEFINED_BY = "mylib_new_op"'))
    (package / "mylib_new_op.py").write_text(USER_TORCH_OP)
    from onnx_int8_torch.model import make_model  # type: ignore[import-not-found]

    (tmp_path / "model.onnx").write_bytes(make_model())  # the golden test's model, as model.py writes it
    first = "import mylib_new_op; " if order == "user_first" else ""
    # user_first: the user's module defines the op before anything of opbridge's loads.
    selection = ["-k", "torch or pt2e"] if order == "user_first" else []
    command = [
        sys.executable,
        "-c",
        f"import sys, pytest; {first}sys.exit(pytest.main(sys.argv[1:]))",
        "-q",
        "-p",
        "no:cacheprovider",
        *selection,
        str(package / "op_test.py"),
    ]
    environment = {
        **os.environ,
        **{name: os.path.abspath(path) if name != "OPBRIDGE_OP_GOLDEN_CASES" else path
           for name, path in INT8_TORCH_ENVIRONMENT.items()},
        "OPBRIDGE_OP_MODEL": str(tmp_path / "model.onnx"),
        "MYLIB_NEW_OP_CALLS": str(tmp_path / "calls.txt"),
        "PYTHONPATH": os.pathsep.join([str(package), *sys.path]),
    }  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    expected = "9 passed" if order == "plugin_first" else "2 passed, 7 deselected"
    assert expected in result.stdout, result.stdout[-2000:]
    # opcheck and the torch.export test called the op eagerly: the user's kernel ran, not the generated one.
    assert (tmp_path / "calls.txt").exists(), "the user's kernel never ran: define_torch_ops replaced it"
    assert (tmp_path / "calls.txt").read_text().count("\n") >= 2


@pytest.mark.parametrize("alpha", [-0.5, float("nan")])
def test_the_int8_torch_op_refuses_an_alpha_that_is_not_a_number_at_least_0(
    tmp_path: pathlib.Path, alpha: float
) -> None:
    """The scaffold's kernel_params turns alpha into a fixed-point multiplier: a negative alpha, or NaN, is
    refused naming the node and the value."""
    from onnx_int8_torch.model import make_model  # type: ignore[import-not-found]
    from onnx_int8_torch.plugin import KERNEL, customize_registry  # type: ignore[import-not-found]
    from opbridge.frontends.models import load_model

    (tmp_path / "m.onnx").write_bytes(make_model(alpha=alpha))
    graph = load_model(tmp_path / "m.onnx", build_default_registry_context(customizers=[customize_registry]))
    (node,) = graph.nodes
    with pytest.raises(PortableKernelError, match=rf"alpha is {alpha}; it must be a number >= 0"):
        KERNEL.param_values(graph, node)
