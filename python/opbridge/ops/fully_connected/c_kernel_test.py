"""opbridge_fully_connected_s8 equals the reference on drawn shapes and quantization."""

from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference

REGISTRY = build_builtin_registry()


@settings(max_examples=15)
@given(st.data())
def test_fully_connected(data: st.DataObject) -> None:
    batches, depth, units = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 40)), data.draw(st.integers(1, 20))
    input_q = data.draw(strategies.per_tensor())
    filter_q = data.draw(strategies.symmetric_filter(units, axis=0))
    output_q = data.draw(strategies.per_tensor(0.01, 2.0))
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (batches, depth), input_q)
    w = builder.tensor("filter", DType.INT8, (units, depth), filter_q, strategies.int8_array(data.draw, (units, depth)))
    b = None
    if data.draw(st.booleans()):
        bias_q = Quantization(
            tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis
        )
        b = builder.tensor("bias", DType.INT32, (units,), bias_q, strategies.bias_array(data.draw, units))
    y = builder.tensor("output", DType.INT8, (batches, units), output_q)
    attributes = FullyConnectedAttributes(activation=data.draw(strategies.ACTIVATIONS))
    check_c_matches_reference(builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes), REGISTRY)
