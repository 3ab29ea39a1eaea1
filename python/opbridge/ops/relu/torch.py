# SPDX-License-Identifier: Apache-2.0
"""RELU from torch.export: relu and relu_ (through the ONNX Relu converter)."""

from opbridge.frontends.torch.converter_helpers import case_module, unary
from opbridge.ops.definition import TorchCase, TorchConverter

_CASES = (TorchCase("relu", lambda t: (case_module(t, lambda m, x: t.relu(x)), (t.randn(1, 3, 4, 4),))),)

TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.relu.default", unary("Relu"), cases=_CASES),
    TorchConverter("aten.relu_.default", unary("Relu")),
)
