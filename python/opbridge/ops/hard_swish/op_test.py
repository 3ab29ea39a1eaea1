# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH: reference == TFLite Micro bit for bit (int8 on drawn input and output quantizations, every int8
value, the multipliers' extremes; float32 on drawn and edge values), C kernel == reference bit for bit (both
dtypes), the quantizations TFLite Micro's Prepare refuses are refused, and ONNX HardSwish converts to it and
stays within onnxruntime's float32 rounding (see onnx.py).

The drawn int8 quantizations span output scales from just above input_scale / 128 (TFLite Micro's limit: an
output multiplier below 1) to 4096 times the input scale, so that the output exponent reaches -16 and beyond,
where gemmlowp's int16 RoundingDivideByPOT no longer rounds (test_tiny_output_multipliers_keep_tflite_micros_shift),
and input scales from 2^-17 (a reluish right shift) to 16 (a reluish left shift that saturates); fixed cases
reach further (reluish exponents -23 and 28, a multiplier flushed to 0, the saturated 32767).
"""

import math
import re

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from onnx import TensorProto, helper
from opbridge_testing import strategies
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)
from opbridge_testing.tflm import run_tflite_micro

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedTensorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.hard_swish.reference import float32_hard_swish, hard_swish_parameters

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.HARD_SWISH
VERSION = 1
EVERY_INT8 = np.arange(-128, 128, dtype=np.int8)
# Scales as mantissa * 2^exponent with the exponent drawn as an integer, so that every multiplier exponent is
# reached as often as any other (hypothesis's floats favour a few simple values): input scales from 2^-17 to
# 2^4 (reluish exponents from -10 to 11), output / input ratios from 2^-7 (TFLite Micro needs them above 1/128;
# float32 rounding decides at 1/128) to 2^12 (output exponents from 0 to -18).
INPUT_SCALE_EXPONENTS = st.integers(-17, 3)
SCALE_RATIO_EXPONENTS = st.integers(-7, 11)
MANTISSAS = st.floats(1.0, 2.0, exclude_max=True)
# float32 values around the function's corners: -3 and 3 (where the gate saturates), 0, and FLT_MAX / 6 (above
# which x * 6 overflows to inf before the division by 6).
CORNER_VALUES = np.array(
    [
        *(-3.0, 3.0, -2.9999998, -3.0000002, 2.9999998, 3.0000002, 1.0, -1.0, 0.1, -0.1, 2.5, -2.5),
        *(5.6713e37, 5.6714e37, -5.6714e37, 1e-40, -1e-40, 4e-45, -4e-45, 1e30, -1e30, 7.0, -7.0, 1e-20),
    ],
    dtype=np.float32,
)
# A float32 whose x * (x + 3) / 6 rounds differently from x * ((x + 3) / 6) and from x * (x + 3) * (1 / 6).
DIVISION_ORDER_WITNESS = 0.883137047290802


def int8_quantizations(data: st.DataObject) -> tuple[Quantization, Quantization]:
    """Input and output quantizations TFLite Micro accepts: output scale above input_scale / 128."""
    input_scale = float(np.float32(math.ldexp(data.draw(MANTISSAS), data.draw(INPUT_SCALE_EXPONENTS))))
    ratio = math.ldexp(data.draw(MANTISSAS), data.draw(SCALE_RATIO_EXPONENTS))
    output_scale = float(np.float32(input_scale * ratio))
    zero_points = data.draw(strategies.ZERO_POINTS), data.draw(strategies.ZERO_POINTS)
    return Quantization((input_scale,), (zero_points[0],)), Quantization((output_scale,), (zero_points[1],))


def hard_swish_graph(
    shape: tuple[int, ...], dtype: DType, quantizations: tuple[Quantization | None, Quantization | None] = (None, None)
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantizations[0])
    y = builder.tensor("y", dtype, shape, quantizations[1])
    return builder.single_node_graph("HARD_SWISH", [x], [y], None)


def accepted(graph: Graph) -> bool:
    """Whether the int8 node's quantization is one TFLite Micro's Prepare takes (and the reference)."""
    try:
        hard_swish_parameters(graph.nodes[0], graph.tensors[0], graph.tensors[1])
    except UnsupportedTensorError:
        return False
    return True


def draw_int8_graph(data: st.DataObject, shape: tuple[int, ...] | None = None) -> Graph:
    if shape is None:
        shape = data.draw(array_shapes(min_dims=1, max_dims=4, max_side=6))
    graph = hard_swish_graph(shape, DType.INT8, int8_quantizations(data))
    assume(accepted(graph))
    return graph


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None, cases: int = 3) -> None:
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, VERSION, cases=cases, inputs=inputs)


def with_every_value(
    values: np.ndarray, dtype: DType, quantizations: tuple[Quantization | None, Quantization | None] = (None, None)
) -> Graph:
    """CONCATENATION(x, constant `values`) -> HARD_SWISH: the golden program's seeded x, then every value given
    (x, the constant and their concatenation share the input's quantization, as TFLite's CONCATENATION needs)."""
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, (4,), quantizations[0])
    constant = builder.tensor("values", dtype, values.shape, quantizations[0], values)
    joined = builder.tensor("joined", dtype, (4 + values.size,), quantizations[0])
    y = builder.tensor("y", dtype, (4 + values.size,), quantizations[1])
    nodes = [
        Node(0, "join", "CONCATENATION", [x, constant], [joined], ConcatenationAttributes(axis=0)),
        Node(1, "under_test", "HARD_SWISH", [joined], [y], None),
    ]
    return Graph("every_value", builder.tensors, nodes, [x], [y])


# -- int8 ------------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_int8_graph(data))


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_every_int8_value_matches_tflite_micro(data: st.DataObject) -> None:
    graph = draw_int8_graph(data, shape=(2, 128))
    check_against_tflite_micro(graph, inputs=[[EVERY_INT8.reshape(2, 128)]])


@pytest.mark.parametrize(
    ("input_scale", "output_scale"),
    [
        (0.02, 0.02 / 128 * 1.0000001),  # the largest output multiplier: 32767 (saturated), exponent 0
        (1e-9, 1e-10),  # reluish exponent -23: RoundingDivideByPOT past 15 bits
        (1e-7, 1e-9),  # reluish exponent -16
        (1e4, 100.0),  # reluish exponent 20: the saturating left shifts
        (3e6, 1e5),  # reluish exponent 28
        (1e-3, 1e8),  # output multiplier below 2^-31: flushed to 0
        (0.05, 0.05),  # equal scales
        (6.0 / 128, 6.0 / 128),  # the common [-6, 6) -> [-6, 6) quantization
    ],
)
@pytest.mark.parametrize("zero_points", [(0, 0), (-128, 127), (127, -128), (-5, 30)])
def test_extreme_multipliers_match_tflite_micro(
    input_scale: float, output_scale: float, zero_points: tuple[int, int]
) -> None:
    quantizations = (
        Quantization((float(np.float32(input_scale)),), (zero_points[0],)),
        Quantization((float(np.float32(output_scale)),), (zero_points[1],)),
    )
    graph = hard_swish_graph((256,), DType.INT8, quantizations)
    check_against_tflite_micro(graph, inputs=[[EVERY_INT8]])


def test_tiny_output_multipliers_keep_tflite_micros_shift() -> None:
    """An output multiplier below 2^-16: gemmlowp's RoundingDivideByPOT on int16 cuts its mask to 16 bits, so
    every gated value >= 0 becomes 1 and every one below -1, not 0: x <= -3 (gate 0) gives zero point + 1."""
    quantizations = (Quantization((0.05,), (0,)), Quantization((1000.0,), (4,)))
    graph = hard_swish_graph((256,), DType.INT8, quantizations)
    p = hard_swish_parameters(graph.nodes[0], graph.tensors[0], graph.tensors[1])
    assert p.output_exponent <= -16
    (ours,) = ReferenceInterpreter(graph, REGISTRY).run([EVERY_INT8])
    assert set(ours.tolist()) == {3, 5}  # -1 below 0 (x in (-3, 0)), +1 elsewhere
    check_against_tflite_micro(graph, inputs=[[EVERY_INT8]])


@pytest.mark.parametrize(
    ("input_scale", "output_scale"), [(0.5, 0.001), (1.0, 1.0 / 128 * 0.99999), (0.02, 0.02 / 128 * 0.9999999)]
)
def test_output_scales_tflite_micro_refuses_are_refused(input_scale: float, output_scale: float) -> None:
    quantizations = (Quantization((input_scale,), (0,)), Quantization((output_scale,), (0,)))
    graph = hard_swish_graph((4,), DType.INT8, quantizations)
    with pytest.raises(UnsupportedTensorError, match=re.escape("input_scale / 128 / output_scale below 1")):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros(4, np.int8)])
    with pytest.raises(RuntimeError, match="allocate"):  # its Prepare fails
        run_tflite_micro(single_op_model(graph, CODE, VERSION), [np.zeros(4, np.int8)], 1)


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    check_c_matches_reference(draw_int8_graph(data), REGISTRY)


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_c_kernel_matches_reference_on_every_int8_value(data: st.DataObject) -> None:
    quantizations = int8_quantizations(data)
    assume(accepted(hard_swish_graph((1,), DType.INT8, quantizations)))
    check_c_matches_reference(with_every_value(EVERY_INT8, DType.INT8, quantizations), REGISTRY)


@pytest.mark.parametrize(("input_scale", "output_scale"), [(1e-9, 1e-10), (1e4, 100.0), (0.01, 1000.0), (1e-3, 1e8)])
def test_c_kernel_matches_reference_at_extreme_multipliers(input_scale: float, output_scale: float) -> None:
    quantizations = (Quantization((input_scale,), (-7,)), Quantization((output_scale,), (9,)))
    check_c_matches_reference(with_every_value(EVERY_INT8, DType.INT8, quantizations), REGISTRY)


# -- float32 ---------------------------------------------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6))
def test_float32_reference_matches_tflite_micro(shape: tuple[int, ...]) -> None:
    check_against_tflite_micro(hard_swish_graph(shape, DType.FLOAT32), cases=4)


@settings(max_examples=15, deadline=None)
@given(
    arrays(
        np.float32,
        array_shapes(min_dims=1, max_dims=3, max_side=8),
        elements=st.one_of(st.floats(width=32), st.floats(-4.0, 4.0, width=32)),
    )
)
def test_float32_drawn_values_match_tflite_micro(values: np.ndarray) -> None:
    check_against_tflite_micro(hard_swish_graph(values.shape, DType.FLOAT32), inputs=[[values]])


def test_float32_edge_values_match_tflite_micro() -> None:
    # NaN stays NaN, -inf gives NaN (-inf * 0), +inf and the values above FLT_MAX / 6 give inf, -0.0 stays -0.0.
    values = np.concatenate([FLOAT32_EDGE_VALUES, CORNER_VALUES])
    graph = hard_swish_graph(values.shape, DType.FLOAT32)
    check_against_tflite_micro(graph, inputs=[[values], [-values]])


def test_float32_divides_the_product_by_six() -> None:
    # (x * 6) / 6 overflows above FLT_MAX / 6 where x * (6 / 6) would not; and x * gate / 6 is rounded twice,
    # x * (gate / 6) or x * gate * (1 / 6) elsewhere: TFLite Micro's order is the first (checked against it above).
    assert float32_hard_swish(np.array([3.0e38], np.float32))[0] == np.inf
    x = np.float32(DIVISION_ORDER_WITNESS)
    gate = x + np.float32(3.0)
    assert float32_hard_swish(np.array([x]))[0] == (x * gate) / np.float32(6.0)
    assert (x * gate) / np.float32(6.0) != x * (gate / np.float32(6.0))
    assert (x * gate) / np.float32(6.0) != (x * gate) * np.float32(1.0 / 6.0)


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6))
def test_float32_c_kernel_matches_reference_exactly(shape: tuple[int, ...]) -> None:
    check_c_matches_reference(hard_swish_graph(shape, DType.FLOAT32), REGISTRY, float_ulp_tolerance=0)


def test_float32_c_kernel_matches_reference_on_wide_and_edge_values() -> None:
    rng = np.random.default_rng(11)
    values = np.concatenate(
        [
            FLOAT32_EDGE_VALUES,
            -FLOAT32_EDGE_VALUES,
            CORNER_VALUES,
            -CORNER_VALUES,
            rng.uniform(-4.0, 4.0, 200).astype(np.float32),
            (rng.standard_normal(32) * np.exp(rng.uniform(-80, 80, 32))).astype(np.float32),
        ]
    )
    # -inf gives -inf * 0, the platform's default NaN (negative on x86, positive on Arm), whose sign the golden
    # program cannot check: it writes every expected NaN as __builtin_nanf(""). The reference's NaN for -inf
    # is compared with TFLite Micro's bit for bit in test_float32_edge_values_match_tflite_micro.
    values = values[values != -np.inf]
    graph = with_every_value(values, DType.FLOAT32)
    check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=0)


# -- ONNX ------------------------------------------------------------------------------------------------


def onnx_hard_swish_model(shape: list[int]) -> bytes:
    node = helper.make_node("HardSwish", ["x"], ["y"], name="hard_swish")
    graph = helper.make_graph(
        [node],
        "hard_swish",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_onnx_hard_swish_converts_to_hard_swish_within_onnxruntimes_rounding() -> None:
    model = onnx_hard_swish_model([4, 100])
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["HARD_SWISH"]
    rng = np.random.default_rng(5)
    values = rng.uniform(-8.0, 8.0, (4, 100)).astype(np.float32)
    values[0, :12] = [-3.0, 3.0, -2.9999998, 2.9999998, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -6.0, 6.0]
    values[1] = rng.uniform(-3.0, 3.0, 100).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run([values])
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": values})
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6)  # NaN equal to NaN
    # Where the gate is 0 or 1 both compute x * 0 or x (up to an ulp of x * 6 / 6): equal or one ulp apart.
    outside = ~((values > -3.0) & (values < 3.0)) & np.isfinite(values)
    gap = np.abs(ours[outside].view(np.int32).astype(np.int64) - theirs[outside].view(np.int32).astype(np.int64))
    assert gap.max() <= 1
    np.testing.assert_array_equal(ours[values <= -3.0], theirs[values <= -3.0])


def test_onnx_hard_swish_c_matches_reference() -> None:
    converted = read_onnx_model(onnx_hard_swish_model([2, 3, 7]), available_registry_context())
    check_c_matches_reference(converted, REGISTRY, float_ulp_tolerance=0)
