# SPDX-License-Identifier: Apache-2.0
"""The DS-CNN of kws_dscnn.py through opbridge, against torch itself.

- int8: opbridge's reference against torch's eager run of the convert_pt2e model, on seeded
  spectrograms: within one int8 step on every output with either arithmetic
  (ConvertArgs.torch_int8_arithmetic), and equal on at least 99% of them with "pytorch" (the
  figures are printed). The graph is int8 from its QUANTIZE to its DEQUANTIZE, the custom op
  included (no float island).
- float32: the reference against eager torch, within float tolerance.
- The round trip: the float32 model (batch norms folded by torch) exported to ONNX with opbridge's
  custom translation table (ChannelShuffle in its own domain) converts to the same graph (operators,
  attributes, constants' bytes), the same memory plan and the same golden outputs as the program
  converted directly.

The emitted C is checked against the reference by :kws_dscnn_int8_golden_test and
:kws_dscnn_float32_golden_test on x86_64, aarch64, Cortex-M55 and Cortex-M4.
"""

import json
import pathlib
import re

import kws_dscnn
import numpy as np
import pytest
import torch
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.onnx.importer import load_onnx_model
from opbridge.frontends.torch.onnx_export import custom_translation_table
from opbridge.frontends.torch.program import read_exported_program
from opbridge.ir import DType, Graph

CONTEXT = kws_dscnn.registry_context()
SAMPLES = 64
FLOAT_ATOL = 1e-5


def spectrograms(seed: int) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return [torch.randn(kws_dscnn.INPUT_SHAPE, generator=generator) for _ in range(SAMPLES)]


# Equal outputs, at least: TFLite's fixed-point rescale rounds twice (a high multiply, then a
# rounding shift), so about 0.1-0.3% of each convolution's outputs land one step from torch's
# float32 rescale, and the differences add up over the nine convolutions; float32 scales rounded
# half to even are torch's own arithmetic.
MINIMUM_EQUAL = {"tflite": 0.95, "pytorch": 0.99}


@pytest.mark.parametrize("arithmetic", ["tflite", "pytorch"])
def test_int8_reference_is_within_one_step_of_torch(arithmetic: str, capsys: pytest.CaptureFixture[str]) -> None:
    model, quantizer = kws_dscnn.int8_model(CONTEXT)
    assert quantizer.float_nodes == [], quantizer.report()
    program = torch.export.export(model, kws_dscnn.example_input())
    graph = read_exported_program(program, CONTEXT, int8_arithmetic=arithmetic)
    float_nodes = [
        node.describe()
        for node in graph.nodes
        if node.op_type not in ("QUANTIZE", "DEQUANTIZE") and graph.tensors[node.outputs[0]].dtype is not DType.INT8
    ]
    assert float_nodes == []
    assert "CHANNEL_SHUFFLE" in [node.op_type for node in graph.nodes]
    (dequantize,) = [node for node in graph.nodes if node.op_type == "DEQUANTIZE"]
    step = graph.tensors[dequantize.inputs[0]].quantization.scale  # type: ignore[union-attr]
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    differences = []
    with torch.no_grad():
        for x in spectrograms(seed=7):
            (ours,) = interpreter.run([x.numpy()])
            theirs = model(x).numpy()
            differences.append(np.rint(np.abs(ours.astype(np.float64) - theirs) / step).astype(np.int64).ravel())
    steps = np.concatenate(differences)
    equal = float(np.mean(steps == 0))
    with capsys.disabled():
        print(
            f"\nDS-CNN int8 ({arithmetic} arithmetic), {SAMPLES} inputs x {kws_dscnn.LABELS} outputs: {equal:.2%} "
            f"equal to torch's convert_pt2e model, largest difference {steps.max()} int8 step(s)"
        )
    assert steps.max() <= 1
    assert equal >= MINIMUM_EQUAL[arithmetic]


def test_float32_reference_matches_eager_torch(capsys: pytest.CaptureFixture[str]) -> None:
    graph = read_exported_program(kws_dscnn.float32_program(), CONTEXT)
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    model = kws_dscnn.build_model()
    largest = 0.0
    with torch.no_grad():
        for x in spectrograms(seed=8):
            (ours,) = interpreter.run([x.numpy()])
            largest = max(largest, float(np.abs(ours - model(x).numpy()).max()))
    with capsys.disabled():
        print(f"\nDS-CNN float32: largest difference from eager torch {largest:.3g}")
    assert largest <= FLOAT_ATOL


def _signature(graph: Graph) -> list[tuple[object, ...]]:
    """Each node's operator, attributes, input and output types and constant inputs' bytes, in order."""
    rows = []
    for node in graph.nodes:
        inputs = [graph.tensors[i] if i is not None and i >= 0 else None for i in node.inputs]
        rows.append(
            (
                node.op_type,
                repr(node.attributes),
                [None if t is None else (t.dtype, t.shape, t.quantization) for t in inputs],
                [None if t is None or t.data is None else t.data.tobytes() for t in inputs],
                [(graph.tensors[o].dtype, graph.tensors[o].shape) for o in node.outputs],
            )
        )
    return rows


def _expected_outputs(golden: pathlib.Path) -> list[str]:
    """The golden program's expected-output tables (the reference's outputs on its seeded inputs)."""
    return re.findall(r"golden_output_\d+\[\d+\] = \{[^}]*\}", golden.read_text())


def test_the_custom_op_round_trips_through_onnx(tmp_path: pathlib.Path) -> None:
    # Batch norms folded by torch first: otherwise the exporter's optimizer and opbridge would each
    # fold them, with float32 arithmetic in a different order.
    model = kws_dscnn.fused_model()
    program = torch.export.export(model, kws_dscnn.example_input())
    onnx_program = torch.onnx.export(
        model,
        kws_dscnn.example_input(),
        dynamo=True,
        custom_translation_table=custom_translation_table(CONTEXT),
        verbose=False,
    )
    onnx_path = tmp_path / "kws_dscnn.onnx"
    onnx_program.save(str(onnx_path))
    via_onnx = load_onnx_model(onnx_path, CONTEXT)
    direct = read_exported_program(program, CONTEXT)
    assert "CHANNEL_SHUFFLE" in [node.op_type for node in via_onnx.nodes]
    assert _signature(via_onnx) == _signature(direct)
    modules = {}
    for name, model in (("torch", program), ("onnx", onnx_path)):
        golden = tmp_path / f"{name}_golden.c"
        config = ConvertArgs(
            model=model, output_dir=tmp_path / name, prefix="kws", golden_test=golden, bundle_kernels=False
        )
        AotConverter(config, registry_context=CONTEXT).convert()
        plan = json.loads((tmp_path / name / "plan.json").read_text())
        modules[name] = (plan["arena_bytes"], _expected_outputs(golden))
    assert modules["torch"] == modules["onnx"]
    assert modules["torch"][1], "no expected outputs found in the golden program"
