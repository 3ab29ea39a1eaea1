"""opbridge_average_pool_2d_s8 equals the reference on drawn windows and paddings."""

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from opbridge.ir import DType
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.common import window
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference

REGISTRY = build_builtin_registry()


@settings(max_examples=15)
@given(st.data())
def test_average_pool_2d(data: st.DataObject) -> None:
    height, width, channels = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9)), data.draw(st.integers(1, 4))
    attributes = Pool2DAttributes(
        padding=data.draw(strategies.PADDINGS),
        stride_height=data.draw(st.integers(1, 3)),
        stride_width=data.draw(st.integers(1, 3)),
        filter_height=data.draw(st.integers(1, 4)),
        filter_width=data.draw(st.integers(1, 4)),
        activation=data.draw(strategies.ACTIVATIONS),
    )
    rows = window(attributes.padding, height, attributes.filter_height, attributes.stride_height)
    cols = window(attributes.padding, width, attributes.filter_width, attributes.stride_width)
    assume(rows.output_size > 0 and cols.output_size > 0)
    quantization = data.draw(strategies.per_tensor())  # TFLite requires equal input and output quantization
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (1, height, width, channels), quantization)
    y = builder.tensor("output", DType.INT8, (1, rows.output_size, cols.output_size, channels), quantization)
    check_c_matches_reference(builder.single_node_graph("AVERAGE_POOL_2D", [x], [y], attributes), REGISTRY)
