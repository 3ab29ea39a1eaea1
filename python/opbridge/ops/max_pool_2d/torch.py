# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D from torch.export: max_pool1d/2d (and max_pool2d_with_indices without its indices),
through the ONNX MaxPool converter; int8 max pools keep their input's parameters."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import spatial_ints
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation
from opbridge.ops.average_pool_2d.torch import pool
from opbridge.ops.definition import TorchCase, TorchConverter


def convert_max_pool(spatial: int) -> Any:
    def convert(translation: TorchTranslation, node: TorchNode) -> None:
        dilations = spatial_ints(node.args[4], node, "dilation", spatial)
        pool(translation, node, "MaxPool", spatial, ceil_mode=node.args[5], dilations=dilations)

    convert.__qualname__ = f"convert_max_pool{spatial}d"
    return convert


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.max_pool2d.default",
        convert_max_pool(2),
        cases=(
            TorchCase("2x2", lambda t: (t.nn.MaxPool2d(2).eval(), (t.randn(1, 3, 8, 8),))),
            TorchCase(
                "3x3 stride 2 padded", lambda t: (t.nn.MaxPool2d(3, 2, padding=1).eval(), (t.randn(1, 2, 9, 9),))
            ),
        ),
    ),
    TorchConverter(
        "aten.max_pool1d.default",
        convert_max_pool(1),
        cases=(TorchCase("kernel 3", lambda t: (t.nn.MaxPool1d(3).eval(), (t.randn(1, 2, 12),))),),
    ),
    TorchConverter(
        "aten.max_pool2d_with_indices.default",
        convert_max_pool(2),
        cases=(
            TorchCase(
                "decomposed", lambda t: (t.nn.MaxPool2d(2).eval(), (t.randn(1, 2, 6, 6),)), int8=False, decomposed=True
            ),
        ),
    ),
)
