# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV (float32) on drawn shapes, strides, paddings, output sizes, biases and fused activations:
reference == TFLite Micro bit for bit (drawn inputs, and inputs with infinities, NaN, signed zeros and
overflowing values), C kernel == reference bit for bit; ONNX ConvTranspose, converted and run by the
reference, == onnxruntime (which sums in another order: rtol 1e-5) for several strides, pads,
output_padding, auto_pad and output_shape values, and its converted graph's C == the reference."""

import re

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.ir.attribute_types import Activation, Padding
from opbridge.ops.transpose_conv.attributes import TransposeConvAttributes
from opbridge.ops.transpose_conv.reference import transpose_conv_padding

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's NCHW layout adds TRANSPOSEs and RESHAPEs.
USES_OPERATORS = ("reshape", "transpose")

REGISTRY = available_operator_registry()


def draw_graph(data: st.DataObject) -> Graph:
    """A drawn float32 TRANSPOSE_CONV. The output size is TFLite's for SAME (input * stride) or VALID
    ((input - 1) * stride + filter), or any size: TFLite Micro takes the output tensor's shape as it is."""
    height, width = data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6))
    channels, out_channels = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 5))
    filter_height, filter_width = data.draw(st.integers(1, 5)), data.draw(st.integers(1, 5))
    attributes = TransposeConvAttributes(
        padding=data.draw(strategies.PADDINGS),
        stride_height=data.draw(st.integers(1, 3)),
        stride_width=data.draw(st.integers(1, 3)),
        activation=data.draw(strategies.ACTIVATIONS),
    )

    def output_size(size: int, filter_size: int, stride: int) -> int:
        natural = size * stride if attributes.padding is Padding.SAME else (size - 1) * stride + filter_size
        return data.draw(st.one_of(st.just(natural), st.integers(1, 16)))

    out_height = output_size(height, filter_height, attributes.stride_height)
    out_width = output_size(width, filter_width, attributes.stride_width)
    batch = data.draw(st.integers(1, 2))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    filter_shape = (out_channels, filter_height, filter_width, channels)
    output_shape = (batch, out_height, out_width, out_channels)
    builder = GraphBuilder()
    shape = builder.tensor("output_shape", DType.INT32, (4,), data=np.array(output_shape, np.int32))
    w = builder.tensor("filter", DType.FLOAT32, filter_shape, data=rng.standard_normal(filter_shape).astype(np.float32))
    x = builder.tensor("input", DType.FLOAT32, (batch, height, width, channels))
    inputs: list[int | None] = [shape, w, x]
    if data.draw(st.booleans()):
        bias = rng.standard_normal(out_channels).astype(np.float32)
        inputs.append(builder.tensor("bias", DType.FLOAT32, (out_channels,), data=bias))
    y = builder.tensor("output", DType.FLOAT32, output_shape)
    return builder.single_node_graph("TRANSPOSE_CONV", inputs, [y], attributes)


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    node = graph.nodes[0]
    attributes = node.attributes
    options = schema.TransposeConvOptionsT()
    options.padding = attributes.padding.value
    options.strideH, options.strideW = attributes.stride_height, attributes.stride_width
    options.fusedActivationFunction = attributes.activation.value
    # The version TFLite writes: 4 with a fused activation, 3 with a bias, else 1.
    version = 4 if attributes.activation is not Activation.NONE else 3 if len(node.inputs) > 3 else 1
    check_reference_matches_tflite_micro(
        graph, REGISTRY, schema.BuiltinOperator.TRANSPOSE_CONV, version,
        schema.BuiltinOptions.TransposeConvOptions, options, inputs=inputs,
    )  # fmt: skip


@settings(max_examples=40, deadline=None)  # the first example compiles the kernels
@given(st.data())
def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data))


@settings(max_examples=10, deadline=None)  # the first example compiles the kernels
@given(st.data())
def test_float32_reference_matches_tflite_micro_at_the_edges(data: st.DataObject) -> None:
    """Inputs with infinities, NaN, signed zeros, subnormals and overflowing values."""
    graph = draw_graph(data)
    shape = graph.tensors[graph.inputs[0]].shape
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    edges = rng.choice(FLOAT32_EDGE_VALUES, size=shape)
    normal = rng.standard_normal(shape).astype(np.float32)
    check_against_tflite_micro(graph, [[np.where(rng.random(shape) < 0.3, edges, normal).astype(np.float32)]])


@settings(max_examples=8, deadline=None)  # the first example compiles the kernels
@given(st.data())
def test_float32_c_kernel_equals_reference(data: st.DataObject) -> None:
    # The kernel adds each output's products in the reference's (TFLite Micro's) order: equal bits.
    check_c_matches_reference(draw_graph(data), REGISTRY, float_ulp_tolerance=0)


