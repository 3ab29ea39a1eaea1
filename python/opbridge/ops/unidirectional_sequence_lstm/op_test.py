# SPDX-License-Identifier: Apache-2.0
"""UNIDIRECTIONAL_SEQUENCE_LSTM: the reference against TFLite Micro over consecutive invocations, the
hidden and cell states carried from one to the next (and cleared by a reset), float32 and int8 with
an int16 cell state, time-major and batch-major, with and without cell_clip.

Quantization as TFLite's converter chooses it for an int8 LSTM:
- input and output int8, asymmetric (scale and zero point from the value range); the hidden state
  (output_state) has the output's parameters, since the kernel copies it to the output;
- the eight weight matrices int8, symmetric, per tensor (scale = max |w| / 127, zero point 0);
- the four gate biases int32, scale input scale * that gate's input weight scale, zero point 0;
- the cell state int16, symmetric, with a power-of-two scale (2^-11 covers +-16);
- no intermediate tensors: TFLite Micro's kernel ignores them and fixes the gates' pre-activation
  scale at 2^-12 (Q3.12) and their activation scale at 2^-15 (Q0.15).
The 16x8 LSTM (int16 activations) takes the int16 tensors symmetric (zero point 0) and int64 biases.

The emitted C (float32, int8 and 16x8) against the reference over INVOCATIONS runs in a row, the states in
the module's persistent bytes; the golden program then inits the module again and repeats them.
"""

import ctypes
import ctypes.util
from collections.abc import Callable

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing.activation_tests import REGISTRY
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import check_c_matches_reference
from tflite_micro.python.tflite_micro import runtime

from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.logistic import reference as logistic_reference
from opbridge.ops.unidirectional_sequence_lstm import reference as lstm_reference
from opbridge.ops.unidirectional_sequence_lstm.attributes import LstmAttributes
from opbridge.ops.unidirectional_sequence_lstm.reference import (
    cell_state_scale_power,
    int16_sigmoid,
    int16_tanh,
    tanh_parameters,
)
from opbridge.ops.unidirectional_sequence_lstm.schema import LSTM_SCHEMA
from opbridge.schemas.inference import infer_node
from opbridge.schemas.schema import ShapeInferenceError

INVOCATIONS = 10
ARENA_BYTES = 256 * 1024
GATES = 4


def per_tensor(scale: float, zero_point: int) -> Quantization:
    """A per-tensor quantization with the scale rounded to float32, as the LiteRT file stores it."""
    return Quantization((float(np.float32(scale)),), (zero_point,))


