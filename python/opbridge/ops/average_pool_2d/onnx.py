# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D from ONNX: AveragePool (and, through convert_pool, MAX_POOL_2D's MaxPool)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import (
    TO_NHWC,
    Converter,
    bind_nchw,
    ints,
    require_attribute,
    require_rank,
    spatial_padding,
    transpose,
)
from opbridge.ir.attribute_types import Padding
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.definition import OnnxConverter


def convert_pool(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        x = conversion.value(node.inputs[0], node)
        require_rank(conversion, node, x, 4)
        require_attribute(node, "ceil_mode", 0, 0)
        if tuple(node.attribute("dilations", (1, 1))) != (1, 1):
            raise node.unsupported(f"dilations={list(node.attribute('dilations'))} (only 1, 1)")
        kernel = ints(node, "kernel_shape", ())
        strides = ints(node, "strides", (1, 1))
        padding = spatial_padding(node, conversion.tensor(x).shape[2:4], kernel, strides, (1, 1))  # type: ignore[arg-type]
        if padding.explicit is not None:
            raise node.unsupported(
                f"pads={list(node.attribute('pads'))}: only no padding or TFLite SAME padding",
                hint="pad with a Pad node before the pool",
            )
        if op_key == "AVERAGE_POOL_2D" and padding.padding is Padding.SAME:
            require_attribute(node, "count_include_pad", 0, 0)  # TFLite averages over the valid elements
        nhwc = transpose(conversion, x, TO_NHWC, f"{node.name}/to_nhwc")
        attributes = Pool2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            filter_height=kernel[0],
            filter_width=kernel[1],
        )
        bind_nchw(conversion, node, conversion.emit(op_key, [nhwc], attributes, name=node.name)[0])

    return convert


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("AveragePool", convert_pool("AVERAGE_POOL_2D")),)
