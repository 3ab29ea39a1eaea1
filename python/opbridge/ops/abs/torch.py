# SPDX-License-Identifier: Apache-2.0
"""ABS from torch.export: aten.abs (float32), through the ONNX Abs converter."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.abs.default",
        unary("Abs"),
        cases=(TorchCase("abs", lambda t: (case_module(t, lambda m, x: t.abs(x)), (t.randn(2, 9),)), int8=False),),
    ),
)
