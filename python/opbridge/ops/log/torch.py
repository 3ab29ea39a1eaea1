# SPDX-License-Identifier: Apache-2.0
"""LOG from torch.export: aten.log (float32), through the ONNX Log converter."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.log.default",
        unary("Log"),
        cases=(TorchCase("log", lambda t: (case_module(t, lambda m, x: t.log(x)), (t.rand(2, 9) + 0.1,)), int8=False),),
    ),
)
