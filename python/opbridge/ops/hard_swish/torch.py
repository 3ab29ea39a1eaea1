# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH from torch.export: hardswish (and hardswish_), through the ONNX HardSwish converter;
int8 with parameters of its own on each side, as TFLite's int8 HARD_SWISH rescales."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter


def _hardswish(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.hardswish(x)), (t.randn(1, 4, 5, 5) * 4.0,)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.hardswish.default", unary("HardSwish"), cases=(TorchCase("hardswish", _hardswish),)),
    TorchConverter("aten.hardswish_.default", unary("HardSwish")),
)