@pytest.mark.parametrize(
    ("padding", "output_hw", "filter_hw", "strides", "expected"),
    [
        (Padding.SAME, (8, 8), (3, 3), (2, 2), (0, 0)),  # total 1: all of it after
        (Padding.SAME, (8, 6), (4, 5), (2, 3), (1, 1)),
        (Padding.VALID, (7, 7), (3, 3), (2, 2), (0, 0)),
        (Padding.VALID, (1, 5), (8, 3), (4, 1), (1, 0)),  # (1 + 4 - 8) / 4 truncates to 0: out size 0, total 3
        (Padding.VALID, (1, 5), (8, 3), (1, 1), (0, 0)),  # out size -6 fails: both paddings 0
        (Padding.SAME, (1, 9), (7, 7), (1, 3), (3, 2)),
    ],
)
def test_padding_is_tflites(
    padding: Padding,
    output_hw: tuple[int, int],
    filter_hw: tuple[int, int],
    strides: tuple[int, int],
    expected: tuple[int, int],
) -> None:
    assert transpose_conv_padding(padding, output_hw, filter_hw, strides) == expected


def onnx_conv_transpose(
    input_shape: tuple[int, ...], weights: np.ndarray, bias: np.ndarray | None, **attributes: object
) -> bytes:
    initializers = [numpy_helper.from_array(weights, "w")]
    inputs = ["x", "w"]
    if bias is not None:
        initializers.append(numpy_helper.from_array(bias, "b"))
        inputs.append("b")
    node = helper.make_node("ConvTranspose", inputs, ["y"], name="deconv", **attributes)
    graph = helper.make_graph(
        [node],
        "conv_transpose",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(input_shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


# (input [N, C, H, W] or [N, C, W], output channels, kernel, ConvTranspose attributes, whether a slice crops).
ONNX_CASES = [
    ((1, 3, 4, 5), 2, (3, 3), {"strides": [2, 2]}, False),
    ((1, 3, 4, 5), 2, (3, 3), {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 1]}, True),
    ((2, 2, 3, 4), 4, (4, 4), {"strides": [2, 2], "pads": [1, 1, 1, 1]}, False),  # SAME's padding 1
    ((1, 3, 5, 4), 2, (3, 2), {"strides": [3, 2], "pads": [2, 0, 1, 1], "output_padding": [2, 1]}, True),
    ((1, 2, 4, 4), 3, (3, 3), {"strides": [1, 1], "pads": [1, 1, 1, 1]}, False),
    ((1, 2, 3, 3), 3, (5, 3), {"strides": [2, 3], "auto_pad": "SAME_UPPER"}, False),
    ((1, 2, 3, 3), 3, (5, 3), {"strides": [2, 3], "auto_pad": "SAME_LOWER"}, True),
    ((1, 2, 3, 4), 2, (3, 3), {"strides": [2, 2], "auto_pad": "VALID", "output_padding": [1, 0]}, False),
    ((1, 2, 3, 4), 2, (3, 3), {"strides": [2, 2], "output_shape": [6, 8]}, True),
    ((1, 2, 3, 4), 2, (3, 3), {"strides": [2, 2], "output_shape": [5, 7], "auto_pad": "SAME_UPPER"}, False),
    ((1, 3, 6), 2, (4,), {"strides": [2], "pads": [1, 2], "output_padding": [1]}, False),  # 1-D, SAME's padding
    ((1, 3, 5), 2, (3,), {"strides": [2], "pads": [2, 0]}, True),
    ((1, 1, 2, 2), 1, (1, 1), {"strides": [3, 3]}, False),  # zero rows between the inputs
]


@pytest.mark.parametrize(("input_shape", "out_channels", "kernel", "attributes", "cropped"), ONNX_CASES)
@pytest.mark.parametrize("with_bias", [True, False])
def test_onnx_conv_transpose_matches_onnxruntime(
    input_shape: tuple[int, ...],
    out_channels: int,
    kernel: tuple[int, ...],
    attributes: dict[str, object],
    cropped: bool,
    with_bias: bool,
) -> None:
    rng = np.random.default_rng([*input_shape, out_channels, *kernel, with_bias])
    weights = rng.standard_normal((input_shape[1], out_channels, *kernel)).astype(np.float32)
    bias = rng.standard_normal(out_channels).astype(np.float32) if with_bias else None
    model = onnx_conv_transpose(input_shape, weights, bias, **attributes)
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    op_types = [node.op_type for node in converted.nodes]
    assert "TRANSPOSE_CONV" in op_types
    assert ("STRIDED_SLICE" in op_types) == cropped, op_types
    values = rng.standard_normal(input_shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)
    if with_bias and cropped:
        # The converted graph (transposes, TRANSPOSE_CONV, STRIDED_SLICE) in C equals the reference.
        check_c_matches_reference(converted, context.operators, float_ulp_tolerance=0)


@pytest.mark.parametrize(
    ("attributes", "problem"),
    [
        ({"group": 2}, "group=2"),
        ({"dilations": [2, 2]}, "dilations=[2, 2]"),
        ({"strides": [1, 1], "pads": [3, 3, 3, 3]}, "an output of -2 from 3 inputs"),
    ],
)
def test_onnx_conv_transpose_refusals(attributes: dict[str, object], problem: str) -> None:
    weights = np.ones((2, 1, 2, 2), np.float32)
    model = onnx_conv_transpose((1, 2, 3, 3), weights, None, **attributes)
    with pytest.raises(UnsupportedOperatorError, match=re.escape(problem)):
        read_onnx_model(model, available_registry_context())
