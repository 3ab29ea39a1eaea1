# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX from torch.export: softmax over the last dim (int8 output: scale 1/256, zero point -128)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import axis, case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_softmax(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    rank = len(translation.meta(x).shape)
    if node.target == "aten.softmax.int" and node.args[2] is not None:
        raise node.unsupported(f"dtype={node.args[2]}", hint="take the softmax in the input's dtype")
    translation.onnx("Softmax", [x], axis=axis(node.args[1], rank, node))


def _softmax(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.softmax(x, dim=-1)), (t.randn(2, 10) * 3.0,)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.softmax.int", convert_softmax, cases=(TorchCase("last dim", _softmax),)),
    TorchConverter(
        "aten._softmax.default",
        convert_softmax,
        cases=(TorchCase("decomposed", _softmax, int8=False, decomposed=True),),
    ),
)
