# SPDX-License-Identifier: Apache-2.0
"""What the torch converters of the operator folders (ops/<op>/torch.py) share: converters of
element-wise ops, scalars as constants, and the modules their declare_supported cases build.

Converters write ONNX-semantics nodes (TorchTranslation.onnx), so layouts, int8 fusion and
attribute checks are the ONNX frontend's; torch arguments are mapped onto ONNX attributes here."""

from collections.abc import Callable
from typing import Any

import numpy as np

from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, Value, ints
from opbridge.ir import DType

TorchConvert = Callable[[TorchTranslation, TorchNode], None]


def operand(translation: TorchTranslation, value: Any, like: str, role: str = "operand") -> str:
    """A graph value's name, or a Python number as a constant of `like`'s dtype (x + 1.0)."""
    if isinstance(value, Value):
        return translation.name(value, role)
    if isinstance(value, bool | int | float):
        dtype = translation.meta(like).dtype
        return translation.constant(np.array(value), dtype, role)
    raise translation.node.unsupported(f"{role} {value!r} is neither a tensor nor a number")


def unary(op_type: str, **attributes: Any) -> TorchConvert:
    """op(x) as the ONNX op `op_type` with fixed attributes."""

    def convert(translation: TorchTranslation, node: TorchNode) -> None:
        translation.onnx(op_type, [translation.name(node.args[0])], **attributes)

    convert.__qualname__ = f"convert_{op_type.lower()}"
    return convert


def binary(op_type: str) -> TorchConvert:
    """op(x, y[, alpha=1]) as the ONNX op `op_type`; either operand may be a Python number."""

    def convert(translation: TorchTranslation, node: TorchNode) -> None:
        if "alpha" in node.argument_names and node.arg("alpha") != 1:
            raise node.unsupported(f"alpha={node.arg('alpha')!r}", hint="multiply the operand by alpha in the model")
        first, second = node.args[0], node.args[1]
        like = translation.name(first) if isinstance(first, Value) else translation.name(second)
        translation.onnx(op_type, [operand(translation, first, like), operand(translation, second, like)])

    convert.__qualname__ = f"convert_{op_type.lower()}"
    return convert


def alias(translation: TorchTranslation, node: TorchNode) -> None:
    """Ops that are the identity at inference (clone, contiguous, dropout in eval, alias, detach)."""
    translation.alias(node.output_names[0], translation.name(node.args[0]))


def reshape_to_output(translation: TorchTranslation, node: TorchNode) -> None:
    """view / reshape / flatten / squeeze / unsqueeze: a Reshape to the node's static output shape."""
    shape = translation.constant(np.array(node.output.shape, np.int64), DType.INT64, "shape")
    translation.onnx("Reshape", [translation.name(node.args[0]), shape])


def spatial_ints(value: Any, node: TorchNode, role: str, spatial: int) -> list[int]:
    """A per-spatial-axis argument (kernel, stride, padding, dilation): one int for every axis, or one each."""
    values = ints(value, node, role)
    return list(values * spatial if len(values) == 1 else values)


def axis(value: Any, rank: int, node: TorchNode) -> int:
    (result,) = ints(value, node, "dim")
    if not -rank <= result < max(rank, 1):
        raise node.unsupported(f"dim {result} is out of range for rank {rank}")
    return result % max(rank, 1)


def int64(translation: TorchTranslation, values: Any, role: str) -> str:
    return translation.constant(np.array(values, np.int64).reshape(-1), DType.INT64, role)


def case_module(torch: Any, forward: Callable[..., Any], **children: Any) -> Any:
    """An eval-mode nn.Module running `forward(self, *inputs)`, with `children` as submodules
    (for declare_supported cases of functional ops)."""

    class Case(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            for name, child in children.items():
                setattr(self, name, child)

        def forward(self, *inputs: Any) -> Any:
            return forward(self, *inputs)

    return Case().eval()
