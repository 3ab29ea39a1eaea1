# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX from torch.export: log_softmax over the last dim (float32)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import axis, case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_log_softmax(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    rank = len(translation.meta(x).shape)
    if node.target == "aten.log_softmax.int" and node.args[2] is not None:
        raise node.unsupported(f"dtype={node.args[2]}", hint="take the log-softmax in the input's dtype")
    translation.onnx("LogSoftmax", [x], axis=axis(node.args[1], rank, node))


def _log_softmax(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.log_softmax(x, dim=1)), (t.randn(3, 7),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.log_softmax.int", convert_log_softmax, cases=(TorchCase("last dim", _log_softmax, int8=False),)
    ),
    TorchConverter("aten._log_softmax.default", convert_log_softmax),
)
