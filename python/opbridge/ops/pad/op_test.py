# SPDX-License-Identifier: Apache-2.0
"""PAD, CONCATENATION and MEAN: reference == TFLite Micro, C == reference."""

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.mean.attributes import MeanAttributes

REGISTRY = available_operator_registry()


def draw_shape(data: st.DataObject, rank: int) -> tuple[int, ...]:
    return tuple(data.draw(st.integers(1, 5)) for _ in range(rank))


def draw_pad(data: st.DataObject) -> Graph:
    shape = draw_shape(data, data.draw(st.integers(1, 4)))
    paddings = np.array([[data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))] for _ in shape], np.int32)
    quantization = data.draw(strategies.per_tensor())
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, shape, quantization)
    p = builder.tensor("paddings", DType.INT32, (len(shape), 2), None, paddings)
    output_shape = tuple(int(d + before + after) for d, (before, after) in zip(shape, paddings, strict=True))
    y = builder.tensor("y", DType.INT8, output_shape, quantization)
    return builder.single_node_graph("PAD", [x, p], [y], None)


def draw_concatenation(data: st.DataObject) -> Graph:
    rank = data.draw(st.integers(1, 4))
    axis = data.draw(st.integers(-rank, rank - 1))
    base = draw_shape(data, rank)
    quantization = data.draw(strategies.per_tensor())
    builder = GraphBuilder()
    inputs = []
    for position in range(data.draw(st.integers(1, 3))):
        shape = tuple(data.draw(st.integers(1, 4)) if d == axis % rank else size for d, size in enumerate(base))
        inputs.append(builder.tensor(f"x{position}", DType.INT8, shape, quantization))
    total = sum(builder.tensors[i].shape[axis % rank] for i in inputs)
    output_shape = tuple(total if d == axis % rank else size for d, size in enumerate(base))
    y = builder.tensor("y", DType.INT8, output_shape, quantization)
    return builder.single_node_graph("CONCATENATION", inputs, [y], ConcatenationAttributes(axis=axis))


def draw_mean(data: st.DataObject) -> Graph:
    rank = data.draw(st.integers(1, 4))
    shape = draw_shape(data, rank)
    axes = sorted(data.draw(st.sets(st.integers(0, rank - 1), min_size=1)))
    keep_dims = data.draw(st.booleans())
    builder = GraphBuilder()
    x = builder.tensor("x", DType.INT8, shape, data.draw(strategies.per_tensor()))
    a = builder.tensor("axes", DType.INT32, (len(axes),), None, np.array(axes, dtype=np.int32))
    if keep_dims:
        output_shape = tuple(1 if d in axes else size for d, size in enumerate(shape))
    else:
        output_shape = tuple(size for d, size in enumerate(shape) if d not in axes) or (1,)
    y = builder.tensor("y", DType.INT8, output_shape, data.draw(strategies.per_tensor()))
    return builder.single_node_graph("MEAN", [x, a], [y], MeanAttributes(keep_dims=keep_dims))


DRAWS = {"PAD": draw_pad, "CONCATENATION": draw_concatenation, "MEAN": draw_mean}


def check_against_tflite_micro(graph: Graph) -> None:
    node = graph.nodes[0]
    if node.op_type == "PAD":
        check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.PAD, 2)
    elif node.op_type == "CONCATENATION":
        options = schema.ConcatenationOptionsT()
        options.axis = node.attributes.axis
        check_reference_matches_tflite_micro(
            graph, REGISTRY, schema.BuiltinOperator.CONCATENATION, 3,
            schema.BuiltinOptions.ConcatenationOptions, options,
        )  # fmt: skip
    else:
        options = schema.ReducerOptionsT()
        options.keepDims = node.attributes.keep_dims
        check_reference_matches_tflite_micro(
            graph, REGISTRY, schema.BuiltinOperator.MEAN, 2, schema.BuiltinOptions.ReducerOptions, options
        )


@settings(max_examples=25)
@given(st.data(), st.sampled_from(sorted(DRAWS)))
def test_reference_matches_tflite_micro(data: st.DataObject, op_type: str) -> None:
    check_against_tflite_micro(DRAWS[op_type](data))


@settings(max_examples=10)
@given(st.data(), st.sampled_from(sorted(DRAWS)))
def test_c_matches_reference(data: st.DataObject, op_type: str) -> None:
    check_c_matches_reference(DRAWS[op_type](data), REGISTRY)


# float32 PAD and PADV2 ----------------------------------------------------------

# PADV2 values that C constants can hold (finite), and the ones only TFLite Micro is checked with.
FINITE_PAD_VALUES = (0.0, -0.0, 1.5, -3.25, 1e-45, 3.4028235e38, -3.4028235e38)
NON_FINITE_PAD_VALUES = (np.inf, -np.inf, np.nan)


def draw_float32_pad(data: st.DataObject, max_rank: int, pad_values: tuple[float, ...]) -> Graph:
    """PAD (0.0), or PADV2 with a constant value from `pad_values` or a run-time one, on float32."""
    shape = draw_shape(data, data.draw(st.integers(1, max_rank)))
    paddings = np.array([[data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))] for _ in shape], np.int32)
    output_shape = tuple(int(d + before + after) for d, (before, after) in zip(shape, paddings, strict=True))
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, shape)
    p = builder.tensor("paddings", DType.INT32, (len(shape), 2), None, paddings)
    inputs = [x, p]
    op_type = data.draw(st.sampled_from(["PAD", "PADV2", "PADV2 at run time"]))
    if op_type == "PADV2":
        value = np.array([data.draw(st.sampled_from(pad_values))], np.float32)
        inputs.append(builder.tensor("constant_values", DType.FLOAT32, (1,), None, value))
    elif op_type == "PADV2 at run time":
        inputs.append(builder.tensor("constant_values", DType.FLOAT32, (1,)))
    y = builder.tensor("y", DType.FLOAT32, output_shape)
    return builder.single_node_graph(op_type.split()[0], inputs, [y], None)


@settings(max_examples=30)
@given(st.data())
def test_float32_pad_reference_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_float32_pad(data, 4, FINITE_PAD_VALUES + NON_FINITE_PAD_VALUES)
    code = schema.BuiltinOperator.PAD if graph.nodes[0].op_type == "PAD" else schema.BuiltinOperator.PADV2
    check_reference_matches_tflite_micro(graph, REGISTRY, code, 1)


@settings(max_examples=12)
@given(st.data())
def test_float32_pad_c_kernel_equals_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_float32_pad(data, 6, FINITE_PAD_VALUES), REGISTRY, float_ulp_tolerance=0)
