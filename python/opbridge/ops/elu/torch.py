# SPDX-License-Identifier: Apache-2.0
"""ELU from torch.export: elu(x, alpha) with scale 1 (float32), through the ONNX Elu converter."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_elu(translation: TorchTranslation, node: TorchNode) -> None:
    alpha, scale, input_scale = node.args[1:4]
    if scale != 1 or input_scale != 1:
        raise node.unsupported(f"scale={scale}, input_scale={input_scale}", hint="use elu with its default scales")
    translation.onnx("Elu", [translation.name(node.args[0])], alpha=float(alpha))


def _elu(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.elu(x, 0.7)), (t.randn(2, 8),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter("aten.elu.default", convert_elu, cases=(TorchCase("alpha 0.7", _elu, int8=False),)),
)