def lstm_graph(
    rng: np.random.Generator, dtype: DType, time: int, batch: int, input_size: int, units: int,
    attributes: LstmAttributes, cell_scale_factor: float = 1.0, per_channel: bool = False,
) -> Graph:  # fmt: skip
    """One LSTM node with 24 inputs (the unsupported ones omitted); the hidden and cell states (18, 19)
    are variable tensors, not graph inputs. int8: cell_scale_factor != 1 moves the cell scale off its
    power of two (the converter never does: it checks what TFLite Micro then computes);
    per_channel gives the input weights one scale per unit (not what the converter writes)."""
    tensors: list[Tensor] = []

    def add(name: str, tensor_dtype: DType, shape: tuple[int, ...], q: Quantization | None = None,
            data: np.ndarray | None = None, is_variable: bool = False) -> int:  # fmt: skip
        tensors.append(Tensor(len(tensors), name, tensor_dtype, shape, q, data, is_variable))
        return len(tensors) - 1

    shape = (time, batch, input_size) if attributes.time_major else (batch, time, input_size)
    out_shape = (*shape[:2], units)
    # Float weights as a trained LSTM's might be: about unit gain into each gate.
    w_float = [rng.standard_normal((units, input_size)) / np.sqrt(input_size) for _ in range(GATES)]
    r_float = [rng.standard_normal((units, units)) / np.sqrt(units) for _ in range(GATES)]
    b_float = [rng.standard_normal(units) * 0.5 for _ in range(GATES)]
    inputs: list[int | None] = [None] * 24
    if dtype is DType.FLOAT32:
        inputs[0] = add("input", DType.FLOAT32, shape)
        for g in range(GATES):
            inputs[1 + g] = add(f"w{g}", DType.FLOAT32, w_float[g].shape, data=w_float[g].astype(np.float32))
            inputs[5 + g] = add(f"r{g}", DType.FLOAT32, r_float[g].shape, data=r_float[g].astype(np.float32))
            inputs[12 + g] = add(f"b{g}", DType.FLOAT32, (units,), data=b_float[g].astype(np.float32))
        inputs[18] = add("output_state", DType.FLOAT32, (batch, units), is_variable=True)
        inputs[19] = add("cell_state", DType.FLOAT32, (batch, units), is_variable=True)
        y = add("output", DType.FLOAT32, out_shape)
    else:
        wide = dtype is DType.INT16
        if wide:
            # 16x8: int16 activations symmetric (zero point 0), int64 biases.
            input_q = per_tensor(float(rng.uniform(1.0, 4.0)) / 32767, 0)
            output_q = per_tensor(float(rng.uniform(0.6, 1.0)) / 32767, 0)
        else:
            # The input's range: asymmetric, as calibration finds it.
            low, high = -float(rng.uniform(1.0, 4.0)), float(rng.uniform(1.0, 4.0))
            input_q = per_tensor((high - low) / 255, round(-128 - low / ((high - low) / 255)))
            # The output (and hidden state) range is about tanh's, [-1, 1], a little asymmetric.
            out_low, out_high = -float(rng.uniform(0.6, 1.0)), float(rng.uniform(0.6, 1.0))
            output_q = per_tensor((out_high - out_low) / 255, round(-128 - out_low / ((out_high - out_low) / 255)))
        bias_dtype = DType.INT64 if wide else DType.INT32
        cell_q = per_tensor(2.0 ** int(rng.integers(-15, -8)) * cell_scale_factor, 0)
        inputs[0] = add("input", dtype, shape, input_q)
        for g in range(GATES):
            for base, weights, source_q in ((1, w_float[g], input_q), (5, r_float[g], output_q)):
                scale = float(np.float32(np.abs(weights).max() / 127))
                data = np.clip(np.round(weights / scale), -127, 127).astype(np.int8)
                weight_q = per_tensor(scale, 0)
                if per_channel and base == 1:
                    weight_q = Quantization((scale,) * units, (0,) * units, 0)
                inputs[base + g] = add(f"w{base + g}", DType.INT8, weights.shape, weight_q, data)
                if base == 1:
                    bias_scale = float(np.float32(source_q.scale) * np.float32(scale))
                    bias = np.round(b_float[g] / bias_scale).astype(bias_dtype.numpy)
                    inputs[12 + g] = add(f"b{g}", bias_dtype, (units,), per_tensor(bias_scale, 0), bias)
        inputs[18] = add("output_state", dtype, (batch, units), output_q, is_variable=True)
        inputs[19] = add("cell_state", DType.INT16, (batch, units), cell_q, is_variable=True)
        y = add("output", dtype, out_shape, output_q)
    node = Node(0, "lstm_under_test", "UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, [y], attributes)
    return Graph("single_op", tensors, [node], [inputs[0]], [y])


def lstm_model(graph: Graph, activation: int | None = None, **extra: bool) -> bytes:
    a: LstmAttributes = graph.nodes[0].attributes
    options = schema.UnidirectionalSequenceLSTMOptionsT()
    options.fusedActivationFunction = a.activation.value if activation is None else activation
    options.cellClip = a.cell_clip
    options.projClip = a.proj_clip
    options.timeMajor = a.time_major
    for name, value in extra.items():
        setattr(options, name, value)
    # LiteRT's version: 5 for 16x8, else 1 (TFLite Micro reads none).
    version = 5 if graph.tensors[graph.inputs[0]].dtype is DType.INT16 else 1
    return single_op_model(
        graph,
        schema.BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
        version,
        schema.BuiltinOptions.UnidirectionalSequenceLSTMOptions,
        options,
    )


def draw_inputs(rng: np.random.Generator, tensor: Tensor) -> np.ndarray:
    if tensor.dtype is DType.FLOAT32:
        return (rng.standard_normal(tensor.shape) * 1.5).astype(np.float32)
    if tensor.dtype is DType.INT16:
        return rng.integers(-32768, 32768, tensor.shape).astype(np.int16)
    return rng.integers(-128, 128, tensor.shape).astype(np.int8)


def differing(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    if ours.dtype == np.float32:  # bits: -0.0 differs from 0.0, NaN equals NaN
        ours, theirs = ours.view(np.uint32), np.ascontiguousarray(theirs, dtype=np.float32).view(np.uint32)
    assert ours.shape == theirs.shape
    return np.flatnonzero(ours.ravel() != theirs.ravel())


def check_against_tflite_micro(graph: Graph, seed: int) -> int:
    """INVOCATIONS runs carrying the state, a reset, then INVOCATIONS // 2 runs more.

    int8: equal bits every time. float32: within rtol 1e-5 (returns how many values differed in their
    bits): the operation order is TFLite Micro's, but the reference's exp and tanh are NumPy's float64
    rounded once to float32, libm's expf and tanhf (what TFLite Micro calls) can be an ulp or two off,
    and the recurrence carries such a difference on. test_float32_is_bit_exact_with_the_same_libm
    shows that the rest is bit-exact."""
    model = lstm_model(graph)
    parsed = read_litert_model(model, as_registry_context(REGISTRY), "lstm.tflite")
    (node,) = parsed.nodes
    assert node.attributes == graph.nodes[0].attributes, "LiteRT options did not round-trip"
    assert parsed.inputs == [0], "the states must not be graph inputs"
    assert parsed.tensors[node.inputs[18]].is_variable and parsed.tensors[node.inputs[19]].is_variable
    ours = ReferenceInterpreter(parsed, REGISTRY)
    theirs = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    outputs: list[np.ndarray] = []
    rng = np.random.default_rng(seed)
    inexact = 0
    for phase, count in (("before reset", INVOCATIONS), ("after reset", INVOCATIONS // 2)):
        for invocation in range(count):
            values = draw_inputs(rng, parsed.tensors[0])
            (mine,) = ours.run([values])
            theirs.set_input(values, 0)
            theirs.invoke()
            reference = np.array(theirs.get_output(0))
            wrong = differing(mine, reference)
            what = f"invocation {invocation} {phase}: {wrong.size} values differ, first at {wrong[:5]}"
            if mine.dtype == np.float32:
                np.testing.assert_allclose(mine, reference, rtol=1e-5, atol=1e-6, err_msg=what)
                inexact += wrong.size
            else:
                assert wrong.size == 0, f"{what}: ours {mine.ravel()[wrong[:5]]}, TFLM {reference.ravel()[wrong[:5]]}"
            outputs.append(mine)
        ours.reset()
        theirs.reset()
    # The outputs change from run to run (the state matters, the test is not all saturated).
    assert len({output.tobytes() for output in outputs}) > len(outputs) // 2
    return inexact


SHAPES = st.tuples(
    st.integers(1, 4),  # time
    st.integers(1, 3),  # batch
    st.integers(1, 6),  # input_size
    st.integers(1, 6),  # units
)


@given(
    shape=SHAPES,
    time_major=st.booleans(),
    cell_clip=st.sampled_from([0.0, 0.5, 3.0]),
    proj_clip=st.sampled_from([0.0, 0.25]),
    seed=st.integers(0, 2**16),
)
def test_float32_reference_matches_tflite_micro(
    shape: tuple[int, int, int, int], time_major: bool, cell_clip: float, proj_clip: float, seed: int
) -> None:
    # proj_clip round-trips but changes nothing: there is no projection (TFLite Micro ignores it too).
    rng = np.random.default_rng(seed)
    attributes = LstmAttributes(cell_clip=cell_clip, proj_clip=proj_clip, time_major=time_major)
    check_against_tflite_micro(lstm_graph(rng, DType.FLOAT32, *shape, attributes), seed)


@given(shape=SHAPES, time_major=st.booleans(), cell_clip=st.sampled_from([0.0, 0.5, 3.0]), seed=st.integers(0, 2**16))
def test_int8_reference_matches_tflite_micro(
    shape: tuple[int, int, int, int], time_major: bool, cell_clip: float, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    attributes = LstmAttributes(cell_clip=cell_clip, time_major=time_major)
    check_against_tflite_micro(lstm_graph(rng, DType.INT8, *shape, attributes), seed)


@given(shape=SHAPES, factor=st.sampled_from([0.8, 0.97, 1.1, 1.4]), seed=st.integers(0, 2**16))
@settings(max_examples=20)
def test_int8_cell_scale_off_a_power_of_two(shape: tuple[int, int, int, int], factor: float, seed: int) -> None:
    # TFLite Micro rounds log2 of the cell scale for its tanh and uses the scale itself for the multiplies.
    rng = np.random.default_rng(seed)
    attributes = LstmAttributes(cell_clip=1.0, time_major=bool(seed % 2))
    check_against_tflite_micro(lstm_graph(rng, DType.INT8, *shape, attributes, cell_scale_factor=factor), seed)


def test_per_channel_weights_are_refused() -> None:
    graph = lstm_graph(np.random.default_rng(2), DType.INT8, 2, 1, 3, 2, LstmAttributes(), per_channel=True)
    parsed = read_litert_model(lstm_model(graph), as_registry_context(REGISTRY), "lstm.tflite")
    with pytest.raises(UnsupportedTensorError, match="per channel"):
        ReferenceInterpreter(parsed, REGISTRY).run([np.zeros(parsed.tensors[0].shape, np.int8)])


@given(shape=SHAPES, time_major=st.booleans(), cell_clip=st.sampled_from([0.0, 0.5, 3.0]), seed=st.integers(0, 2**16))
@settings(max_examples=40)
def test_int16x8_reference_matches_tflite_micro(
    shape: tuple[int, int, int, int], time_major: bool, cell_clip: float, seed: int
) -> None:
    # The 16x8 LSTM: int16 input, hidden state and output (zero point 0), int8 weights, int64 biases.
    rng = np.random.default_rng(seed)
    attributes = LstmAttributes(cell_clip=cell_clip, time_major=time_major)
    check_against_tflite_micro(lstm_graph(rng, DType.INT16, *shape, attributes), seed)


def libm_float32(name: str) -> Callable[[np.ndarray], np.ndarray]:
    """The host C library's float function (expf, tanhf), element by element."""
    function = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]

    def apply(values: np.ndarray) -> np.ndarray:
        values = np.asarray(values, np.float32)
        return np.array([function(float(v)) for v in values.ravel()], np.float32).reshape(values.shape)

    return apply


@given(shape=SHAPES, time_major=st.booleans(), cell_clip=st.sampled_from([0.0, 0.5, 3.0]), seed=st.integers(0, 2**16))
@settings(max_examples=25)
def test_float32_is_bit_exact_with_the_same_libm(
    shape: tuple[int, int, int, int], time_major: bool, cell_clip: float, seed: int
) -> None:
    """The float32 reference's operation order is TFLite Micro's: with the host's expf and tanhf in
    place of NumPy's (float64, rounded once) every bit agrees over all invocations."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(logistic_reference, "float32_exp", libm_float32("expf"))
        patch.setattr(lstm_reference, "float32_tanh", libm_float32("tanhf"))
        rng = np.random.default_rng(seed)
        attributes = LstmAttributes(cell_clip=cell_clip, time_major=time_major)
        assert check_against_tflite_micro(lstm_graph(rng, DType.FLOAT32, *shape, attributes), seed) == 0


def test_int16_activations_cover_the_lookup_range() -> None:
    # Every int16 input: sigmoid is monotonic in [0, 32767], tanh odd-ish and monotonic.
    x = np.arange(-32768, 32768, dtype=np.int64)
    sigmoid = int16_sigmoid(x)
    assert sigmoid.min() >= 0 and sigmoid.max() <= 32767 and np.all(np.diff(sigmoid) >= 0)
    for power in range(-15, -8):
        tanh = int16_tanh(x, *tanh_parameters(power))
        assert tanh.min() >= -32768 and tanh.max() <= 32767 and np.all(np.diff(tanh) >= 0)
    assert cell_state_scale_power(2.0**-11) == -11


def refused(graph: Graph, match: str, activation: int | None = None, **extra: bool) -> None:
    with pytest.raises(UnsupportedOperatorError, match=match):
        read_litert_model(lstm_model(graph, activation, **extra), as_registry_context(REGISTRY), "lstm.tflite")


def small_graph(dtype: DType = DType.FLOAT32) -> Graph:
    return lstm_graph(np.random.default_rng(0), dtype, 2, 1, 3, 2, LstmAttributes())


def with_input(graph: Graph, position: int, shape: tuple[int, ...]) -> Graph:
    """The graph with optional input `position` given as a constant."""
    (node,) = graph.nodes
    extra = Tensor(len(graph.tensors), f"input{position}", DType.FLOAT32, shape, None, np.ones(shape, np.float32))
    inputs = list(node.inputs)
    inputs[position] = extra.index
    changed = Node(0, node.name, node.op_type, inputs, node.outputs, node.attributes)
    return Graph(graph.name, [*graph.tensors, extra], [changed], graph.inputs, graph.outputs)


@pytest.mark.parametrize(
    ("position", "shape", "match"),
    [(9, (2,), "peephole"), (16, (2, 2), "projection"), (20, (2,), "layer normalization")],
)
def test_lstm_variants_are_refused(position: int, shape: tuple[int, ...], match: str) -> None:
    graph = with_input(small_graph(), position, shape)
    refused(graph, match)
    # TFLite Micro refuses them too (its Prepare fails).
    with pytest.raises(Exception):  # noqa: B017 - the runtime raises a plain RuntimeError
        runtime.Interpreter.from_bytes(lstm_model(graph), arena_size=ARENA_BYTES).invoke()


def test_options_tflite_micro_does_not_run_are_refused() -> None:
    graph = small_graph()
    # The options' parser sees only the options; the reader names the node (OpbridgeError.add_context).
    node = r"^node 0 \(UNIDIRECTIONAL_SEQUENCE_LSTM\)[^\n]*"
    refused(graph, node + "asymmetric_quantize_inputs", asymmetricQuantizeInputs=True)
    refused(graph, node + "diagonal_recurrent_tensors", diagonalRecurrentTensors=True)
    refused(graph, node + "fused_activation_function NONE", activation=0)
    refused(graph, node + "fused_activation_function RELU", activation=1)


def test_cifg_is_refused() -> None:
    graph = small_graph()
    (node,) = graph.nodes
    inputs = list(node.inputs)
    inputs[1] = inputs[5] = inputs[12] = None
    cifg = Node(0, node.name, node.op_type, inputs, node.outputs, node.attributes)
    graph = Graph(graph.name, graph.tensors, [cifg], graph.inputs, graph.outputs)
    with pytest.raises(UnsupportedOperatorError, match="CIFG"):
        read_litert_model(lstm_model(graph), as_registry_context(REGISTRY), "lstm.tflite")


@pytest.mark.parametrize("dtype", [DType.FLOAT32, DType.INT8])
@pytest.mark.parametrize("time_major", [False, True])
def test_schema_infers_the_output(dtype: DType, time_major: bool) -> None:
    graph = lstm_graph(np.random.default_rng(1), dtype, 3, 2, 4, 5, LstmAttributes(time_major=time_major))
    (inferred,) = infer_node(graph, graph.nodes[0], LSTM_SCHEMA)
    output = graph.tensors[graph.outputs[0]]
    assert inferred.dtype is dtype and tuple(inferred.shape) == output.shape


def test_schema_refuses_a_hybrid_lstm() -> None:
    # float32 activations and states with int8 weights (LiteRT's hybrid LSTM): TFLite Micro has no kernel.
    graph = small_graph(DType.FLOAT32)
    (node,) = graph.nodes
    tensors = list(graph.tensors)
    for position in (1, 2, 3, 4, 5, 6, 7, 8):
        w = tensors[node.inputs[position]]
        tensors[w.index] = Tensor(w.index, w.name, DType.INT8, w.shape, per_tensor(0.01, 0), np.ones(w.shape, np.int8))
    hybrid = Graph(graph.name, tensors, graph.nodes, graph.inputs, graph.outputs)
    with pytest.raises(ShapeInferenceError, match="hybrid"):
        infer_node(hybrid, node, LSTM_SCHEMA)
    with pytest.raises(UnsupportedTensorError, match="hybrid"):
        ReferenceInterpreter(hybrid, REGISTRY).run([np.zeros(hybrid.tensors[0].shape, np.float32)])


C_CASES = [
    # (dtype, time, batch, input_size, units, time_major, cell_clip)
    (DType.FLOAT32, 3, 2, 5, 4, False, 0.0),
    (DType.FLOAT32, 2, 1, 3, 6, True, 3.0),
    (DType.INT8, 3, 2, 5, 4, False, 0.0),
    (DType.INT8, 2, 3, 4, 3, True, 0.5),
    (DType.INT8, 1, 1, 6, 5, False, 3.0),
    (DType.INT16, 3, 2, 5, 4, False, 0.0),
    (DType.INT16, 2, 3, 4, 3, True, 0.5),
    (DType.INT16, 1, 1, 6, 5, False, 3.0),
]


@pytest.mark.parametrize(("dtype", "time", "batch", "input_size", "units", "time_major", "cell_clip"), C_CASES)
def test_c_kernel_matches_reference_over_invocations(
    dtype: DType, time: int, batch: int, input_size: int, units: int, time_major: bool, cell_clip: float
) -> None:
    rng = np.random.default_rng(time * 1000 + batch * 100 + input_size * 10 + units)
    attributes = LstmAttributes(time_major=time_major, cell_clip=cell_clip)
    graph = lstm_graph(rng, dtype, time, batch, input_size, units, attributes)
    # float32 too: equal bits (the kernel rounds exp and tanh once from double, as the reference does).
    check_c_matches_reference(
        graph, REGISTRY, cases=INVOCATIONS, float_ulp_tolerance=0 if dtype is DType.FLOAT32 else None
    )


def test_the_sigmoid_table_is_tflite_s() -> None:
    """Spot values of TFLite's sigmoid_table_uint16, its ends and tuned entries among them."""
    table = lstm_reference.SIGMOID_TABLE
    assert table.shape == (256,) and table[0] == 32768 and table[255] == 65535
    assert [int(table[i]) for i in (1, 4, 8, 100, 135, 254)] == [33451, 35493, 38180, 64536, 65301, 65534]
