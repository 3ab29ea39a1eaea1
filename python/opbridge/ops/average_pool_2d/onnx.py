# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D from ONNX: AveragePool, 1-D and 2-D (and, through convert_pool, MAX_POOL_2D's MaxPool)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import (
    Converter,
    bind_from_nhwc,
    ints,
    require_attribute,
    spatial_padding,
    spatial_rank,
    to_nhwc,
    with_unit_height,
)
from opbridge.ir.attribute_types import Padding
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.definition import OnnxConverter


def convert_pool(op_key: str) -> Converter:
    def convert(conversion: OnnxConversion, node: OnnxNode) -> None:
        x = conversion.value(node.inputs[0], node)
        spatial = spatial_rank(conversion, node, x)
        dilations = ints(node, "dilations", (1,) * spatial)
        if any(d != 1 for d in dilations):
            raise node.unsupported(f"dilations={list(dilations)} (only {', '.join(['1'] * spatial)})")
        if spatial == 1:
            node = with_unit_height(node)
        require_attribute(node, "ceil_mode", 0, 0)
        kernel = ints(node, "kernel_shape", ())
        strides = ints(node, "strides", (1, 1))
        shape = conversion.tensor(x).shape
        input_hw = (1, shape[2]) if spatial == 1 else shape[2:4]
        padding = spatial_padding(node, input_hw, kernel, strides, (1, 1))  # type: ignore[arg-type]
        if padding.explicit is not None:
            raise node.unsupported(
                f"pads={list(node.attribute('pads'))}: only no padding or TFLite SAME padding",
                hint="pad with a Pad node before the pool",
            )
        if op_key == "AVERAGE_POOL_2D" and padding.padding is Padding.SAME:
            require_attribute(node, "count_include_pad", 0, 0)  # TFLite averages over the valid elements
        nhwc = to_nhwc(conversion, node, x)
        attributes = Pool2DAttributes(
            padding=padding.padding,
            stride_height=strides[0],
            stride_width=strides[1],
            filter_height=kernel[0],
            filter_width=kernel[1],
        )
        bind_from_nhwc(conversion, node, conversion.emit(op_key, [nhwc], attributes, name=node.name)[0], spatial)

    return convert


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("AveragePool", convert_pool("AVERAGE_POOL_2D")),)
