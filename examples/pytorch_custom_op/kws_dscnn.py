# SPDX-License-Identifier: Apache-2.0
"""A keyword-spotting DS-CNN written in torch.nn, with one operator of its author's own.

The layers have the shapes of the MLPerf Tiny KWS model (DS-CNN small): a 49x10 MFCC
input, a 10x4 stride-2 convolution to 64 channels, four depthwise-separable blocks
(3x3 depthwise, 1x1 pointwise, 64 channels, each with batch norm and ReLU), an average
pool over the 25x5 map and a 12-way classifier. After the first block the channels go
through ChannelShuffle (channel_shuffle/plugin.py), a custom operator defined once in
opbridge and used here as `torch.ops.kws_ops.channel_shuffle`.

The weights are random (seeded), and so is the calibration data: this example is about
the path, not the accuracy. Run as a program it writes the float32 program and the
int8 one (quantized with opbridge's PT2E quantizer), as torch.export.save files:

    kws_dscnn.py --float32 kws_dscnn_float32.pt2 --int8 kws_dscnn_int8.pt2
"""

import argparse
import pathlib
import sys
from typing import Any

import torch
from channel_shuffle.plugin import customize_registry
from opbridge.frontends.torch.library import define_torch_ops
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext

INPUT_SHAPE = (1, 1, 49, 10)  # one MFCC spectrogram: 49 frames of 10 coefficients
CHANNELS = 64
LABELS = 12
SHUFFLE_GROUPS = 4
CALIBRATION_BATCHES = 32
SEED = 0


def registry_context() -> RegistryContext:
    """opbridge's built-ins and the kws_ops plugin, with its torch op defined."""
    context = build_default_registry_context(customizers=[customize_registry])
    define_torch_ops(context)
    return context


class DepthwiseSeparable(torch.nn.Module):
    """3x3 depthwise then 1x1 pointwise convolution, each with batch norm and ReLU."""

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
    """`shuffle_groups` 0: MLPerf Tiny's DS-CNN as it is, without the channel shuffle (tests/torch/twins.py)."""

    def __init__(self, shuffle_groups: int = SHUFFLE_GROUPS) -> None:
        super().__init__()
        self.shuffle_groups = shuffle_groups
        # 49x10 -> 25x5, as the reference model's "same" padding gives.
        self.stem = torch.nn.Conv2d(1, CHANNELS, (10, 4), stride=2, padding=(5, 1))
        self.stem_norm = torch.nn.BatchNorm2d(CHANNELS)
        self.blocks = torch.nn.ModuleList(DepthwiseSeparable(CHANNELS) for _ in range(4))
        self.classifier = torch.nn.Linear(CHANNELS, LABELS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.stem_norm(self.stem(x)))
        for position, block in enumerate(self.blocks):
            x = block(x)
            if position == 0 and self.shuffle_groups:
                x = torch.ops.kws_ops.channel_shuffle(x, self.shuffle_groups)
        x = torch.nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
        return torch.softmax(self.classifier(x), dim=-1)


def build_model(seed: int = SEED, shuffle_groups: int = SHUFFLE_GROUPS) -> DsCnn:
    """The model with seeded weights and batch-norm statistics of a trained network's spread."""
    torch.manual_seed(seed)
    model = DsCnn(shuffle_groups)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.1, 0.1)
    return model.eval()


def fused_model(seed: int = SEED) -> DsCnn:
    """The model with each batch norm folded into the convolution before it, by torch (the form a
    model is exported in for deployment; the round trip through ONNX starts from it)."""
    model = build_model(seed)
    pairs = [(model, "stem", "stem_norm")]
    pairs += [(block, conv, f"{conv}_norm") for block in model.blocks for conv in ("depthwise", "pointwise")]
    for owner, conv, norm in pairs:
        setattr(owner, conv, torch.nn.utils.fusion.fuse_conv_bn_eval(getattr(owner, conv), getattr(owner, norm)))
        setattr(owner, norm, torch.nn.Identity())
    return model.eval()


def example_input() -> tuple[torch.Tensor]:
    return (torch.randn(INPUT_SHAPE, generator=torch.Generator().manual_seed(SEED)),)


def calibration_data(seed: int = SEED + 1) -> list[tuple[torch.Tensor]]:
    """Random spectrograms, seeded: what the quantizer's observers see."""
    generator = torch.Generator().manual_seed(seed)
    return [(torch.randn(INPUT_SHAPE, generator=generator),) for _ in range(CALIBRATION_BATCHES)]


def float32_program() -> Any:
    return torch.export.export(build_model(), example_input())


def int8_model(context: RegistryContext) -> tuple[Any, OpbridgeQuantizer]:
    """The convert_pt2e model (int8 weights, quantize/dequantize around the int8 ops) and its quantizer."""
    quantizer = OpbridgeQuantizer.for_context(context)
    return quantize_pt2e(build_model(), example_input(), calibration_data(), quantizer), quantizer


def int8_program(context: RegistryContext) -> Any:
    model, _ = int8_model(context)
    return torch.export.export(model, example_input())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--float32", type=pathlib.Path, help="write the float32 program here")
    parser.add_argument("--int8", type=pathlib.Path, help="write the int8 (PT2E) program here")
    arguments = parser.parse_args(argv)
    context = registry_context()
    if arguments.float32:
        torch.export.save(float32_program(), str(arguments.float32))
    if arguments.int8:
        model, quantizer = int8_model(context)
        print(quantizer.report())
        torch.export.save(torch.export.export(model, example_input()), str(arguments.int8))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
