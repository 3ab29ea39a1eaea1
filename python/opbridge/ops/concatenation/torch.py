# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION from torch.export: cat along any dim, through the ONNX Concat converter (int8: the
inputs and the output share one scale and zero point, as opbridge's quantizer annotates them)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import axis, case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_cat(translation: TorchTranslation, node: TorchNode) -> None:
    tensors = [translation.name(value) for value in node.args[0]]
    rank = len(translation.meta(tensors[0]).shape)
    translation.onnx("Concat", tensors, axis=axis(node.args[1], rank, node))


def _channels(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x, y: t.cat([t.relu(x), t.relu(y)], dim=1)), (
        t.randn(1, 2, 3, 3),
        t.randn(1, 3, 3, 3),
    )


def _last(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x, y: t.cat([x, y, x], dim=-1)), (t.randn(2, 3), t.randn(2, 4))


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.cat.default", convert_cat, cases=(TorchCase("channels", _channels), TorchCase("last dim", _last))
    ),
)
