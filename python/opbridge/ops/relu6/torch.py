# SPDX-License-Identifier: Apache-2.0
"""RELU6 (and RELU, MINIMUM / MAXIMUM for other bounds) from torch.export: relu6, hardtanh and clamp,
as the ONNX Clip converter maps Clip's bounds."""

from typing import Any

import numpy as np

from opbridge.frontends.torch.converter_helpers import case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ir import DType
from opbridge.ops.definition import TorchCase, TorchConverter


def clip(translation: TorchTranslation, node: TorchNode, low: Any, high: Any) -> None:
    x = translation.name(node.args[0])
    dtype = translation.meta(x).dtype
    if dtype is not DType.FLOAT32:
        raise node.unsupported(f"clamp of {dtype.value}", hint="clamp float32 tensors")
    bounds = []
    for bound, role in ((low, "min"), (high, "max")):
        if bound is not None and not isinstance(bound, int | float):
            raise node.unsupported(f"{role} {bound!r} is not a number", hint="clamp to constant bounds")
        bounds.append("" if bound is None else translation.constant(np.float32(bound), DType.FLOAT32, role))
    translation.onnx("Clip", [x, *bounds])


def convert_hardtanh(translation: TorchTranslation, node: TorchNode) -> None:
    clip(translation, node, node.args[1], node.args[2])


def convert_relu6(translation: TorchTranslation, node: TorchNode) -> None:
    clip(translation, node, 0.0, 6.0)


def convert_clamp(translation: TorchTranslation, node: TorchNode) -> None:
    clip(translation, node, node.args[1], node.args[2])


def _scaled(t: Any, function: Any) -> Any:
    """The function of a module; the cases give it inputs spread over [-8, 8] or so."""
    return case_module(t, lambda m, x: function(x))


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.hardtanh.default",
        convert_hardtanh,
        cases=(
            TorchCase(
                "(0, 6)",
                lambda t: (_scaled(t, lambda x: t.nn.functional.hardtanh(x, 0.0, 6.0)), (t.randn(1, 4, 5, 5) * 4.0,)),
            ),
            TorchCase("(-1, 1)", lambda t: (_scaled(t, t.nn.functional.hardtanh), (t.randn(2, 8) * 4.0,)), int8=False),
        ),
    ),
    TorchConverter("aten.hardtanh_.default", convert_hardtanh),
    TorchConverter(
        "aten.relu6.default",
        convert_relu6,
        cases=(TorchCase("relu6", lambda t: (_scaled(t, t.nn.functional.relu6), (t.randn(1, 4, 5, 5) * 4.0,))),),
    ),
    TorchConverter(
        "aten.clamp.default",
        convert_clamp,
        cases=(
            TorchCase("min only", lambda t: (_scaled(t, lambda x: t.clamp(x, min=0.0)), (t.randn(3, 7) * 4.0,))),
            TorchCase(
                "both", lambda t: (_scaled(t, lambda x: t.clamp(x, -2.0, 3.0)), (t.randn(3, 7) * 4.0,)), int8=False
            ),
        ),
    ),
)
