# SPDX-License-Identifier: Apache-2.0
"""ELU (float32): reference == TFLite Micro within an ulp (seeded and drawn values, the edge values bit for
bit), C kernel == reference within C_ULPS on drawn shapes and alphas, ONNX Elu (several alphas) and Selu
(ELU then MUL; default and custom alpha and gamma) converted == onnxruntime; int8 is refused by the schema.

TFLite Micro and the C kernel call libm's expm1f; the reference rounds a float64 expm1 once. Over every
negative float32, glibc 2.36's expm1f differs from it on 0.22% of inputs, by one ulp, never more (see
reference.py): so TFLite Micro is compared within one ulp (FLOAT_RTOL = 2**-23 relative). A one-ulp expm1
becomes at most two ulps once multiplied by an alpha other than 1 (alpha's mantissa can double the gap
measured in the product's ulps), hence C_ULPS = 2: checked over every float32, the C kernel is within one
ulp of the reference for alpha 1 (TFLite Micro's) and within two for Selu's alpha (two on 0.007% of inputs).
"""

import dataclasses

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, arrays
from onnx import TensorProto, helper
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.concatenation.attributes import ConcatenationAttributes
from opbridge.ops.elu.attributes import EluAttributes
from opbridge.ops.elu.onnx import SELU_ALPHA, SELU_GAMMA

# Operators its graphs gain in conversion (tests/architecture/operator_deps.py):
# ONNX's Selu converts to ELU and MUL, shapes through RESHAPE.
USES_OPERATORS = ("mul", "reshape")

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.ELU
FLOAT_RTOL = 2.0**-23
C_ULPS = 2
ALPHAS = st.one_of(st.sampled_from([1.0, 0.1, 0.5, 2.0, SELU_ALPHA, -0.7]), st.floats(-3.0, 3.0, width=32)).map(
    lambda alpha: float(np.float32(alpha))
)
# Every float32 class, the range where expm1 is neither -1 nor x, and values near 0 (where exp(x) - 1 would
# lose its low bits and expm1 does not).
DRAWN_VALUES = arrays(
    np.float32,
    array_shapes(min_dims=1, max_dims=4, max_side=6),
    elements=st.one_of(
        st.floats(width=32), st.floats(-20.0, 5.0, width=32), st.floats(-(2.0**-17), 2.0**-17, width=32)
    ),
)


def elu_graph(shape: tuple[int, ...], alpha: float = 1.0, dtype: DType = DType.FLOAT32) -> Graph:
    quantization = Quantization((0.05,), (0,)) if dtype is DType.INT8 else None
    builder = GraphBuilder()
    x = builder.tensor("x", dtype, shape, quantization)
    y = builder.tensor("y", dtype, shape, quantization)
    return builder.single_node_graph("ELU", [x], [y], EluAttributes(alpha=alpha))


def check_against_tflite_micro(
    graph: Graph, inputs: list[list[np.ndarray]] | None = None, float_rtol: float | None = FLOAT_RTOL
) -> None:
    # TFLite's ELU has no options table: version 1 (float32), alpha 1.
    check_reference_matches_tflite_micro(graph, REGISTRY, CODE, 1, cases=4, float_rtol=float_rtol, inputs=inputs)


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6))
def test_reference_matches_tflite_micro(shape: tuple[int, ...]) -> None:
    check_against_tflite_micro(elu_graph(shape))


@settings(max_examples=10, deadline=None)
@given(DRAWN_VALUES)
def test_drawn_values_match_tflite_micro(values: np.ndarray) -> None:
    check_against_tflite_micro(elu_graph(values.shape), inputs=[[values]])


def test_edge_values_match_tflite_micro_bit_for_bit() -> None:
    # NaN and -0.0 pass through (x < 0 is false), -inf gives -1, the large negatives -1; no libm rounding
    # differs on these, so the bits (and the signs of zeros) are compared.
    graph = elu_graph(FLOAT32_EDGE_VALUES.shape)
    check_against_tflite_micro(graph, inputs=[[FLOAT32_EDGE_VALUES], [-FLOAT32_EDGE_VALUES]], float_rtol=None)


@settings(max_examples=6, deadline=None)
@given(array_shapes(min_dims=1, max_dims=4, max_side=6), ALPHAS)
def test_c_kernel_matches_reference(shape: tuple[int, ...], alpha: float) -> None:
    check_c_matches_reference(elu_graph(shape, alpha), REGISTRY, float_ulp_tolerance=C_ULPS)


def wide_values_graph(alpha: float) -> Graph:
    """CONCATENATION(x, constant edge and wide values) -> ELU: the golden program's seeded x, then values
    over the whole range, near 0 and at the edges (infinities, NaN, signed zeros, subnormals)."""
    rng = np.random.default_rng(5)
    constant_values = np.concatenate(
        [
            FLOAT32_EDGE_VALUES,
            -FLOAT32_EDGE_VALUES,
            rng.uniform(-20.0, 2.0, 96).astype(np.float32),
            rng.uniform(-1e-5, 1e-5, 32).astype(np.float32),
            -np.exp(rng.uniform(-100.0, 88.0, 32)).astype(np.float32),
        ]
    )
    builder = GraphBuilder()
    x = builder.tensor("x", DType.FLOAT32, (4,))
    constant = builder.tensor("values", DType.FLOAT32, constant_values.shape, data=constant_values)
    joined = builder.tensor("joined", DType.FLOAT32, (4 + constant_values.size,))
    y = builder.tensor("y", DType.FLOAT32, (4 + constant_values.size,))
    nodes = [
        Node(0, "join", "CONCATENATION", [x, constant], [joined], ConcatenationAttributes(axis=0)),
        Node(1, "under_test", "ELU", [joined], [y], EluAttributes(alpha=alpha)),
    ]
    return Graph("wide_values", builder.tensors, nodes, [x], [y])


