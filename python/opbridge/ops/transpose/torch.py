# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE from torch.export: permute, transpose and t, through the ONNX Transpose converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import axis, case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, ints
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_permute(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    rank = len(translation.meta(x).shape)
    translation.onnx("Transpose", [x], perm=[d % rank for d in ints(node.args[1], node, "dims")])


def convert_transpose(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    rank = len(translation.meta(x).shape)
    perm = list(range(rank))
    first, second = axis(node.args[1], rank, node), axis(node.args[2], rank, node)
    perm[first], perm[second] = perm[second], perm[first]
    translation.onnx("Transpose", [x], perm=perm)


def convert_t(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    translation.onnx("Transpose", [x], perm=list(reversed(range(len(translation.meta(x).shape)))))


def _permute(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.relu(x).permute(0, 2, 3, 1)), (t.randn(1, 3, 4, 5),)


def _transpose(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.relu(x).transpose(1, 2)), (t.randn(2, 3, 4),)


def _t(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.relu(x).t()), (t.randn(3, 5),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.permute.default", convert_permute, cases=(TorchCase("NCHW to NHWC", _permute),)),
    TorchConverter("aten.transpose.int", convert_transpose, cases=(TorchCase("two axes", _transpose),)),
    TorchConverter("aten.t.default", convert_t, cases=(TorchCase("matrix", _t),)),
)
