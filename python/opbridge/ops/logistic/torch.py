# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC from torch.export: sigmoid (int8 output: scale 1/256, zero point -128, as TFLite)."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.sigmoid.default",
        unary("Sigmoid"),
        cases=(TorchCase("sigmoid", lambda t: (case_module(t, lambda m, x: t.sigmoid(x)), (t.randn(2, 16) * 3.0,))),),
    ),
)
