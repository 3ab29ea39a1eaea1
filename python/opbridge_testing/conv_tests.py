# SPDX-License-Identifier: Apache-2.0
"""The op tests CONV_2D and DEPTHWISE_CONV_2D share (ops/conv_2d/op_test.py, ops/depthwise_conv_2d/op_test.py),
on drawn shapes, strides, dilations, paddings and fused activations: reference == TFLite Micro, C kernel ==
reference.

int8 on drawn input and output quantization and per-tensor or per-channel filter quantization, with TFLite's
requantization (checked against TFLite Micro and the C kernel) and ONNX's (C kernel only); float32, whose outputs
equal TFLite Micro's and the C kernel's bit for bit, on drawn inputs and on inputs with FLOAT32_EDGE_VALUES.
"""

from collections.abc import Callable

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Requantization, window
from opbridge.ops.conv_2d.attributes import Conv2DAttributes
from opbridge.ops.depthwise_conv_2d.attributes import DepthwiseConv2DAttributes

from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

REGISTRY = available_operator_registry()
OP_TYPES = ("CONV_2D", "DEPTHWISE_CONV_2D")


def draw_graph(
    data: st.DataObject,
    depthwise: bool,
    dtype: DType = DType.INT8,
    may_omit_bias: bool = True,
    requantization: Requantization = Requantization.TFLITE,
) -> Graph:
    """A drawn CONV_2D node (DEPTHWISE_CONV_2D if `depthwise`): int8 with `requantization`, or float32."""
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
    if depthwise:
        filter_shape = (1, filter_height, filter_width, out_channels)
    else:
        filter_shape = (out_channels, filter_height, filter_width, in_channels)
    output_shape = (1, rows.output_size, cols.output_size, out_channels)
    if dtype is DType.FLOAT32:
        input_shape = (1, height, width, in_channels)
        return float32_graph(
            data, depthwise, multiplier, input_shape, filter_shape, output_shape, fields, may_omit_bias
        )
    input_q = data.draw(strategies.per_tensor())
    filter_q = data.draw(strategies.symmetric_filter(out_channels, axis=3 if depthwise else 0))
    bias_scales = tuple(input_q.scale * s for s in filter_q.scales)
    bias_q = Quantization(bias_scales, (0,) * len(bias_scales), 0 if len(bias_scales) > 1 else None)
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (1, height, width, in_channels), input_q)
    w = builder.tensor("filter", DType.INT8, filter_shape, filter_q, strategies.int8_array(data.draw, filter_shape))
    b = builder.tensor("bias", DType.INT32, (out_channels,), bias_q, strategies.bias_array(data.draw, out_channels))
    y = builder.tensor("output", DType.INT8, output_shape, data.draw(strategies.per_tensor(0.01, 2.0)))
    fields["requantization"] = requantization
    if depthwise:
        attributes = DepthwiseConv2DAttributes(depth_multiplier=multiplier, **fields)
        return builder.single_node_graph("DEPTHWISE_CONV_2D", [x, w, b], [y], attributes)
    return builder.single_node_graph("CONV_2D", [x, w, b], [y], Conv2DAttributes(**fields))


