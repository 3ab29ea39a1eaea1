# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE, float32 -> int8 or int16, and int8/int16 -> int8/int16 (requantize), on drawn shapes and quantization:
reference == TFLite Micro, C kernel == reference; and with ONNX's rounding (float32 -> int8 or int16, halves to even;
its int8 reference is checked against onnxruntime's QuantizeLinear in tests/onnx/qlinear_ops_test.py): C kernel ==
reference.

int16 tensors are quantized as TFLite's converter quantizes 16x8 activations: symmetric, zero point 0, one scale
(smaller than int8's for the same range); int8 tensors per tensor with any zero point."""

import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.schemas.schema import InferenceContext, InputInfo, ShapeInferenceError

REGISTRY = available_operator_registry()
# Every (input, output) pair TFLite Micro's QUANTIZE takes among float32, int8 and int16 (all but float32 -> float32).
PATHS = st.sampled_from(
    [
        (DType.FLOAT32, DType.INT8),
        (DType.INT8, DType.INT8),
        (DType.FLOAT32, DType.INT16),
        (DType.INT8, DType.INT16),
        (DType.INT16, DType.INT8),
        (DType.INT16, DType.INT16),
    ]
)


def quantization(data: st.DataObject, dtype: DType) -> Quantization:
    if dtype is DType.INT16:
        return data.draw(strategies.int16_symmetric())
    return data.draw(strategies.per_tensor(0.005, 0.5))


def draw_graph(data: st.DataObject, path: tuple[DType, DType], requantization: Requantization) -> Graph:
    """A drawn QUANTIZE node from path[0] (quantized ones: drawn quantization) to path[1] (drawn quantization)."""
    source, target = path
    shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
    builder = GraphBuilder()
    x = builder.tensor("x", source, shape, None if source is DType.FLOAT32 else quantization(data, source))
    y = builder.tensor("y", target, shape, quantization(data, target))
    return builder.single_node_graph("QUANTIZE", [x], [y], QuantizeAttributes(requantization, output_dtype=target))


@settings(max_examples=16)
@given(st.data(), PATHS)
def test_reference_matches_tflite_micro(data: st.DataObject, path: tuple[DType, DType]) -> None:
    graph = draw_graph(data, path, Requantization.TFLITE)
    # TFLite's QUANTIZE versions: 2 for an int16 output, else 1.
    version = 2 if path[1] is DType.INT16 else 1
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.QUANTIZE, version)


@settings(max_examples=8)
@given(st.data(), PATHS)
def test_c_kernel_matches_reference(data: st.DataObject, path: tuple[DType, DType]) -> None:
    check_c_matches_reference(draw_graph(data, path, Requantization.TFLITE), REGISTRY)


@settings(max_examples=4)
@given(st.data(), st.sampled_from([DType.INT8, DType.INT16]))
def test_onnx_rounding_c_kernel_matches_reference(data: st.DataObject, target: DType) -> None:
    check_c_matches_reference(draw_graph(data, (DType.FLOAT32, target), Requantization.ONNX), REGISTRY)


def test_quantize_to_int32_is_refused_by_the_schema() -> None:
    schema_ = REGISTRY["QUANTIZE"].schema
    assert schema_ is not None
    context = InferenceContext(
        "QUANTIZE node q", [InputInfo(DType.FLOAT32, (2,))], QuantizeAttributes(output_dtype=DType.INT32)
    )
    with pytest.raises(ShapeInferenceError, match="QUANTIZE node q: QUANTIZE to int32 is not supported"):
        schema_.infer(context)
