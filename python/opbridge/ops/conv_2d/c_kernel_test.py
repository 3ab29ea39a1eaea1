"""opbridge_conv_2d_s8 and opbridge_depthwise_conv_2d_s8 equal the reference on drawn parameters."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from opbridge.ir import DType
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.common import window
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference

REGISTRY = build_builtin_registry()


def draw_convolution(data: st.DataObject, depthwise: bool) -> None:
    height, width = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    in_channels = data.draw(st.integers(1, 5))
    multiplier = data.draw(st.integers(1, 3)) if depthwise else 1
    out_channels = in_channels * multiplier if depthwise else data.draw(st.integers(1, 6))
    filter_height, filter_width = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    fields = {
        "padding": data.draw(strategies.PADDINGS),
        "stride_height": data.draw(st.integers(1, 3)),
        "stride_width": data.draw(st.integers(1, 3)),
        "dilation_height": data.draw(st.integers(1, 2)),
        "dilation_width": data.draw(st.integers(1, 2)),
        "activation": data.draw(strategies.ACTIVATIONS),
    }
    rows = window(fields["padding"], height, filter_height, fields["stride_height"], fields["dilation_height"])
    cols = window(fields["padding"], width, filter_width, fields["stride_width"], fields["dilation_width"])
    assume(rows.output_size > 0 and cols.output_size > 0)
    filter_shape = (
        (1, filter_height, filter_width, out_channels)
        if depthwise
        else (out_channels, filter_height, filter_width, in_channels)
    )
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (1, height, width, in_channels), data.draw(strategies.per_tensor()))
    w = builder.tensor(
        "filter",
        DType.INT8,
        filter_shape,
        data.draw(strategies.symmetric_filter(out_channels, axis=3 if depthwise else 0)),
        strategies.int8_array(data.draw, filter_shape),
    )
    b = builder.tensor("bias", DType.INT32, (out_channels,), None, strategies.bias_array(data.draw, out_channels))
    y = builder.tensor(
        "output",
        DType.INT8,
        (1, rows.output_size, cols.output_size, out_channels),
        data.draw(strategies.per_tensor(0.01, 2.0)),
    )
    if depthwise:
        attributes = DepthwiseConv2DAttributes(depth_multiplier=multiplier, **fields)
        graph = builder.single_node_graph("DEPTHWISE_CONV_2D", [x, w, b], [y], attributes)
    else:
        graph = builder.single_node_graph("CONV_2D", [x, w, b], [y], Conv2DAttributes(**fields))
    check_c_matches_reference(graph, REGISTRY)


@settings(max_examples=15)
@given(st.data())
def test_conv_2d(data: st.DataObject) -> None:
    draw_convolution(data, depthwise=False)


@settings(max_examples=15)
@given(st.data())
def test_depthwise_conv_2d(data: st.DataObject) -> None:
    draw_convolution(data, depthwise=True)
