# SPDX-License-Identifier: Apache-2.0
"""EXP from torch.export: aten.exp (float32), through the ONNX Exp converter."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.exp.default",
        unary("Exp"),
        cases=(TorchCase("exp", lambda t: (case_module(t, lambda m, x: t.exp(x)), (t.randn(2, 9),)), int8=False),),
    ),
)
