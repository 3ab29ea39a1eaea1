"""AVERAGE_POOL_2D on drawn windows and paddings: reference == TFLite Micro, C kernel == reference."""

from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from opbridge.ir import DType, Graph
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.common import window
from opbridge.testing import strategies
from opbridge.testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

REGISTRY = build_builtin_registry()


def draw_graph(data: st.DataObject) -> Graph:
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
    return builder.single_node_graph("AVERAGE_POOL_2D", [x], [y], attributes)


@settings(max_examples=25)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_graph(data)
    attributes = graph.nodes[0].attributes
    options = schema.Pool2DOptionsT()
    options.padding = attributes.padding.value
    options.strideH, options.strideW = attributes.stride_height, attributes.stride_width
    options.filterHeight, options.filterWidth = attributes.filter_height, attributes.filter_width
    options.fusedActivationFunction = attributes.activation.value
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.AVERAGE_POOL_2D, 2, schema.BuiltinOptions.Pool2DOptions, options
    )


@settings(max_examples=15)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_graph(data), REGISTRY)
