# SPDX-License-Identifier: Apache-2.0
"""MUL from torch.export: aten.mul of two tensors (broadcast) or of a tensor and a number,
through the ONNX Mul converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import binary, case_module
from opbridge.ops.definition import TorchCase, TorchConverter


def _two_tensors(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x, y: x * y), (t.randn(1, 4, 3, 3), t.rand(1, 4, 3, 3) + 0.5)


def _broadcast(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x, y: x * y), (t.randn(2, 3, 5), t.rand(5) + 0.5)


def _number(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: x * 1.5), (t.randn(2, 6),)


_CASES = (
    TorchCase("two tensors", _two_tensors),
    TorchCase("broadcast", _broadcast),
    TorchCase("a number", _number, int8=False),
)

TORCH_CONVERTERS: tuple[TorchConverter, ...] = tuple(
    TorchConverter(f"aten.{target}", binary("Mul"), cases=_CASES if position == 0 else ())
    for position, target in enumerate(["mul.Tensor", "mul_.Tensor"])
)
