"""opbridge_softmax_s8 equals the reference on drawn row lengths, scales and betas."""

from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Quantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.softmax.attributes import SoftmaxAttributes
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference

REGISTRY = build_builtin_registry()


@settings(max_examples=15)
@given(st.data())
def test_softmax(data: st.DataObject) -> None:
    rows, depth = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 40))
    builder = GraphBuilder()
    x = builder.tensor("logits", DType.INT8, (rows, depth), data.draw(strategies.per_tensor(0.01, 0.5)))
    y = builder.tensor("probabilities", DType.INT8, (rows, depth), Quantization((1.0 / 256.0,), (-128,)))
    attributes = SoftmaxAttributes(beta=data.draw(st.sampled_from([1.0, 0.5, 2.0])))
    check_c_matches_reference(builder.single_node_graph("SOFTMAX", [x], [y], attributes), REGISTRY)
