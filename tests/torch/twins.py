# SPDX-License-Identifier: Apache-2.0
"""The twins of the shared LiteRT models `resnet` and `kws` (MLPerf Tiny's ResNet-8 and DS-CNN) from the
other frontends, as their users make them: the network in torch.nn (resnet8.py's ResNet-8; the DS-CNN
below, with MLPerf Tiny's keyword-spotting layer shapes), quantized to int8 with opbridge's PT2E
quantizer (a .pt2 program), and exported with `torch.onnx.export` then quantized with onnxruntime's
`quantize_static` (QDQ, int8 activations, per-channel int8 weights), each on seeded random calibration
data. Seeded random weights: the twins share the LiteRT models' layers, MACs and tensor sizes, not
their trained weights. The benchmarks compare the three forms of each network
(docs/graph_passes.md, "Parity").

    twins.py --dscnn-int8 dscnn_int8.pt2 --dscnn-qdq dscnn_int8_qdq.onnx --resnet8-qdq resnet8_int8_qdq.onnx
"""

import argparse
import pathlib
import sys
import tempfile
from collections.abc import Callable
from typing import Any

import numpy as np
import resnet8
import torch
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.registry import default_registry_context

DSCNN_INPUT = (1, 1, 49, 10)  # 49 frames of 10 MFCC coefficients
DSCNN_CHANNELS = 64
DSCNN_LABELS = 12
CALIBRATION_BATCHES = 32
SEED = 0


class DepthwiseSeparable(torch.nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.depthwise = torch.nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.depthwise_norm = torch.nn.BatchNorm2d(channels)
        self.pointwise = torch.nn.Conv2d(channels, channels, 1, bias=False)
        self.pointwise_norm = torch.nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.depthwise_norm(self.depthwise(x)))
        return torch.relu(self.pointwise_norm(self.pointwise(x)))


class DsCnn(torch.nn.Module):
    """MLPerf Tiny's keyword-spotting DS-CNN: a 10x4 stride-2 convolution to 64 channels, four
    depthwise-separable blocks, a global average pool, 12 classes, softmax."""

    def __init__(self) -> None:
        super().__init__()
        # 49x10 -> 25x5, as the reference model's "same" padding gives.
        self.stem = torch.nn.Conv2d(1, DSCNN_CHANNELS, (10, 4), stride=2, padding=(5, 1))
        self.stem_norm = torch.nn.BatchNorm2d(DSCNN_CHANNELS)
        self.blocks = torch.nn.Sequential(*(DepthwiseSeparable(DSCNN_CHANNELS) for _ in range(4)))
        self.classifier = torch.nn.Linear(DSCNN_CHANNELS, DSCNN_LABELS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(torch.relu(self.stem_norm(self.stem(x))))
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
        return torch.softmax(self.classifier(x), dim=-1)


def build_dscnn(seed: int = SEED) -> DsCnn:
    """The DS-CNN with seeded weights and batch-norm statistics of a trained network's spread."""
    torch.manual_seed(seed)
    model = DsCnn()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.1, 0.1)
    return model.eval()


def dscnn_inputs(count: int, seed: int) -> list[tuple[torch.Tensor]]:
    generator = torch.Generator().manual_seed(seed)
    return [(torch.randn(DSCNN_INPUT, generator=generator),) for _ in range(count)]


def pt2e_program(model: torch.nn.Module, example: tuple[torch.Tensor], calibration: list[tuple[torch.Tensor]]) -> Any:
    quantizer = OpbridgeQuantizer.for_context(default_registry_context())
    return torch.export.export(quantize_pt2e(model, example, calibration, quantizer), example)


class _Calibration(CalibrationDataReader):
    def __init__(self, batches: list[tuple[torch.Tensor]]) -> None:
        self.batches = iter([{"input": batch[0].numpy()} for batch in batches])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


def write_qdq_onnx(
    model: torch.nn.Module, example: tuple[torch.Tensor], calibration: list[tuple[torch.Tensor]], path: pathlib.Path
) -> None:
    """`model` through torch.onnx.export (batch norms folded) and onnxruntime's shape preprocessing and
    quantize_static: QDQ, int8 activations, int8 weights per output channel."""
    with tempfile.TemporaryDirectory() as scratch:
        exported, prepared = pathlib.Path(scratch, "float32.onnx"), pathlib.Path(scratch, "prepared.onnx")
        torch.onnx.export(
            model,
            example,
            str(exported),
            input_names=["input"],
            output_names=["output"],
            dynamo=False,
            opset_version=17,
        )
        quant_pre_process(str(exported), str(prepared))
        quantize_static(
            str(prepared),
            str(path),
            _Calibration(calibration),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dscnn-int8", type=pathlib.Path, required=True, help="the DS-CNN's PT2E program (.pt2)")
    parser.add_argument("--dscnn-qdq", type=pathlib.Path, required=True, help="the DS-CNN, ONNX QDQ")
    parser.add_argument("--resnet8-qdq", type=pathlib.Path, required=True, help="the ResNet-8, ONNX QDQ")
    arguments = parser.parse_args(argv)
    dscnn_example, dscnn_calibration = dscnn_inputs(1, SEED)[0], dscnn_inputs(CALIBRATION_BATCHES, SEED + 1)
    torch.export.save(pt2e_program(build_dscnn(), dscnn_example, dscnn_calibration), str(arguments.dscnn_int8))
    writers: list[
        tuple[Callable[[], torch.nn.Module], tuple[torch.Tensor], list[tuple[torch.Tensor]], pathlib.Path]
    ] = [
        (build_dscnn, dscnn_example, dscnn_calibration, arguments.dscnn_qdq),
        (resnet8.build_model, resnet8.example_input(), resnet8.calibration_data(), arguments.resnet8_qdq),
    ]
    for build, example, calibration, path in writers:
        write_qdq_onnx(build(), example, calibration, path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
