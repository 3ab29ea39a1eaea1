# SPDX-License-Identifier: Apache-2.0
"""Every torch converter's declare_supported cases (TorchConverter.cases), run the same way:

float32: torch.export -> opbridge graph; the reference equals eager torch within float tolerance,
and the emitted C equals the reference (its golden test, host gcc).

int8: the same module quantized with opbridge's PT2E quantizer on seeded calibration data, then
torch.export of the convert_pt2e model; the graph runs int8 from its QUANTIZE to its DEQUANTIZEs
(no float island), the reference is within one int8 step of the convert_pt2e model's eager run,
and the emitted C equals the reference.

Each case must put its converter's target in the exported graph, so a case cannot pass without
exercising the converter it is declared on. A converter with no case must be listed in
UNTESTED_BY_OWN_CASES with the cases that cover it.
"""

import dataclasses
import pathlib

import numpy as np
import pytest
import torch
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.torch.program import read_exported_program, target_key
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.ir import DType, Graph
from opbridge.ops.definition import TorchCase, TorchConverter
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program

CONTEXT = default_registry_context()
FLOAT_RTOL, FLOAT_ATOL = 1e-5, 1e-5
CALIBRATION_BATCHES = 8

# Converters without cases of their own, and why that is enough.
UNTESTED_BY_OWN_CASES = {
    "operator.getitem": "every decomposed batch norm and max_pool2d_with_indices case reads a tuple",
    "quantized_decomposed.quantize_per_tensor.default": "every int8 case",
    "quantized_decomposed.quantize_per_tensor.tensor": "the overload with tensor parameters; same converter",
    "quantized_decomposed.dequantize_per_tensor.default": "every int8 case",
    "quantized_decomposed.dequantize_per_tensor.tensor": "the overload with tensor parameters; same converter",
    "quantized_decomposed.dequantize_per_channel.default": "every int8 conv and linear case",
    "aten._assert_tensor_metadata.default": "an assertion with no operation",
    "aten.relu_.default": "the in-place overload; same converter as aten.relu.default",
    "aten.hardtanh_.default": "the in-place overload; same converter as aten.hardtanh.default",
    "aten.hardswish_.default": "the in-place overload; same converter as aten.hardswish.default",
    "aten.add_.Tensor": "the in-place overload; same converter as aten.add.Tensor",
    "aten.sub_.Tensor": "the in-place overload; same converter as aten.sub.Tensor",
    "aten.mul_.Tensor": "the in-place overload; same converter as aten.mul.Tensor",
    "aten.reshape.default": "same converter as aten.view.default",
    "aten._unsafe_view.default": "same converter as aten.view.default",
    "aten.squeeze.dims": "same converter as aten.squeeze.dim",
    "aten.squeeze.default": "same converter as aten.squeeze.dim",
    "aten.unsqueeze.default": "the squeeze case unsqueezes too",
    "aten._log_softmax.default": "same converter as aten.log_softmax.int",
    "aten.clone.default": "the dropout case clones",
    "aten.alias.default": "an identity; same converter as clone",
    "aten.detach.default": "an identity; same converter as clone",
    "aten.contiguous.default": "an identity; same converter as clone",
    "aten.lift_fresh_copy.default": "an identity; same converter as clone",
}


@dataclasses.dataclass(frozen=True)
class Run:
    converter: TorchConverter
    case: TorchCase
    int8: bool

    @property
    def id(self) -> str:
        return f"{self.converter.target}[{self.case.name}]{'-int8' if self.int8 else ''}"


RUNS = [
    Run(converter, case, int8)
    for key in sorted(CONTEXT.torch_converters)
    for converter in [CONTEXT.torch_converters[key]]
    for case in converter.cases
    for int8 in (False, True)
    if (case.int8 if int8 else case.float32)
]


def test_every_converter_has_cases_or_says_what_covers_it() -> None:
    with_cases = {key for key in CONTEXT.torch_converters if CONTEXT.torch_converters[key].cases}
    assert set(CONTEXT.torch_converters) - with_cases == set(UNTESTED_BY_OWN_CASES)


def _inputs_like(example: tuple[torch.Tensor, ...], generator: torch.Generator) -> tuple[torch.Tensor, ...]:
    return tuple(torch.randn(x.shape, generator=generator) * x.std().clamp(min=0.1) + x.mean() for x in example)


def _program(run: Run) -> tuple[torch.export.ExportedProgram, torch.nn.Module, tuple[torch.Tensor, ...]]:
    torch.manual_seed(0)
    model, inputs = run.case.build(torch)
    model = model.eval()
    if run.int8:
        generator = torch.Generator().manual_seed(1)
        calibration = [inputs] + [_inputs_like(inputs, generator) for _ in range(CALIBRATION_BATCHES)]
        model = quantize_pt2e(model, inputs, calibration, OpbridgeQuantizer.for_context(CONTEXT))
    program = torch.export.export(model, inputs)
    if run.case.decomposed:
        program = program.run_decompositions()
    targets = {target_key(node.target) for node in program.graph.nodes if node.op == "call_function"}
    assert run.converter.target in targets, f"the case never calls {run.converter.target}: {sorted(targets)}"
    return program, model, inputs


def _output_steps(graph: Graph) -> list[float]:
    """The int8 step (scale) of each graph output, read from the DEQUANTIZE writing it."""
    writers = {output: node for node in graph.nodes for output in node.outputs}
    steps = []
    for output in graph.outputs:
        node = writers[output]
        assert node.op_type == "DEQUANTIZE", f"output {graph.tensors[output].describe()} is not dequantized int8"
        quantization = graph.tensors[node.inputs[0]].quantization
        assert quantization is not None
        steps.append(quantization.scale)
    return steps


@pytest.mark.parametrize("run", RUNS, ids=[run.id for run in RUNS])
def test_case(run: Run, tmp_path: pathlib.Path) -> None:
    program, model, inputs = _program(run)
    graph = read_exported_program(program, CONTEXT, source=run.id)
    feeds = [x.numpy() for x in inputs]
    actual = ReferenceInterpreter(graph, CONTEXT).run(feeds)
    with torch.no_grad():
        expected = model(*inputs)
    expected = [expected] if isinstance(expected, torch.Tensor) else list(expected)
    assert len(actual) == len(expected)
    if run.int8:
        float_nodes = [
            node.describe()
            for node in graph.nodes
            if node.op_type not in ("QUANTIZE", "DEQUANTIZE")
            and any(graph.tensors[o].dtype is DType.FLOAT32 for o in node.outputs)
        ]
        assert not float_nodes, f"float island in the int8 graph: {float_nodes}"
        for got, want, step in zip(actual, expected, _output_steps(graph), strict=True):
            steps = np.abs(got.astype(np.float64) - want.numpy().astype(np.float64)) / step
            assert steps.max() <= 1.0 + 1e-3, f"{steps.max():.3f} int8 steps from torch's convert_pt2e model"
    else:
        for got, want in zip(actual, expected, strict=True):
            np.testing.assert_allclose(got, want.numpy(), rtol=FLOAT_RTOL, atol=FLOAT_ATOL)
    golden = tmp_path / "golden_test.c"
    config = ConvertArgs(model=program, output_dir=tmp_path / "module", prefix="m", golden_test=golden, golden_cases=2)
    AotConverter(config, registry_context=CONTEXT).convert()
    assert "0 failures" in run_golden_program(tmp_path / "module", golden)
