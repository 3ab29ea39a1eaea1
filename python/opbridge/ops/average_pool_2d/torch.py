# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D (and MEAN) from torch.export: avg_pool1d/2d and adaptive_avg_pool1d/2d, through the
ONNX AveragePool and GlobalAveragePool converters. TFLite averages over the window's valid elements:
padding is taken with count_include_pad=True (zeros counted, as ONNX's count_include_pad=1)."""

from typing import Any

from opbridge.frontends.torch.converter_helpers import case_module, spatial_ints
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, ints
from opbridge.ops.definition import TorchCase, TorchConverter


def pool(translation: TorchTranslation, node: TorchNode, op_type: str, spatial: int, **extra: Any) -> None:
    """avg_pool / max_pool (x, kernel, stride, padding, ...[ceil_mode]): ceil_mode only where it
    does not change the output size."""
    x = translation.name(node.args[0])
    kernel = spatial_ints(node.args[1], node, "kernel_size", spatial)
    stride = spatial_ints(node.args[2], node, "stride", spatial) if node.args[2] else kernel
    padding = spatial_ints(node.args[3], node, "padding", spatial)
    ceil_mode = bool(extra.pop("ceil_mode", False))
    input_shape = translation.meta(x).shape[-spatial:]
    dilation = extra.get("dilations", [1] * spatial)
    floor_shape = tuple(
        (size + 2 * pad - d * (k - 1) - 1) // s + 1
        for size, pad, k, s, d in zip(input_shape, padding, kernel, stride, dilation, strict=True)
    )
    if ceil_mode and floor_shape != node.output.shape[-spatial:]:
        raise node.unsupported(
            "ceil_mode=True changes the output size here", hint="pad the input, or use ceil_mode=False"
        )
    translation.onnx(
        op_type, [x], outputs=node.output_names[:1], kernel_shape=kernel, strides=stride, pads=padding * 2, **extra
    )


def convert_avg_pool(spatial: int) -> Any:
    def convert(translation: TorchTranslation, node: TorchNode) -> None:
        ceil_mode, count_include_pad = node.args[4], node.args[5]
        if len(node.args) > 6 and node.args[6] is not None:
            raise node.unsupported(f"divisor_override={node.args[6]}", hint="leave divisor_override unset")
        pool(
            translation,
            node,
            "AveragePool",
            spatial,
            ceil_mode=ceil_mode,
            count_include_pad=int(bool(count_include_pad)),
        )

    convert.__qualname__ = f"convert_avg_pool{spatial}d"
    return convert


def convert_adaptive_avg_pool(translation: TorchTranslation, node: TorchNode) -> None:
    """adaptive_avg_pool to sizes that divide the input (1 included): an AveragePool of equal windows.
    To 1 (x 1) that is one window over the whole map, AVERAGE_POOL_2D as in TFLite's KWS models: it
    rounds its one division exactly, where MEAN folds 1/count into a fixed-point multiplier."""
    x = translation.name(node.args[0])
    sizes = ints(node.args[1], node, "output_size")
    spatial_shape = translation.meta(x).shape[2:]
    if len(sizes) != len(spatial_shape) or any(n % s for n, s in zip(spatial_shape, sizes, strict=True)):
        raise node.unsupported(
            f"output_size {list(sizes)} does not divide the input's {list(spatial_shape)}",
            hint="pool to 1, or to sizes that divide the input (equal windows)",
        )
    kernel = [n // s for n, s in zip(spatial_shape, sizes, strict=True)]
    translation.onnx("AveragePool", [x], kernel_shape=kernel, strides=kernel)


def _adaptive(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.adaptive_avg_pool2d(x, 1)), (t.randn(1, 6, 5, 5),)


def _adaptive_divides(t: Any) -> tuple[Any, tuple[Any, ...]]:
    return case_module(t, lambda m, x: t.nn.functional.adaptive_avg_pool2d(x, (2, 3))), (t.randn(1, 2, 4, 6),)


TORCH_CONVERTERS: tuple[TorchConverter, ...] = (
    TorchConverter(
        "aten.avg_pool2d.default",
        convert_avg_pool(2),
        cases=(
            TorchCase("2x2 stride 2", lambda t: (t.nn.AvgPool2d(2).eval(), (t.randn(1, 3, 8, 8),))),
            TorchCase("3x3 stride 1", lambda t: (t.nn.AvgPool2d(3, stride=1).eval(), (t.randn(1, 2, 6, 7),))),
            TorchCase(
                "padded, zeros counted", lambda t: (t.nn.AvgPool2d(3, 2, padding=1).eval(), (t.randn(1, 2, 7, 7),))
            ),
        ),
    ),
    TorchConverter(
        "aten.avg_pool1d.default",
        convert_avg_pool(1),
        cases=(TorchCase("kernel 4", lambda t: (t.nn.AvgPool1d(4).eval(), (t.randn(1, 3, 16),))),),
    ),
    TorchConverter(
        "aten.adaptive_avg_pool2d.default",
        convert_adaptive_avg_pool,
        cases=(TorchCase("to 1x1", _adaptive), TorchCase("to 2x3", _adaptive_divides)),
    ),
    TorchConverter(
        "aten.adaptive_avg_pool1d.default",
        convert_adaptive_avg_pool,
        cases=(TorchCase("to 1", lambda t: (t.nn.AdaptiveAvgPool1d(1).eval(), (t.randn(1, 4, 10),))),),
    ),
)
