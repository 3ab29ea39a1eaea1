# SPDX-License-Identifier: Apache-2.0
"""A ResNet-8-like image classifier in torch.nn: the layer shapes of MLPerf Tiny's image
classification model (32x32x3 input; a 16-channel stem; three residual stacks of 16, 32 and 64
channels, the last two with a strided 1x1 shortcut; an 8x8 average pool; 10 classes; softmax).

Seeded random weights and calibration data. Run as a program it writes the float32 and the int8
(opbridge's PT2E quantizer) programs as torch.export.save files:

    resnet8.py --float32 resnet8_float32.pt2 --int8 resnet8_int8.pt2
"""

import argparse
import pathlib
import sys
from typing import Any

import torch
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.registry import default_registry_context

INPUT_SHAPE = (1, 3, 32, 32)
CLASSES = 10
CALIBRATION_BATCHES = 32
SEED = 0


class Stack(torch.nn.Module):
    """conv-bn-relu, conv-bn, plus the input (through a strided 1x1 conv when it changes shape), relu."""

    def __init__(self, inputs: int, outputs: int, stride: int) -> None:
        super().__init__()
        self.first = torch.nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1)
        self.first_norm = torch.nn.BatchNorm2d(outputs)
        self.second = torch.nn.Conv2d(outputs, outputs, 3, padding=1)
        self.second_norm = torch.nn.BatchNorm2d(outputs)
        self.shortcut = (
            None if stride == 1 and inputs == outputs else torch.nn.Conv2d(inputs, outputs, 1, stride=stride)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.first_norm(self.first(x)))
        y = self.second_norm(self.second(y))
        return torch.relu(y + (x if self.shortcut is None else self.shortcut(x)))


class ResNet8(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.stem_norm = torch.nn.BatchNorm2d(16)
        self.stacks = torch.nn.Sequential(Stack(16, 16, 1), Stack(16, 32, 2), Stack(32, 64, 2))
        self.classifier = torch.nn.Linear(64, CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stacks(torch.relu(self.stem_norm(self.stem(x))))
        x = torch.nn.functional.avg_pool2d(x, 8).flatten(1)
        return torch.softmax(self.classifier(x), dim=-1)


def build_model(seed: int = SEED) -> ResNet8:
    torch.manual_seed(seed)
    model = ResNet8()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.1, 0.1)
    return model.eval()


def example_input() -> tuple[torch.Tensor]:
    return (torch.rand(INPUT_SHAPE, generator=torch.Generator().manual_seed(SEED)),)


def calibration_data(seed: int = SEED + 1) -> list[tuple[torch.Tensor]]:
    generator = torch.Generator().manual_seed(seed)
    return [(torch.rand(INPUT_SHAPE, generator=generator),) for _ in range(CALIBRATION_BATCHES)]


def int8_model() -> Any:
    """The convert_pt2e model (opbridge's quantizer, seeded calibration)."""
    quantizer = OpbridgeQuantizer.for_context(default_registry_context())
    return quantize_pt2e(build_model(), example_input(), calibration_data(), quantizer)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--float32", type=pathlib.Path, required=True)
    parser.add_argument("--int8", type=pathlib.Path, required=True)
    arguments = parser.parse_args(argv)
    torch.export.save(torch.export.export(build_model(), example_input()), str(arguments.float32))
    torch.export.save(torch.export.export(int8_model(), example_input()), str(arguments.int8))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
