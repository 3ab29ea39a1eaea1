# SPDX-License-Identifier: Apache-2.0
"""NEG from torch.export: aten.neg (float32), through the ONNX Neg converter."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.neg.default",
        unary("Neg"),
        cases=(TorchCase("neg", lambda t: (case_module(t, lambda m, x: t.neg(x)), (t.randn(2, 9),)), int8=False),),
    ),
)
