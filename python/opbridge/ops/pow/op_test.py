# SPDX-License-Identifier: Apache-2.0
"""POW on float32 with broadcasting. TFLite Micro has no POW kernel (it parses POW but registers nothing), so the
reference is checked against LiteRT's reference kernel, TFLite's std::pow like TFLite Micro's would be: within
1 ulp (glibc's powf against pow in float64 rounded once), NaN bits equal. The C kernel (powf) == reference within
1 ulp on drawn broadcast shapes and edge values; ONNX Pow (float32 and constant integer exponents) converts and
equals onnxruntime within 1 ulp; a run-time integer exponent and int32 POW are refused."""

import numpy as np
import onnxruntime
import pytest
from ai_edge_litert import schema_py_generated as schema
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.operators import available_operator_registry, available_registry_context
from opbridge_testing.single_op import (
    FLOAT32_EDGE_VALUES,
    GraphBuilder,
    broadcast_binary_graph,
    check_c_matches_reference,
)
from opbridge_testing.tflm import run_tflite_micro

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType, Graph
from opbridge.ops.operation import validate_graph
from opbridge.schemas.schema import ShapeInferenceError

REGISTRY = available_operator_registry()
# libm's powf against pow in float64 rounded once (glibc: 1 ulp apart on ~0.05% of random operands).
POW_ULPS = 1
# The edge values, and bases and exponents where pow's cases meet: integers (odd and even), halves, tiny and huge.
POW_EDGE_VALUES = np.concatenate(
    [FLOAT32_EDGE_VALUES, np.array([2.0, 3.0, -2.0, -3.0, 0.25, -0.5, 1e-20, 1e20, 127.5, -1e-5], np.float32)]
)


def ulps_apart(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Units in the last place between float32 arrays, as the golden programs count them (NaN bits must match)."""

    def order(values: np.ndarray) -> np.ndarray:
        bits = np.ascontiguousarray(values, dtype=np.float32).view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(2**31) - bits, bits)

    return np.abs(order(ours) - order(theirs))


def assert_within_ulps(ours: np.ndarray, theirs: np.ndarray, ulps: int, what: str) -> None:
    apart = ulps_apart(ours, theirs).ravel()
    far = np.flatnonzero(apart > ulps)
    assert ours.shape == theirs.shape and far.size == 0, (
        f"{what}: {far.size} values more than {ulps} ulp apart, first at {far[:5]}: "
        f"ours {ours.ravel()[far[:5]]}, theirs {theirs.ravel()[far[:5]]}"
    )


def run_litert_reference(model: bytes, inputs: list[np.ndarray]) -> np.ndarray:
    """LiteRT's reference kernels (not XNNPACK) on one-output `model`."""
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    interpreter.allocate_tensors()
    for detail, values in zip(interpreter.get_input_details(), inputs, strict=True):
        interpreter.set_tensor(detail["index"], values)
    interpreter.invoke()
    return np.array(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]))


def check_reference_matches_litert(graph: Graph, inputs: list[list[np.ndarray]] | None = None, seed: int = 1) -> None:
    """The reference against LiteRT's POW on a one-op model read back by opbridge (seeded or given inputs)."""
    model = single_op_model(graph, schema.BuiltinOperator.POW, 1)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "pow.tflite")
    validate_graph(parsed, REGISTRY)
    interpreter = ReferenceInterpreter(parsed, REGISTRY)
    if inputs is None:
        input_sets = [seeded_inputs(t, 3, seed=seed + i) for i, t in enumerate(parsed.input_tensors())]
        # As drawn (about half the bases negative: NaN or, for integer exponents, signed powers), then |base|.
        inputs = [[values[case] for values in input_sets] for case in range(3)]
        if parsed.inputs[0] == parsed.nodes[0].inputs[0]:
            inputs += [[np.abs(case[0]), *case[1:]] for case in inputs]
    for case, case_inputs in enumerate(inputs):
        (ours,) = interpreter.run(list(case_inputs))
        theirs = run_litert_reference(model, list(case_inputs))
        assert_within_ulps(ours, theirs, POW_ULPS, f"case {case} vs LiteRT")


def edge_graph() -> Graph:
    size = POW_EDGE_VALUES.size
    builder = GraphBuilder()
    base = builder.tensor("base", DType.FLOAT32, (size, 1))
    exponent = builder.tensor("exponent", DType.FLOAT32, (1, size))
    y = builder.tensor("y", DType.FLOAT32, (size, size))
    return builder.single_node_graph("POW", [base, exponent], [y], None)


def test_tflite_micro_has_no_pow_kernel() -> None:
    # Why the peer is LiteRT: if TFLite Micro gains POW, compare with it instead.
    model = single_op_model(edge_graph(), schema.BuiltinOperator.POW, 1)
    with pytest.raises(RuntimeError, match="allocate tensors"):
        run_tflite_micro(model, [POW_EDGE_VALUES.reshape(-1, 1), POW_EDGE_VALUES.reshape(1, -1)], 1)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_reference_matches_litert(data: st.DataObject) -> None:
    check_reference_matches_litert(broadcast_binary_graph(data, "POW", DType.FLOAT32, None))


def test_edge_values_match_litert() -> None:
    # Every pair: signed zeros and infinities, NaN, overflow and underflow, negative bases with odd, even and
    # non-integer exponents (the domain error's NaN is the host's default NaN, bit for bit as TFLite's).
    edges = POW_EDGE_VALUES
    check_reference_matches_litert(edge_graph(), [[edges.reshape(-1, 1), edges.reshape(1, -1)]])