def float32_graph(
    data: st.DataObject,
    depthwise: bool,
    multiplier: int,
    input_shape: tuple[int, ...],
    filter_shape: tuple[int, ...],
    output_shape: tuple[int, ...],
    fields: dict,
    may_omit_bias: bool,
) -> Graph:
    """A float32 convolution: standard normal filter and bias (sometimes omitted, if it may be)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    out_channels = output_shape[3]
    builder = GraphBuilder()
    x = builder.tensor("input", DType.FLOAT32, input_shape)
    w = builder.tensor("filter", DType.FLOAT32, filter_shape, data=rng.standard_normal(filter_shape).astype(np.float32))
    b = None
    if not may_omit_bias or data.draw(st.booleans()):
        b = builder.tensor(
            "bias", DType.FLOAT32, (out_channels,), data=rng.standard_normal(out_channels).astype(np.float32)
        )
    y = builder.tensor("output", DType.FLOAT32, output_shape)
    if depthwise:
        attributes = DepthwiseConv2DAttributes(depth_multiplier=multiplier, **fields)
        return builder.single_node_graph("DEPTHWISE_CONV_2D", [x, w, b], [y], attributes)
    return builder.single_node_graph("CONV_2D", [x, w, b], [y], Conv2DAttributes(**fields))


def litert_options(graph: Graph) -> object:
    attributes = graph.nodes[0].attributes
    depthwise = graph.nodes[0].op_type == "DEPTHWISE_CONV_2D"
    options = schema.DepthwiseConv2DOptionsT() if depthwise else schema.Conv2DOptionsT()
    options.padding = attributes.padding.value
    options.strideH, options.strideW = attributes.stride_height, attributes.stride_width
    options.dilationHFactor, options.dilationWFactor = attributes.dilation_height, attributes.dilation_width
    options.fusedActivationFunction = attributes.activation.value
    if depthwise:
        options.depthMultiplier = attributes.depth_multiplier
    return options


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    float32 = graph.tensors[graph.inputs[0]].dtype is DType.FLOAT32
    if graph.nodes[0].op_type == "DEPTHWISE_CONV_2D":
        code, options_type = schema.BuiltinOperator.DEPTHWISE_CONV_2D, schema.BuiltinOptions.DepthwiseConv2DOptions
    else:
        code, options_type = schema.BuiltinOperator.CONV_2D, schema.BuiltinOptions.Conv2DOptions
    version = 1 if float32 else 3
    options = litert_options(graph)
    check_reference_matches_tflite_micro(graph, REGISTRY, code, version, options_type, options, inputs=inputs)


def conv_tests(op_type: str) -> tuple[Callable[..., None], ...]:
    """The six test functions of CONV_2D or DEPTHWISE_CONV_2D, for the op's op_test.py to bind by name."""
    if op_type not in OP_TYPES:
        raise ValueError(f"conv_tests: op_type {op_type!r} is not one of {OP_TYPES}")
    depthwise = op_type == "DEPTHWISE_CONV_2D"

    @settings(max_examples=13)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_against_tflite_micro(draw_graph(data, depthwise))

    @settings(max_examples=15)
    @given(st.data())
    def test_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(draw_graph(data, depthwise), REGISTRY)

    @settings(max_examples=10)
    @given(st.data())
    def test_onnx_requantization_c_kernel_matches_reference(data: st.DataObject) -> None:
        # Requantization.ONNX (float32 scales, halves to even); the reference's is checked
        # against onnxruntime's QLinearConv in tests/onnx/qlinear_ops_test.py.
        check_c_matches_reference(draw_graph(data, depthwise, requantization=Requantization.ONNX), REGISTRY)

    @settings(max_examples=20)
    @given(st.data())
    def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
        # TFLite Micro's float DEPTHWISE_CONV_2D crashes without a bias; the C kernels take NULL.
        check_against_tflite_micro(draw_graph(data, depthwise, DType.FLOAT32, may_omit_bias=not depthwise))

    @settings(max_examples=10)
    @given(st.data())
    def test_float32_reference_matches_tflite_micro_at_the_edges(data: st.DataObject) -> None:
        """Inputs with infinities, NaN, signed zeros, subnormals and overflowing values."""
        graph = draw_graph(data, depthwise, DType.FLOAT32, may_omit_bias=not depthwise)
        shape = graph.tensors[graph.inputs[0]].shape
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        edges = rng.choice(FLOAT32_EDGE_VALUES, size=shape)
        normal = rng.standard_normal(shape).astype(np.float32)
        check_against_tflite_micro(graph, [[np.where(rng.random(shape) < 0.3, edges, normal).astype(np.float32)]])

    @settings(max_examples=6)
    @given(st.data())
    def test_float32_c_kernel_equals_reference(data: st.DataObject) -> None:
        check_c_matches_reference(draw_graph(data, depthwise, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        test_onnx_requantization_c_kernel_matches_reference,
        test_float32_reference_matches_tflite_micro,
        test_float32_reference_matches_tflite_micro_at_the_edges,
        test_float32_c_kernel_equals_reference,
    )
