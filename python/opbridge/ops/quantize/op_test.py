# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE on every (input, output) pair TFLite Micro's QUANTIZE runs (float32 -> int8 or int16; int8 -> int8, uint8,
int16 or int32; uint8 -> int8; int16 -> int8, int16 or int32; int32 -> int8 or int16), on drawn shapes and
quantization: reference == TFLite Micro, C kernel == reference; and with ONNX's rounding (float32 -> int8 or int16,
halves to even; its int8 reference is checked against onnxruntime's QuantizeLinear in tests/onnx/qlinear_ops_test.py):
C kernel == reference. Every other pair is refused by the schema and by the LiteRT reader, naming the node, the pair
and the supported pairs.

int16 tensors are quantized as TFLite's converter quantizes 16x8 activations: symmetric, zero point 0, one scale
(smaller than int8's for the same range); int8 and uint8 tensors per tensor with any zero point; int32 tensors with
small scales (an int32 input holds accumulator-like values over its whole range, an int32 output gets a finer scale
than its int8 or int16 input) and small zero points."""

import flatbuffers
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge_testing import strategies
from opbridge_testing.kernel_case_builders import int32_quantization
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import GraphBuilder, check_c_matches_reference, check_reference_matches_tflite_micro

from opbridge.aot.definition_registration import as_registry_context
from opbridge.errors import ModelFormatError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.quantize.schema import QUANTIZE_PAIRS
from opbridge.schemas.schema import InferenceContext, InputInfo, ShapeInferenceError

REGISTRY = available_operator_registry()
PATHS = st.sampled_from(QUANTIZE_PAIRS)
# Pairs both type constraints allow that TFLite Micro's QUANTIZE does not run.
REFUSED = [(DType.FLOAT32, DType.INT32), (DType.INT32, DType.INT32), (DType.UINT8, DType.UINT8)]


def quantization(data: st.DataObject, dtype: DType, role: str) -> Quantization:
    if dtype is DType.INT16:
        return data.draw(strategies.int16_symmetric())
    if dtype is DType.INT32:
        return int32_quantization(
            role,
            lambda low, high: data.draw(strategies.scales(low, high)),
            lambda low, high: data.draw(st.integers(low, high)),
        )
    if dtype is DType.UINT8:
        return Quantization((data.draw(strategies.scales(0.005, 0.5)),), (data.draw(st.integers(0, 255)),))
    return data.draw(strategies.per_tensor(0.005, 0.5))


def draw_graph(data: st.DataObject, path: tuple[DType, DType], requantization: Requantization) -> Graph:
    """A drawn QUANTIZE node from path[0] (quantized ones: drawn quantization) to path[1] (drawn quantization)."""
    source, target = path
    shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
    builder = GraphBuilder()
    input_q = None if source is DType.FLOAT32 else quantization(data, source, "input")
    x = builder.tensor("x", source, shape, input_q)
    y = builder.tensor("y", target, shape, quantization(data, target, "output"))
    return builder.single_node_graph("QUANTIZE", [x], [y], QuantizeAttributes(requantization, output_dtype=target))


@settings(max_examples=24)
@given(st.data(), PATHS)
def test_reference_matches_tflite_micro(data: st.DataObject, path: tuple[DType, DType]) -> None:
    graph = draw_graph(data, path, Requantization.TFLITE)
    # TFLite's QUANTIZE versions: 2 for an int16 output, else 1.
    version = 2 if path[1] is DType.INT16 else 1
    check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.QUANTIZE, version)


@pytest.mark.parametrize("path", QUANTIZE_PAIRS, ids=lambda path: f"{path[0].value}_to_{path[1].value}")
def test_each_pair_matches_tflite_micro(path: tuple[DType, DType]) -> None:
    """Every pair at least once (the drawn test above samples them)."""

    @settings(max_examples=2, database=None)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        graph = draw_graph(data, path, Requantization.TFLITE)
        version = 2 if path[1] is DType.INT16 else 1
        check_reference_matches_tflite_micro(graph, REGISTRY, schema.BuiltinOperator.QUANTIZE, version)
        check_c_matches_reference(graph, REGISTRY)

    check()


@settings(max_examples=12)
@given(st.data(), PATHS)
def test_c_kernel_matches_reference(data: st.DataObject, path: tuple[DType, DType]) -> None:
    check_c_matches_reference(draw_graph(data, path, Requantization.TFLITE), REGISTRY)


@settings(max_examples=4)
@given(st.data(), st.sampled_from([DType.INT8, DType.INT16]))
def test_onnx_rounding_c_kernel_matches_reference(data: st.DataObject, target: DType) -> None:
    check_c_matches_reference(draw_graph(data, (DType.FLOAT32, target), Requantization.ONNX), REGISTRY)


@pytest.mark.parametrize("path", REFUSED, ids=lambda path: f"{path[0].value}_to_{path[1].value}")
def test_other_pairs_are_refused_by_the_schema(path: tuple[DType, DType]) -> None:
    schema_ = REGISTRY["QUANTIZE"].schema
    assert schema_ is not None
    context = InferenceContext("QUANTIZE node q", [InputInfo(path[0], (2,))], QuantizeAttributes(output_dtype=path[1]))
    pair = f"QUANTIZE from {path[0].value} to {path[1].value} is not supported"
    with pytest.raises(ShapeInferenceError, match=f"QUANTIZE node q: {pair}") as error:
        schema_.infer(context)
    assert "int16 -> int8, int16 or int32" in error.value.hint


@pytest.mark.parametrize("path", REFUSED, ids=lambda path: f"{path[0].value}_to_{path[1].value}")
def test_other_pairs_are_refused_when_the_model_is_read(path: tuple[DType, DType]) -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", path[0], (3,), None if path[0] is DType.FLOAT32 else Quantization((0.5,), (0,)))
    y = builder.tensor("y", path[1], (3,), Quantization((0.25,), (0,)))
    graph = builder.single_node_graph("QUANTIZE", [x], [y], QuantizeAttributes(output_dtype=path[1]))
    model = single_op_model(graph, schema.BuiltinOperator.QUANTIZE, 1)
    with pytest.raises(UnsupportedTensorError) as error:
        read_litert_model(model, as_registry_context(REGISTRY), "refused.tflite")
    message = str(error.value)
    assert f"node 0 (QUANTIZE): QUANTIZE from {path[0].value} to {path[1].value} is not supported" in message
    assert "int8 -> int8, uint8, int16 or int32" in message


@pytest.mark.parametrize(
    ("inputs", "problem"),
    [([], "QUANTIZE has no input"), ([-1], r"QUANTIZE's input is omitted \(tensor index -1\)")],
    ids=["empty", "omitted"],
)
def test_a_missing_input_is_refused_when_the_model_is_read(inputs: list[int], problem: str) -> None:
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, (3,))
    y = builder.tensor("y", DType.INT8, (3,), Quantization((0.25,), (0,)))
    graph = builder.single_node_graph("QUANTIZE", [x], [y], QuantizeAttributes(output_dtype=DType.INT8))
    # The operator's input list rewritten in the packed model.
    model = schema.ModelT.InitFromPackedBuf(single_op_model(graph, schema.BuiltinOperator.QUANTIZE, 1), 0)
    model.subgraphs[0].operators[0].inputs = inputs
    packed = flatbuffers.Builder(1024)
    packed.Finish(model.Pack(packed), file_identifier=b"TFL3")
    with pytest.raises(ModelFormatError, match=rf"node 0 \(QUANTIZE\).*{problem}") as error:
        read_litert_model(bytes(packed.Output()), as_registry_context(REGISTRY), "missing_input.tflite")
    assert "takes one input tensor" in error.value.hint