@settings(max_examples=10, deadline=None)  # the first example compiles the kernels
@given(st.data())
def test_c_kernel_matches_reference(data: st.DataObject) -> None:
    # Seeded standard normal bases: about half negative, so the domain error's NaN is checked too (the kernel's
    # 0x7FC00000 against the golden program's __builtin_nanf("")).
    check_c_matches_reference(broadcast_binary_graph(data, "POW", DType.FLOAT32, None), REGISTRY, float_ulp_tolerance=1)


def test_c_kernel_on_edge_values() -> None:
    # Finite edge values (constants; C has no literal for inf or NaN) as base and as exponent, against seeded
    # values and their magnitudes (non-negative bases: no NaN).
    finite = POW_EDGE_VALUES[np.isfinite(POW_EDGE_VALUES)]
    for constant_first in (True, False):
        builder = GraphBuilder()
        edges = builder.tensor("edges", DType.FLOAT32, (finite.size, 1), data=finite.reshape(-1, 1))
        seeded = builder.tensor("seeded", DType.FLOAT32, (1, 8))
        y = builder.tensor("y", DType.FLOAT32, (finite.size, 8))
        inputs: list[int | None] = [edges, seeded] if constant_first else [seeded, edges]
        graph = builder.single_node_graph("POW", inputs, [y], None)
        check_c_matches_reference(graph, REGISTRY, float_ulp_tolerance=POW_ULPS)
    builder = GraphBuilder()
    magnitudes = np.abs(np.random.default_rng(5).standard_normal((4, 16)) * 4).astype(np.float32)
    base = builder.tensor("base", DType.FLOAT32, magnitudes.shape, data=magnitudes)
    exponent = builder.tensor("exponent", DType.FLOAT32, (4, 16))
    y = builder.tensor("y", DType.FLOAT32, (4, 16))
    check_c_matches_reference(
        builder.single_node_graph("POW", [base, exponent], [y], None), REGISTRY, float_ulp_tolerance=POW_ULPS
    )


def test_int32_is_refused_by_the_schema() -> None:
    # TFLite's int32 POW reads, and is refused where the converter checks every node.
    builder = GraphBuilder()
    base = builder.tensor("base", DType.INT32, (2, 3))
    exponent = builder.tensor("exponent", DType.INT32, (3,), data=np.array([1, 2, 3], np.int32))
    y = builder.tensor("y", DType.INT32, (2, 3))
    model = single_op_model(
        builder.single_node_graph("POW", [base, exponent], [y], None), schema.BuiltinOperator.POW, 1
    )
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "pow_int32.tflite")
    with pytest.raises(ShapeInferenceError, match=r"is int32; opbridge.POW .* allows T in \{float32\}"):
        validate_graph(parsed, REGISTRY)


def pow_model(base_shape: tuple[int, ...], exponent: np.ndarray | tuple[int, ...], exponent_type: int) -> bytes:
    """An ONNX Pow; `exponent` is an initializer or, given as a shape, a graph input of `exponent_type`."""
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(base_shape))]
    initializers = []
    if isinstance(exponent, np.ndarray):
        initializers.append(numpy_helper.from_array(exponent, "e"))
    else:
        inputs.append(helper.make_tensor_value_info("e", exponent_type, list(exponent)))
    graph = helper.make_graph(
        [helper.make_node("Pow", ["x", "e"], ["y"], name="pow")],
        "pow",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)]).SerializeToString()


@pytest.mark.parametrize(
    ("base_shape", "exponent"),
    [
        ((3, 8), (3, 8)),  # a run-time float32 exponent
        ((2, 3, 4), (4,)),
        ((2, 3, 4, 5), (3, 1, 1)),
        ((2, 3, 4), np.array(2.0, np.float32)),  # x ** 2: onnxruntime's x * x, exact
        ((2, 3, 4), np.array(3.0, np.float32)),  # x ** 3: onnxruntime's x * x * x, 1 ulp from pow on 1 in 4
        ((2, 3, 4), np.array(0.5, np.float32)),
        ((2, 3, 4), np.array(3, np.int64)),  # integer exponents become float32 constants
        ((5, 4), np.array([1, 2, 3, -2], np.int32)),
    ],
)
def test_onnx_pow_matches_onnxruntime(base_shape: tuple[int, ...], exponent: np.ndarray | tuple[int, ...]) -> None:
    rng = np.random.default_rng(13)
    model = pow_model(base_shape, exponent, TensorProto.FLOAT)
    context = available_registry_context()
    converted = read_onnx_model(model, context)
    assert [n.op_type for n in converted.nodes] == ["POW"]
    base = (rng.standard_normal(base_shape) * 3).astype(np.float32)
    base.ravel()[:4] = [0.0, -0.0, 1.0, -1.0]
    feeds = {"x": base}
    if not isinstance(exponent, np.ndarray):
        feeds["e"] = (rng.standard_normal(exponent) * 3).astype(np.float32)
    (ours,) = ReferenceInterpreter(converted, context).run(list(feeds.values()))
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, feeds)
    assert_within_ulps(ours, np.asarray(theirs, np.float32), POW_ULPS, "vs onnxruntime")
    check_c_matches_reference(converted, REGISTRY, float_ulp_tolerance=POW_ULPS)


def test_onnx_run_time_integer_exponent_is_refused() -> None:
    model = pow_model((2, 3), (3,), TensorProto.INT64)
    with pytest.raises(UnsupportedOperatorError, match=r"exponent Y \('e'\) is a run-time int64 tensor"):
        read_onnx_model(model, available_registry_context())


def test_onnx_exponent_that_is_not_a_float32_is_refused() -> None:
    model = pow_model((2, 3), np.array(2**24 + 1, np.int64), TensorProto.INT64)
    with pytest.raises(UnsupportedOperatorError, match="has values that are not exactly float32"):
        read_onnx_model(model, available_registry_context())
