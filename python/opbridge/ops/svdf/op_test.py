# SPDX-License-Identifier: Apache-2.0
"""SVDF: the reference against TFLite Micro over consecutive invocations, the activation state
carried from one to the next (and cleared by a reset), float32 and int8 with an int16 or int8 state;
the emitted C against the reference over the same kind of sequence (the golden program runs it, then
inits the module again and runs it once more: the reset)."""

import dataclasses
import pathlib
import tempfile

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing.activation_tests import REGISTRY
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import check_c_matches_reference
from tflite_micro.python.tflite_micro import runtime

from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.svdf.attributes import SvdfAttributes

# Operators of its graphs besides SVDF (tests/architecture/operator_deps.py).
USES_OPERATORS = ("abs",)

INVOCATIONS = 12
ARENA_BYTES = 256 * 1024


def svdf_graph(
    rng: np.random.Generator, dtype: DType, batch: int, rank: int, units: int, memory: int, bias: bool,
    activation: Activation, state_dtype: DType = DType.INT16,
) -> Graph:  # fmt: skip
    """One SVDF node; the activation state (tensor 4) is a variable tensor, not a graph input."""
    input_size = int(rng.integers(1, 12))
    filters = units * rank
    tensors: list[Tensor] = []

    def add(name: str, tensor_dtype: DType, shape: tuple[int, ...], q: Quantization | None = None,
            data: np.ndarray | None = None, is_variable: bool = False) -> int:  # fmt: skip
        tensors.append(Tensor(len(tensors), name, tensor_dtype, shape, q, data, is_variable))
        return len(tensors) - 1

    if dtype is DType.FLOAT32:
        x = add("input", DType.FLOAT32, (batch, input_size))
        wf = add("weights_feature", DType.FLOAT32, (filters, input_size), data=normal(rng, (filters, input_size)))
        wt = add("weights_time", DType.FLOAT32, (filters, memory), data=normal(rng, (filters, memory)))
        b = add("bias", DType.FLOAT32, (units,), data=normal(rng, (units,))) if bias else None
        state = add("activation_state", DType.FLOAT32, (batch, memory * filters), is_variable=True)
        y = add("output", DType.FLOAT32, (batch, units))
    else:
        input_q = per_tensor(float(rng.uniform(0.005, 0.1)), int(rng.integers(-20, 20)))
        feature_q = per_tensor(float(rng.uniform(0.002, 0.05)), 0)
        # The first effective scale (input * weights_feature / state) drawn so that the state sometimes
        # saturates; weights_time kept small enough that the time sums stay within int32; the second
        # (state * weights_time / output) and the bias scaled to the sums' typical size.
        first = rng.uniform(0.05, 4.0)
        time_q = per_tensor(float(rng.uniform(1e-4, 1e-2)), 0)
        if state_dtype is DType.INT16:
            state_q = per_tensor(float(input_q.scale * feature_q.scale / first), 0)
            state_limit, time_limit = 32767.0, 2000
        else:  # an int8 state holds 256 times less: its scale grown to match, with a zero point
            state_q = per_tensor(float(input_q.scale * feature_q.scale * 256 / first), int(rng.integers(-5, 5)))
            state_limit, time_limit = 127.0, 127
        state_size = min(state_limit, first * 74 * 73 * np.sqrt(input_size) / (1 if state_limit > 127 else 256))
        sums = state_size * time_limit * 0.58 * np.sqrt(memory * rank)
        output_q = per_tensor(
            float(state_q.scale * time_q.scale * sums / rng.uniform(20, 80)), int(rng.integers(-10, 10))
        )
        x = add("input", DType.INT8, (batch, input_size), input_q)
        wf = add("weights_feature", DType.INT8, (filters, input_size), feature_q,
                 rng.integers(-127, 128, (filters, input_size)).astype(np.int8))  # fmt: skip
        wt = add("weights_time", state_dtype, (filters, memory), time_q,
                 rng.integers(-time_limit, time_limit + 1, (filters, memory)).astype(state_dtype.numpy))  # fmt: skip
        b = None
        if bias:
            bias_q = per_tensor(float(np.float32(state_q.scale) * np.float32(time_q.scale)), 0)
            b = add(
                "bias", DType.INT32, (units,), bias_q, rng.integers(-int(sums), int(sums) + 1, units).astype(np.int32)
            )
        state = add("activation_state", state_dtype, (batch, memory * filters), state_q, is_variable=True)
        y = add("output", DType.INT8, (batch, units), output_q)
    node = Node(0, "svdf_under_test", "SVDF", [x, wf, wt, b, state], [y], SvdfAttributes(rank, activation))
    return Graph("single_op", tensors, [node], [x], [y])


