# SPDX-License-Identifier: Apache-2.0
"""TANH from torch.export: tanh (int8 output: scale 1/128, zero point 0, as TFLite)."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.tanh.default",
        unary("Tanh"),
        cases=(TorchCase("tanh", lambda t: (case_module(t, lambda m, x: t.tanh(x)), (t.randn(2, 16) * 2.0,))),),
    ),
)
