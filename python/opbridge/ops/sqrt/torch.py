# SPDX-License-Identifier: Apache-2.0
"""SQRT from torch.export: aten.sqrt (float32), through the ONNX Sqrt converter."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.sqrt.default",
        unary("Sqrt"),
        cases=(
            TorchCase("sqrt", lambda t: (case_module(t, lambda m, x: t.sqrt(x)), (t.rand(2, 9) + 0.1,)), int8=False),
        ),
    ),
)