@pytest.mark.parametrize("alpha", [1.0, SELU_ALPHA, -0.25])
def test_c_kernel_matches_reference_on_wide_and_edge_values(alpha: float) -> None:
    check_c_matches_reference(wide_values_graph(alpha), REGISTRY, float_ulp_tolerance=C_ULPS)


def test_int8_is_refused_by_the_schema() -> None:
    with pytest.raises(OpbridgeError, match="int8"):
        ReferenceInterpreter(elu_graph((2, 3), dtype=DType.INT8), REGISTRY).run([np.zeros((2, 3), np.int8)])


def onnx_values(shape: tuple[int, ...], largest: float) -> list[np.ndarray]:
    """Seeded values of three spreads, and the edge values up to `largest` in magnitude with values near 0."""
    rng = np.random.default_rng(3)
    values = [(rng.standard_normal(shape) * spread).astype(np.float32) for spread in (1e-4, 1.0, 30.0)]
    edges = np.concatenate([FLOAT32_EDGE_VALUES, -FLOAT32_EDGE_VALUES, [-1e-5, 1e-5, -3e-8]]).astype(np.float32)
    edges = edges[~(np.abs(edges) > largest)]  # NaN stays
    values.append(np.resize(edges, int(np.prod(shape))).reshape(shape))
    return values


@dataclasses.dataclass(frozen=True)
class OnnxRun:
    converted: Graph
    inputs: list[np.ndarray]
    ours: list[np.ndarray]
    theirs: list[np.ndarray]  # onnxruntime's


def run_onnx(op_type: str, attributes: dict[str, float], shape: tuple[int, ...], largest: float = np.inf) -> OnnxRun:
    """The one-node ONNX model converted, and both outputs on onnx_values."""
    node = helper.make_node(op_type, ["x"], ["y"], name=op_type.lower(), **attributes)
    graph = helper.make_graph(
        [node],
        op_type.lower(),
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    interpreter = ReferenceInterpreter(converted, context)
    inputs = onnx_values(shape, largest)
    ours = [interpreter.run([values])[0] for values in inputs]
    theirs = [session.run(None, {"x": values})[0] for values in inputs]
    return OnnxRun(converted, inputs, ours, theirs)


def assert_close_to_onnxruntime(run: OnnxRun, scale: float) -> None:
    """Within 1e-6 relative, or |scale| * 2**-23 absolute (NaN equal to NaN): below 0 onnxruntime computes
    scale * (exp(x) - 1), whose exp(x) is rounded near 1 before the subtraction, an error of up to an ulp
    of 1 that expm1 does not make. At and above 0 both give x (times gamma) bit for bit."""
    for values, ours, theirs in zip(run.inputs, run.ours, run.theirs, strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=abs(scale) * 2.0**-23)
        positive = values > 0
        np.testing.assert_array_equal(ours[positive], theirs[positive])


@pytest.mark.parametrize("alpha", [None, 0.1, 1.0, 2.5, -0.5])
def test_onnx_elu_matches_onnxruntime(alpha: float | None) -> None:
    attributes = {} if alpha is None else {"alpha": alpha}  # None: ONNX's default 1.0
    run = run_onnx("Elu", attributes, (3, 40))
    assert [n.op_type for n in run.converted.nodes] == ["ELU"]
    expected_alpha = float(np.float32(1.0 if alpha is None else alpha))
    assert run.converted.nodes[0].attributes == EluAttributes(alpha=expected_alpha)
    assert_close_to_onnxruntime(run, expected_alpha)


@pytest.mark.parametrize(
    ("alpha", "gamma", "shape", "op_types"),
    [
        (None, None, (3, 40), ["ELU", "MUL"]),  # ONNX's defaults
        (1.5, 2.0, (2, 3, 20), ["ELU", "MUL"]),
        (0.5, -0.75, (120,), ["ELU", "MUL"]),
        (2.0, 1.0, (3, 40), ["ELU"]),  # gamma 1: no MUL
        (None, None, (2, 1, 3, 4, 5), ["ELU", "RESHAPE", "MUL", "RESHAPE"]),  # rank 5: the MUL on a flat view
    ],
)
def test_onnx_selu_matches_onnxruntime(
    alpha: float | None, gamma: float | None, shape: tuple[int, ...], op_types: list[str]
) -> None:
    attributes = {name: value for name, value in (("alpha", alpha), ("gamma", gamma)) if value is not None}
    # Values whose product with gamma overflows are left out: TFLite's MUL (no activation) clamps it to
    # FLT_MAX, onnxruntime gives inf.
    run = run_onnx("Selu", attributes, shape, largest=1e38)
    assert [n.op_type for n in run.converted.nodes] == op_types
    assert_close_to_onnxruntime(
        run, (SELU_ALPHA if alpha is None else alpha) * (SELU_GAMMA if gamma is None else gamma)
    )


def test_onnx_selu_c_matches_reference() -> None:
    check_c_matches_reference(run_onnx("Selu", {}, (3, 40)).converted, REGISTRY, float_ulp_tolerance=C_ULPS)
