# SPDX-License-Identifier: Apache-2.0
"""A small CNN as a PyTorch user brings it: exported by torch.onnx.export (the default exporter, which
writes the weights to a `.onnx.data` file beside the model) and quantized by onnxruntime's
quantize_static in both formats, QDQ and QOperator (this one with use_external_data_format, so its
int8 weights are in a data file too). Each converts from another working directory, through the
public API (AotConverter's plan, the graph the emitted module computes) and the CLI (`opbridge run`,
the reference on the imported graph), and matches onnxruntime: the float model closely, the int8
ones within the int8 steps docs/onnx.md states (the QOperator model bit for bit on these inputs). The int8
modules' emitted C equals the reference bit for bit on the host, and the QOperator one on the emulated
Cortex-M55 too.
"""

import os
import pathlib
import shutil
import subprocess

import numpy as np
import onnx
import onnx.numpy_helper
import onnxruntime
import pytest
import torch
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from opbridge.backends.c.cmake import CPU_FLAGS
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.cli import main as cli_main
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import ModelFormatError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context
from opbridge_testing.host_build import KernelSet, kernel_objects
from opbridge_testing.single_op import KERNELS, run_golden_program, with_float_ulp_tolerance

CONTEXT = default_registry_context()
SHAPE = (1, 3, 16, 16)


class SmallCnn(torch.nn.Module):
    """conv, relu, max pool, a residual add, leaky relu and sigmoid branches concatenated, average pool,
    global average pool, gemm, softmax."""

    def __init__(self) -> None:
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.body = torch.nn.Conv2d(16, 16, 3, padding=1)  # 2,304 int8 weights: an external tensor
        self.branch = torch.nn.Conv2d(16, 8, 1)
        self.head = torch.nn.Linear(16, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.nn.functional.max_pool2d(torch.relu(self.stem(x)), 2)
        y = torch.relu(y + self.body(y))
        z = self.branch(y)
        y = torch.cat([torch.nn.functional.leaky_relu(z, 0.1), torch.sigmoid(z)], dim=1)
        y = torch.nn.functional.avg_pool2d(y, 2)
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
        return torch.softmax(self.head(y), dim=-1)


class Calibration(CalibrationDataReader):
    def __init__(self, name: str, batches: list[np.ndarray]) -> None:
        self.batches = iter([{name: batch} for batch in batches])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pathlib.Path]:
    folder = tmp_path_factory.mktemp("exported")
    torch.manual_seed(0)
    float_path = folder / "cnn.onnx"
    torch.onnx.export(SmallCnn().eval(), (torch.randn(*SHAPE),), str(float_path))
    assert (folder / "cnn.onnx.data").is_file()  # the default exporter keeps the weights beside the model
    name = onnx.load(float_path, load_external_data=False).graph.input[0].name
    rng = np.random.default_rng(7)
    batches = [rng.standard_normal(SHAPE).astype(np.float32) for _ in range(4)]
    paths = {"float": float_path, "qdq": folder / "cnn_qdq.onnx", "qoperator": folder / "cnn_qoperator.onnx"}
    for key, quant_format in (("qdq", QuantFormat.QDQ), ("qoperator", QuantFormat.QOperator)):
        quantize_static(
            str(float_path),
            str(paths[key]),
            Calibration(name, batches),
            quant_format=quant_format,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
            use_external_data_format=key == "qoperator",
        )
    assert (folder / "cnn_qoperator.onnx.data").is_file()
    return paths


@pytest.fixture
def elsewhere(tmp_path: pathlib.Path):  # type: ignore[no-untyped-def]
    """The working directory is another folder for the test (restored after it)."""
    before = pathlib.Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


def onnxruntime_output(path: pathlib.Path, x: np.ndarray) -> np.ndarray:
    options = onnxruntime.SessionOptions()
    options.add_session_config_entry("session.qdqisint8allowed", "1")  # see qdq_models_test.session
    session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    return [(rng.standard_normal(SHAPE) * spread).astype(np.float32) for spread in (0.5, 1.0, 1.0, 3.0)]