def per_tensor(scale: float, zero_point: int) -> Quantization:
    """A per-tensor quantization with the scale rounded to float32, as the LiteRT file stores it."""
    return Quantization((float(np.float32(scale)),), (zero_point,))


def normal(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def svdf_model(graph: Graph) -> bytes:
    options = schema.SVDFOptionsT()
    options.rank = graph.nodes[0].attributes.rank
    options.fusedActivationFunction = graph.nodes[0].attributes.activation.value
    version = 1 if graph.tensors[0].dtype is DType.FLOAT32 else 3
    return single_op_model(graph, schema.BuiltinOperator.SVDF, version, schema.BuiltinOptions.SVDFOptions, options)


def draw_inputs(rng: np.random.Generator, tensor: Tensor) -> np.ndarray:
    if tensor.dtype is DType.FLOAT32:
        return normal(rng, tensor.shape)
    return rng.integers(-128, 128, tensor.shape).astype(np.int8)


def assert_same(ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    if ours.dtype == np.float32:  # bits: -0.0 differs from 0.0, NaN equals NaN
        ours, theirs = ours.view(np.uint32), np.ascontiguousarray(theirs, dtype=np.float32).view(np.uint32)
    differing = np.flatnonzero(ours.ravel() != theirs.ravel())
    assert ours.shape == theirs.shape and differing.size == 0, (
        f"{what}: {differing.size} values differ from TFLite Micro, first at {differing[:5]}: "
        f"ours {ours.ravel()[differing[:5]]}, TFLM {theirs.ravel()[differing[:5]]}"
    )


def check_against_tflite_micro(graph: Graph, seed: int, require_variety: bool = True) -> None:
    """INVOCATIONS runs carrying the state, a reset, then INVOCATIONS // 2 runs more: equal bits each time."""
    model = svdf_model(graph)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "svdf.tflite")
    (node,) = parsed.nodes
    assert node.attributes == graph.nodes[0].attributes, "LiteRT options did not round-trip"
    assert parsed.inputs == [0] and parsed.tensors[node.inputs[4]].is_variable, "the state must not be a graph input"
    ours = ReferenceInterpreter(parsed, REGISTRY)
    # TFLite Micro cannot run an SVDF without a bias (its Prepare dereferences the missing bias
    # tensor: tflite-micro issue #1751); its Eval starts the sums at 0 without one, as at a zero bias.
    peer = model if graph.nodes[0].inputs[3] is not None else svdf_model(with_zero_bias(graph))
    theirs = runtime.Interpreter.from_bytes(peer, arena_size=ARENA_BYTES)
    outputs: list[np.ndarray] = []
    rng = np.random.default_rng(seed)
    for phase, count in (("before reset", INVOCATIONS), ("after reset", INVOCATIONS // 2)):
        for invocation in range(count):
            values = draw_inputs(rng, parsed.tensors[0])
            (mine,) = ours.run([values])
            theirs.set_input(values, 0)
            theirs.invoke()
            assert_same(mine, np.array(theirs.get_output(0)), f"invocation {invocation} {phase}")
            outputs.append(mine)
        ours.reset()
        theirs.reset()
    # The outputs change from run to run (the state matters, the test is not all saturated).
    assert not require_variety or len({output.tobytes() for output in outputs}) > len(outputs) // 2


def with_zero_bias(graph: Graph) -> Graph:
    """The graph with its missing bias given as zeros (int8: scale state * weights_time, as TFLite Micro checks)."""
    (node,) = graph.nodes
    units = graph.tensors[node.outputs[0]].shape[1]
    time, state = graph.tensors[node.inputs[2]], graph.tensors[node.inputs[4]]
    if time.dtype is DType.FLOAT32:
        bias = Tensor(len(graph.tensors), "bias", DType.FLOAT32, (units,), None, np.zeros(units, np.float32))
    else:
        scale = float(np.float32(state.quantization.scale) * np.float32(time.quantization.scale))
        bias = Tensor(
            len(graph.tensors), "bias", DType.INT32, (units,), per_tensor(scale, 0), np.zeros(units, np.int32)
        )
    inputs = [*node.inputs[:3], bias.index, node.inputs[4]]
    biased = Node(0, node.name, node.op_type, inputs, node.outputs, node.attributes)
    return Graph(graph.name, [*graph.tensors, bias], [biased], graph.inputs, graph.outputs)


CASES = [
    # (batch, rank, units, memory, bias, activation)
    (1, 1, 4, 3, True, Activation.NONE),
    (1, 2, 3, 4, True, Activation.RELU),
    (2, 1, 5, 2, True, Activation.RELU),
    (2, 2, 2, 5, True, Activation.NONE),
    (1, 1, 3, 1, True, Activation.NONE),
    (2, 3, 2, 6, True, Activation.RELU),
    (1, 1, 4, 3, False, Activation.NONE),
    (2, 2, 3, 4, False, Activation.RELU),
]
FLOAT_CASES = [
    *CASES,
    (1, 2, 2, 3, False, Activation.RELU6),
    (2, 1, 3, 2, True, Activation.RELU_N1_TO_1),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("batch", "rank", "units", "memory", "bias", "activation"), FLOAT_CASES)
def test_float32_reference_matches_tflite_micro(
    batch: int, rank: int, units: int, memory: int, bias: bool, activation: Activation, seed: int
) -> None:
    rng = np.random.default_rng(seed * 1000 + batch * 100 + rank * 10 + units)
    check_against_tflite_micro(svdf_graph(rng, DType.FLOAT32, batch, rank, units, memory, bias, activation), seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("batch", "rank", "units", "memory", "bias", "activation"), CASES)
def test_int8_reference_matches_tflite_micro(
    batch: int, rank: int, units: int, memory: int, bias: bool, activation: Activation, seed: int
) -> None:
    # TFLite Micro's int8 kernel applies no fused activation (RELU cases check that the reference does not).
    rng = np.random.default_rng(seed * 1000 + batch * 100 + rank * 10 + units)
    check_against_tflite_micro(svdf_graph(rng, DType.INT8, batch, rank, units, memory, bias, activation), seed)


def test_asymmetric_quantize_inputs_is_refused() -> None:
    graph = svdf_graph(np.random.default_rng(0), DType.FLOAT32, 1, 1, 2, 2, True, Activation.NONE)
    options = schema.SVDFOptionsT()
    options.rank = 1
    options.asymmetricQuantizeInputs = True
    model = single_op_model(graph, schema.BuiltinOperator.SVDF, 1, schema.BuiltinOptions.SVDFOptions, options)
    with pytest.raises(UnsupportedOperatorError, match="asymmetric_quantize_inputs"):
        read_litert_model(model, as_registry_context(REGISTRY), "svdf.tflite")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("batch", "rank", "units", "memory", "bias", "activation"), CASES[:4])
def test_int8_state_reference_matches_tflite_micro(
    batch: int, rank: int, units: int, memory: int, bias: bool, activation: Activation, seed: int
) -> None:
    rng = np.random.default_rng(seed * 1000 + batch * 100 + rank * 10 + units)
    graph = svdf_graph(rng, DType.INT8, batch, rank, units, memory, bias, activation, DType.INT8)
    check_against_tflite_micro(graph, seed)


C_CASES = [
    (DType.FLOAT32, DType.FLOAT32, 2, 2, 3, 4, True, Activation.RELU),
    (DType.FLOAT32, DType.FLOAT32, 1, 1, 4, 3, False, Activation.RELU_N1_TO_1),
    (DType.INT8, DType.INT16, 2, 2, 3, 4, True, Activation.NONE),
    (DType.INT8, DType.INT16, 1, 3, 2, 6, False, Activation.NONE),
    (DType.INT8, DType.INT8, 2, 1, 4, 3, True, Activation.NONE),
]


@pytest.mark.parametrize(("dtype", "state", "batch", "rank", "units", "memory", "bias", "activation"), C_CASES)
def test_c_kernel_matches_reference_over_invocations(
    dtype: DType, state: DType, batch: int, rank: int, units: int, memory: int, bias: bool, activation: Activation
) -> None:
    rng = np.random.default_rng(batch * 100 + rank * 10 + units)
    graph = svdf_graph(rng, dtype, batch, rank, units, memory, bias, activation, state)
    # INVOCATIONS cases in a row, state carried; the program then inits again and repeats them.
    tolerance = 0 if dtype is DType.FLOAT32 else None  # float32: equal bits too
    check_c_matches_reference(graph, REGISTRY, cases=INVOCATIONS, float_ulp_tolerance=tolerance)


def test_a_fused_tanh_is_refused_naming_the_node() -> None:
    graph = svdf_graph(np.random.default_rng(0), DType.FLOAT32, 1, 1, 2, 2, True, Activation.NONE)
    options = schema.SVDFOptionsT()
    options.rank = 1
    options.fusedActivationFunction = schema.ActivationFunctionType.TANH
    model = single_op_model(graph, schema.BuiltinOperator.SVDF, 1, schema.BuiltinOptions.SVDFOptions, options)
    with pytest.raises(UnsupportedOperatorError, match=r"(?s)SVDF.*fused activation 4 is not supported"):
        read_litert_model(model, as_registry_context(REGISTRY), "svdf.tflite")


def test_a_state_read_by_a_second_node_is_refused_naming_both() -> None:
    graph = svdf_graph(np.random.default_rng(0), DType.FLOAT32, 1, 1, 2, 2, True, Activation.NONE)
    state = graph.tensors[graph.nodes[0].inputs[4]]
    peek = Tensor(len(graph.tensors), "peek", DType.FLOAT32, state.shape)
    reader = Node(1, "reads_the_state", "ABS", [state.index], [peek.index], None)
    both = Graph(graph.name, [*graph.tensors, peek], [*graph.nodes, reader], graph.inputs, [*graph.outputs, peek.index])
    with tempfile.TemporaryDirectory() as scratch:
        with pytest.raises(
            UnsupportedTensorError, match=r'(?s)"activation_state" .*variable tensor.*svdf_under_test.*reads_the_state'
        ):
            compile_graph(both, REGISTRY, "svdf", pathlib.Path(scratch) / "module", bundle_kernels=False)
        assert not (pathlib.Path(scratch) / "module").exists(), "nothing half-written is left behind"


def test_the_state_is_planned_once_as_persistent_bytes() -> None:
    graph = svdf_graph(np.random.default_rng(3), DType.INT8, 2, 2, 3, 4, True, Activation.NONE)
    with tempfile.TemporaryDirectory() as scratch:
        module = pathlib.Path(scratch) / "module"
        compile_graph(graph, REGISTRY, "svdf", module, bundle_kernels=False)
        source = (module / "src" / "svdf.c").read_text()
        node_source = next((module / "src").glob("svdf_node_0_svdf.c")).read_text()
    state = graph.tensors[graph.nodes[0].inputs[4]]
    assert "kept in its reader's persistent state" in source, "the variable tensor gets no buffer of its own"
    assert "svdf_node_0_svdf_init(ctx)" in source, "the module's init resets the state"
    assert f", 0, {state.bytes}u);" in node_source, "the init clears the whole int16 state"


def test_a_state_that_is_not_a_variable_tensor_is_refused() -> None:
    graph = svdf_graph(np.random.default_rng(0), DType.FLOAT32, 1, 1, 2, 2, True, Activation.NONE)
    (node,) = graph.nodes
    state = dataclasses.replace(graph.tensors[node.inputs[4]], is_variable=False)
    tensors = [state if t.index == state.index else t for t in graph.tensors]
    as_input = Graph(graph.name, tensors, graph.nodes, [*graph.inputs, state.index], graph.outputs)
    values = [np.zeros(graph.tensors[0].shape, np.float32), np.zeros(state.shape, np.float32)]
    with pytest.raises(UnsupportedTensorError, match=r"svdf_under_test.*activation_state.*is not a variable tensor"):
        ReferenceInterpreter(as_input, REGISTRY).run(values)
    error = r"svdf_under_test.*is not a variable tensor"
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(UnsupportedTensorError, match=error):
        compile_graph(as_input, REGISTRY, "svdf", pathlib.Path(scratch) / "module", bundle_kernels=False)


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_drawn_layers_match_tflite_micro(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8]), label="dtype")
    state = DType.FLOAT32 if dtype is DType.FLOAT32 else data.draw(st.sampled_from([DType.INT16, DType.INT8]))
    batch, rank = data.draw(st.integers(1, 3), label="batch"), data.draw(st.integers(1, 3), label="rank")
    units, memory = data.draw(st.integers(1, 5), label="units"), data.draw(st.integers(1, 6), label="memory")
    activation = data.draw(st.sampled_from(list(Activation)), label="activation")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    bias = data.draw(st.booleans(), label="bias")
    graph = svdf_graph(np.random.default_rng(seed), dtype, batch, rank, units, memory, bias, activation, state)
    check_against_tflite_micro(graph, seed, require_variety=False)
