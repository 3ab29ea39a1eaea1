# SPDX-License-Identifier: Apache-2.0
"""GELU from torch.export: gelu(x, approximate="none" | "tanh"), through the ONNX Gelu converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_gelu(translation: TorchTranslation, node: TorchNode) -> None:
    approximate = node.args[1] if len(node.args) > 1 else "none"
    translation.onnx("Gelu", [translation.name(node.args[0])], approximate=str(approximate))


def _gelu(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.gelu(x)), (t.randn(2, 16) * 3.0,)


def _gelu_tanh(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.gelu(x, approximate="tanh")), (t.randn(1, 4, 6, 6) * 3.0,)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.gelu.default",
        convert_gelu,
        cases=(TorchCase("gelu", _gelu), TorchCase("gelu tanh", _gelu_tanh)),
    ),
)