def output_scale(path: pathlib.Path) -> float:
    """The scale of the DequantizeLinear that writes the int8 model's output (the softmax's)."""
    model = onnx.load(path, load_external_data=False)
    last = next(node for node in model.graph.node if node.output[0] == model.graph.output[0].name)
    scale = next(tensor for tensor in model.graph.initializer if tensor.name == last.input[1])
    return float(onnx.numpy_helper.to_array(scale))


def compare(kind: str, path: pathlib.Path, ours: np.ndarray, theirs: np.ndarray) -> None:
    """The float model within float32 rounding; the QOperator model bit for bit; the QDQ model within one
    int8 step (its softmax, whose output scale quantize_static made 1/255, runs in float32 between
    DequantizeLinear and QuantizeLinear, where onnxruntime fuses it into its QLinearSoftmax: docs/onnx.md)."""
    if kind == "float":
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-6)
        return
    steps = np.abs(ours.astype(np.float64) - theirs) / output_scale(path)
    assert steps.max() <= (0 if kind == "qoperator" else 1) + 1e-3, (kind, steps.max())


@pytest.mark.parametrize("kind", ["float", "qdq", "qoperator"])
def test_converts_from_another_directory_through_the_public_api(kind: str, models, elsewhere) -> None:  # type: ignore[no-untyped-def]
    config = ConvertArgs(model=models[kind], output_dir=elsewhere / "out", prefix="cnn", bundle_kernels=False)
    planned = AotConverter(config, CONTEXT).plan()
    ops = [node.op_type for node in planned.graph.nodes]
    if kind != "float":
        assert "CONV_2D" in ops and "FULLY_CONNECTED" in ops, ops
    interpreter = ReferenceInterpreter(planned.graph, CONTEXT)
    for x in inputs():
        (ours,) = interpreter.run([x])
        compare(kind, models[kind], ours, onnxruntime_output(models[kind], x))


@pytest.mark.parametrize("kind", ["float", "qdq", "qoperator"])
def test_converts_from_another_directory_through_the_cli(kind: str, models, elsewhere) -> None:  # type: ignore[no-untyped-def]
    x = inputs()[1]
    np.save("x.npy", x)
    assert cli_main(["run", str(models[kind]), "--input", "x.npy", "--output", "y.npy"]) == 0
    compare(kind, models[kind], np.load("y.npy"), onnxruntime_output(models[kind], x))


# The boards' start-up code and linker script, and the emulator's runner (the test's data under Bazel).
BOARDS = pathlib.Path("platforms/boards")
RUN_EMULATED = pathlib.Path("toolchains/run_emulated.sh")
# The Cortex-M55 build of the toolchains (-c opt): Helium kernels, hard float.
M55_FLAGS = (
    *CPU_FLAGS["cortex-m55"],
    *("-std=c99", "-ffp-contract=off", "-O2", "-DNDEBUG", "-Wall", "-Wextra", "-Werror"),
    *("-ffunction-sections", "-fdata-sections"),
)
M55_LINK_FLAGS = (
    *("-nostartfiles", "--specs=rdimon.specs", f"-T{BOARDS / 'mps3_an547' / 'mps3_an547.ld'}"),
    *(f"-L{BOARDS / 'common'}", "-Wl,--gc-sections", "-lm"),
)


