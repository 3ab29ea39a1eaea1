# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU from torch.export: leaky_relu(x, negative_slope), through the ONNX LeakyRelu converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_leaky_relu(translation: TorchTranslation, node: TorchNode) -> None:
    translation.onnx("LeakyRelu", [translation.name(node.args[0])], alpha=float(node.args[1]))


def _leaky(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.leaky_relu(x, 0.2)), (t.randn(2, 3, 5),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.leaky_relu.default", convert_leaky_relu, cases=(TorchCase("slope 0.2", _leaky),)),
)
