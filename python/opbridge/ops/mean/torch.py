# SPDX-License-Identifier: Apache-2.0
"""MEAN from torch.export: mean over dims (keepdim or not), through the ONNX ReduceMean converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module, int64
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, ints
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_mean(translation: TorchTranslation, node: TorchNode) -> None:
    x = translation.name(node.args[0])
    rank = len(translation.meta(x).shape)
    dims = ints(node.args[1], node, "dim") if node.args[1] not in (None, []) else tuple(range(rank))
    if len(node.args) > 3 and node.args[3] is not None:
        raise node.unsupported(f"dtype={node.args[3]}", hint="take the mean in the input's dtype")
    translation.onnx(
        "ReduceMean", [x, int64(translation, [d % rank for d in dims], "axes")], keepdims=int(bool(node.args[2]))
    )


def _spatial_mean(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: x.mean(dim=(2, 3))), (t.randn(1, 5, 4, 4),)


def _keepdim(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.mean(x, dim=-1, keepdim=True)), (t.randn(2, 3, 6),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.mean.dim", convert_mean, cases=(TorchCase("spatial", _spatial_mean), TorchCase("keepdim", _keepdim))
    ),
)