def module_with_golden_test(path: pathlib.Path, directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """The model's C module (kernels not bundled) and its golden test, whose float32 outputs (the
    dequantized int8 results) must equal the reference's bit for bit."""
    golden = directory / "golden.c"
    config = ConvertArgs(
        model=path, output_dir=directory / "module", prefix="cnn", golden_test=golden, bundle_kernels=False
    )
    AotConverter(config, CONTEXT).convert()
    golden.write_text(with_float_ulp_tolerance(golden.read_text(), 0))
    return directory / "module", golden


def passed(summary: str) -> bool:
    return "cnn: 20 cases" in summary and "0 failures" in summary


@pytest.mark.parametrize("kind", ["qdq", "qoperator"])
def test_int8_models_compile_to_c_equal_to_the_reference(kind: str, models, tmp_path: pathlib.Path) -> None:  # type: ignore[no-untyped-def]
    # The emitted module on the host: the QOperator model's table lookups (CAST, ADD, GATHER), its float32
    # pools between DEQUANTIZE and QUANTIZE, int8 SOFTMAX; the QDQ model's int8 islands.
    module, golden = module_with_golden_test(models[kind], tmp_path)
    summary = run_golden_program(module, golden, include_dirs=[pathlib.Path(".")], kernel_sets=[KERNELS])
    assert passed(summary), summary


def test_qoperator_model_compiles_to_c_equal_to_the_reference_on_the_cortex_m55(models, tmp_path: pathlib.Path) -> None:  # type: ignore[no-untyped-def]
    # The same module cross-compiled with the Helium kernels and run on the emulated MPS3 AN547 board.
    missing = [tool for tool in ("arm-none-eabi-gcc", "qemu-system-arm") if shutil.which(tool) is None]
    if missing:
        message = f"the Cortex-M55 build needs {', '.join(missing)} (./bazelw installs them)"
        if "TEST_SRCDIR" in os.environ:
            pytest.fail(message)
        pytest.skip(message)
    module, golden = module_with_golden_test(models["qoperator"], tmp_path)
    startup = BOARDS / "common" / "cortex_m_startup.c"
    kernels = KernelSet(pathlib.Path("."), (*KERNELS.sources, startup))
    objects = kernel_objects(kernels, "arm-none-eabi-gcc", M55_FLAGS)
    sources = [*sorted((module / "src").glob("*.c")), golden]
    includes = [f"-I{folder}" for folder in (pathlib.Path("."), module / "includes-api", module / "src")]
    program = tmp_path / "golden.elf"
    command = ["arm-none-eabi-gcc", *M55_FLAGS, *includes, *map(str, sources), *map(str, objects), *M55_LINK_FLAGS]
    compiled = subprocess.run([*command, "-o", str(program)], capture_output=True, text=True, check=False)
    assert compiled.returncode == 0, compiled.stderr
    ran = subprocess.run(
        [str(RUN_EMULATED), "mps3-an547", "120", str(program)], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0 and passed(ran.stdout), ran.stdout + ran.stderr


def test_external_data_outside_the_models_folder_is_refused(models, tmp_path: pathlib.Path) -> None:  # type: ignore[no-untyped-def]
    model = onnx.load(models["float"], load_external_data=False)
    data = models["float"].parent / "cnn.onnx.data"
    cases = {
        "absolute": str(data),
        "outside": f"../{models['float'].parent.name}/cnn.onnx.data",
        "symlink": "linked.data",
        "missing": "missing.data",
    }
    (tmp_path / "linked.data").symlink_to(data)
    for case, location in cases.items():
        moved = onnx.ModelProto()
        moved.CopyFrom(model)
        for tensor in moved.graph.initializer:
            for entry in tensor.external_data:
                if entry.key == "location":
                    entry.value = location
        path = tmp_path / f"{case}.onnx"
        path.write_bytes(moved.SerializeToString())
        with pytest.raises(ModelFormatError, match=r"cannot read the external data of initializer") as error:
            AotConverter(ConvertArgs(model=path, output_dir=tmp_path / "out", prefix="m"), CONTEXT).plan()
        assert "inside the model's folder" in error.value.hint, case


def test_external_data_of_bytes_without_a_folder_is_refused(models) -> None:  # type: ignore[no-untyped-def]
    data = models["float"].read_bytes()
    with pytest.raises(ModelFormatError, match=r"keeps its data in the external file 'cnn.onnx.data'"):
        read_onnx_model(data, CONTEXT)
    graph = read_onnx_model(data, CONTEXT, base_dir=models["float"].parent)
    assert any(node.op_type == "CONV_2D" for node in graph.nodes)
