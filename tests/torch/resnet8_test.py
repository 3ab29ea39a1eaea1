# SPDX-License-Identifier: Apache-2.0
"""The ResNet-8-like model of resnet8.py through opbridge, against torch (the figures are printed).

int8: the graph is int8 from its QUANTIZE to its DEQUANTIZE (residual ADDs included); the reference
is within one int8 step of torch's convert_pt2e model on every output with either arithmetic
(ConvertArgs.torch_int8_arithmetic), and equal on at least 99% of them with "pytorch".
float32: within float tolerance of eager torch. :resnet8_int8_golden_test and the others check the
emitted C against the reference on x86_64, aarch64, Cortex-M55 and Cortex-M4.
"""

import numpy as np
import pytest
import resnet8
import torch
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.frontends.torch.program import read_exported_program
from opbridge.ir import DType
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()
SAMPLES = 32
# TFLite's fixed-point rescale rounds twice; see examples/pytorch_custom_op/kws_dscnn_test.py.
MINIMUM_EQUAL = {"tflite": 0.95, "pytorch": 0.99}


def images(seed: int) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    return [torch.rand(resnet8.INPUT_SHAPE, generator=generator) for _ in range(SAMPLES)]


@pytest.mark.parametrize("arithmetic", ["tflite", "pytorch"])
def test_int8(arithmetic: str, capsys: pytest.CaptureFixture[str]) -> None:
    model = resnet8.int8_model()
    graph = read_exported_program(
        torch.export.export(model, resnet8.example_input()), CONTEXT, int8_arithmetic=arithmetic
    )
    ops = [node.op_type for node in graph.nodes]
    assert ops.count("ADD") == 3 and ops[0] == "QUANTIZE" and ops[-1] == "DEQUANTIZE"
    assert all(graph.tensors[n.outputs[0]].dtype is DType.INT8 for n in graph.nodes[:-1]), ops
    step = graph.tensors[graph.nodes[-1].inputs[0]].quantization.scale  # type: ignore[union-attr]
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    steps = []
    with torch.no_grad():
        for x in images(seed=5):
            (ours,) = interpreter.run([x.numpy()])
            steps.append(np.rint(np.abs(ours.astype(np.float64) - model(x).numpy()) / step).ravel())
    differences = np.concatenate(steps)
    equal = float(np.mean(differences == 0))
    with capsys.disabled():
        print(
            f"\nResNet-8 int8 ({arithmetic} arithmetic), {SAMPLES} images x {resnet8.CLASSES} outputs: {equal:.2%} "
            f"equal to torch's convert_pt2e model, largest difference {int(differences.max())} int8 step(s)"
        )
    assert differences.max() <= 1
    assert equal >= MINIMUM_EQUAL[arithmetic]


def test_float32(capsys: pytest.CaptureFixture[str]) -> None:
    model = resnet8.build_model()
    graph = read_exported_program(torch.export.export(model, resnet8.example_input()), CONTEXT)
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    largest = 0.0
    with torch.no_grad():
        for x in images(seed=6):
            (ours,) = interpreter.run([x.numpy()])
            largest = max(largest, float(np.abs(ours - model(x).numpy()).max()))
    with capsys.disabled():
        print(f"\nResNet-8 float32: largest difference from eager torch {largest:.3g}")
    assert largest <= 1e-5
