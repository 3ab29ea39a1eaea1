# SPDX-License-Identifier: Apache-2.0
"""The op tests RELU and RELU6 share, and those LOGISTIC and TANH share (ops/<op>/op_test.py): int8 on drawn
input quantization and float32 on drawn shapes, and float32 on FLOAT32_EDGE_VALUES: reference == TFLite Micro,
C kernel == reference.

RELU and RELU6 only compare, so their float32 outputs equal TFLite Micro's and the C kernel's bit for bit.
LOGISTIC and TANH call libm (expf, tanhf), which may round an ulp or two away from the reference's
float64-then-float32 exp and tanh: their float32 outputs are compared with TFLite Micro within LIBM_RTOL (about
8 ulps) and with the C kernel within LIBM_ULPS, not bit for bit.
"""

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes
from opbridge.ir import DType, Graph, Quantization

from opbridge_testing import strategies
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

REGISTRY = available_operator_registry()
LIBM_RTOL = 1e-6
LIBM_ULPS = 4


def unary_graph(
    op_type: str,
    dtype: DType,
    shape: tuple[int, ...],
    input_quantization: Quantization | None = None,
    output_quantization: Quantization | None = None,
) -> Graph:
    """One `op_type` node from input x to output y, both `dtype` and `shape`."""
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, input_quantization)
    y = builder.tensor("y", dtype, shape, output_quantization)
    return builder.single_node_graph(op_type, [x], [y], None)


def relu_tests(op_type: str, builtin_code: int) -> tuple[Callable[..., None], ...]:
    """The five test functions of RELU or RELU6, for the op's op_test.py to bind by name.

    int8 RELU requantizes to a drawn output quantization; RELU6 keeps the input's (as TFLite's does).
    On the float32 edge values NaN and -0.0 pass through (x < 0 is false for both) and infinities clamp.
    """

    def int8_graph(data: st.DataObject) -> Graph:
        shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
        input_quantization = data.draw(strategies.per_tensor(0.005, 0.5))
        keeps_input = op_type == "RELU6"  # TFLite's RELU6 keeps the input's quantization
        output_quantization = input_quantization if keeps_input else data.draw(strategies.per_tensor(0.005, 0.5))
        return unary_graph(op_type, DType.INT8, shape, input_quantization, output_quantization)

    @settings(max_examples=5)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_reference_matches_tflite_micro(int8_graph(data), REGISTRY, builtin_code, 2)

    @settings(max_examples=3)
    @given(st.data())
    def test_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(int8_graph(data), REGISTRY)

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        *float32_tests(op_type, builtin_code, cases=3, float_rtol=None, float_ulps=0),
    )


def logistic_tanh_tests(
    op_type: str, builtin_code: int, output_quantization: Quantization
) -> tuple[Callable[..., None], ...]:
    """The five test functions of LOGISTIC or TANH, for the op's op_test.py to bind by name.

    int8 outputs have the fixed quantization TFLite requires of the op (`output_quantization`).
    The float32 edge values include the LOGISTIC cut-offs (16.619047, -9) from both sides.
    """

    def int8_graph(data: st.DataObject) -> Graph:
        shape = data.draw(array_shapes(min_dims=1, max_dims=3, max_side=6))
        input_quantization = data.draw(strategies.per_tensor(0.002, 0.5))
        return unary_graph(op_type, DType.INT8, shape, input_quantization, output_quantization)

    @settings(max_examples=15)
    @given(st.data())
    def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
        check_reference_matches_tflite_micro(int8_graph(data), REGISTRY, builtin_code, 2, cases=4)

    @settings(max_examples=5)
    @given(st.data())
    def test_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(int8_graph(data), REGISTRY)

    return (
        test_reference_matches_tflite_micro,
        test_c_kernel_matches_reference,
        *float32_tests(op_type, builtin_code, cases=4, float_rtol=LIBM_RTOL, float_ulps=LIBM_ULPS),
    )


def float32_tests(
    op_type: str, builtin_code: int, cases: int, float_rtol: float | None, float_ulps: int
) -> tuple[Callable[..., None], ...]:
    """The float32 tests of a unary activation: against TFLite Micro within `float_rtol` (None: bit for bit) on
    `cases` seeded inputs per drawn shape and on the edge values, and against the C kernel within `float_ulps`."""

    def float32_graph(data: st.DataObject) -> Graph:
        return unary_graph(op_type, DType.FLOAT32, data.draw(array_shapes(min_dims=1, max_dims=4, max_side=6)))

    @settings(max_examples=5)
    @given(st.data())
    def test_float32_reference_matches_tflite_micro(data: st.DataObject) -> None:
        graph = float32_graph(data)
        check_reference_matches_tflite_micro(graph, REGISTRY, builtin_code, 1, cases=cases, float_rtol=float_rtol)

    @settings(max_examples=3)
    @given(st.data())
    def test_float32_c_kernel_matches_reference(data: st.DataObject) -> None:
        check_c_matches_reference(float32_graph(data), REGISTRY, float_ulp_tolerance=float_ulps)

    def test_float32_edge_values_match_tflite_micro() -> None:
        graph = unary_graph(op_type, DType.FLOAT32, FLOAT32_EDGE_VALUES.shape)
        check_reference_matches_tflite_micro(
            graph,
            REGISTRY,
            builtin_code,
            1,
            float_rtol=float_rtol,
            inputs=[[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]],
        )

    return (
        test_float32_reference_matches_tflite_micro,
        test_float32_c_kernel_matches_reference,
        test_float32_edge_values_match_tflite_micro,
    )
