# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference SVDF (EvalFloatSvdfReference, EvalIntegerSvdfReference), with the
activation state kept in the node's ReferenceCall.state from run to run.

Each run:
1. the state ([batch, num_filters * memory_size] read as one flat buffer) moves left by one element:
   each filter's memory_size values drop their oldest one;
2. each filter's dot product with the input row becomes its newest value (the last of its memory_size);
   int8: rescaled by input * weights_feature / state scale, clamped to the state's type, plus the state's
   zero point (wrapping around in the state's type);
3. each filter's memory is dotted with its time weights (int8: the state less its zero point);
4. the output starts at the bias (or zero), each unit adds its `rank` filters in order;
5. float32: the fused activation; int8: rescaled by state * weights_time / output scale, plus the
   output's zero point, clamped to int8 (TFLite Micro's int8 kernel applies no fused activation).

float32 sums are sequential loops in the kernel's order, each step rounded to float32.
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.quantized import float32, float32_divide, require_quantization
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier, wrap_int32

STATE_KEY = "activation_state"
# The activation state's input position (a variable tensor).
STATE_INPUT = 4


def initial_state(tensor: Tensor) -> Array:
    """The state after TFLite Micro's reset (MicroInterpreter::ResetVariableTensors), as one flat buffer:
    every byte set to the zero point for an int8 state, to 0 otherwise (any buffer data is ignored)."""
    fill = 0
    if tensor.dtype is DType.INT8 and tensor.quantization is not None:
        fill = tensor.quantization.zero_point
    return np.full(tensor.element_count, fill, dtype=tensor.dtype.numpy)


def current_state(call: ReferenceCall) -> Array:
    """The node's state buffer, created from the variable tensor on the first run after a reset."""
    state = call.state.get(STATE_KEY)
    if state is None:
        state = initial_state(call.input_tensor(STATE_INPUT))
        call.state[STATE_KEY] = state
    return state


def shift_state(state: Array) -> None:
    """Moves the flat buffer left by one element, in place (the last element is overwritten next)."""
    state[:-1] = state[1:].copy()


def newest_positions(batch: int, filters: int, memory: int) -> Array:
    """Flat indices of each (batch, filter)'s newest state value: [batch, filters]."""
    rows = np.arange(batch).reshape(-1, 1) * filters * memory
    return rows + np.arange(filters).reshape(1, -1) * memory + (memory - 1)


def float_activation(values: Array, activation: Activation) -> Array:
    """TFLite Micro's ActivationValFloat: std::fmax / std::fmin (NaN gives the other operand)."""
    zero = np.float32(0.0)
    if activation is Activation.RELU:
        return np.fmax(zero, values).astype(np.float32)
    if activation is Activation.RELU6:
        return np.fmax(zero, np.fmin(values, np.float32(6.0))).astype(np.float32)
    if activation is Activation.RELU_N1_TO_1:
        return np.fmax(np.float32(-1.0), np.fmin(values, np.float32(1.0))).astype(np.float32)
    return values


def dimensions(call: ReferenceCall) -> tuple[int, int, int, int, int, int]:
    """batch, input_size, num_filters, num_units, memory_size, rank."""
    rank = call.attributes.rank
    batch, input_size = call.input_tensor(0).shape
    filters, memory = call.input_tensor(2).shape
    return batch, input_size, filters, filters // rank, memory, rank


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def svdf_float32(call: ReferenceCall) -> list[Array]:
    batch, input_size, filters, units, memory, rank = dimensions(call)
    state = current_state(call)
    shift_state(state)
    x = call.value(0).astype(np.float32).reshape(batch, 1, input_size)
    feature = call.value(1).astype(np.float32).reshape(1, filters, input_size)
    products = np.zeros((batch, filters), np.float32)
    for k in range(input_size):
        products = products + feature[:, :, k] * x[:, :, k]
    state[newest_positions(batch, filters, memory)] = products
    memories = state.reshape(batch, filters, memory)
    time = call.value(2).astype(np.float32).reshape(1, filters, memory)
    scratch = np.zeros((batch, filters), np.float32)
    for j in range(memory):
        scratch = scratch + time[:, :, j] * memories[:, :, j]
    output = np.zeros((batch, units), np.float32)
    if call.optional_input_tensor(3) is not None:
        output = output + call.value(3).astype(np.float32).reshape(1, units)
    grouped = scratch.reshape(batch, units, rank)
    for j in range(rank):
        output = output + grouped[:, :, j]
    return [float_activation(output, call.attributes.activation).reshape(call.outputs[0].shape)]


def svdf_multipliers(call: ReferenceCall) -> tuple[tuple[int, int], tuple[int, int]]:
    inputs = [call.input_tensor(position) for position in (0, 1, 2, STATE_INPUT)]
    return svdf_tensor_multipliers(call.node, *inputs, call.outputs[0])


def svdf_tensor_multipliers(
    node: Node, input: Tensor, feature: Tensor, time: Tensor, state: Tensor, output: Tensor
) -> tuple[tuple[int, int], tuple[int, int]]:
    """TFLite Micro's two effective scales, each computed in float32 (a * b, then / c) and then
    QuantizeMultiplier'd: input * weights_feature / state, and state * weights_time / output."""
    input_q = require_quantization(node, input, "input")
    feature_q = require_quantization(node, feature, "weights_feature")
    time_q = require_quantization(node, time, "weights_time")
    state_q = require_quantization(node, state, "activation_state")
    output_q = require_quantization(node, output, "output")
    first = float32_divide(float32(input_q.scale * feature_q.scale), state_q.scale)
    second = float32_divide(float32(state_q.scale * time_q.scale), output_q.scale)
    return quantize_multiplier(first), quantize_multiplier(second)


def svdf_integer(call: ReferenceCall) -> list[Array]:
    batch, input_size, filters, units, memory, rank = dimensions(call)
    state_tensor = call.input_tensor(STATE_INPUT)
    if call.input_tensor(1).dtype is not DType.INT8 or call.outputs[0].dtype is not DType.INT8:
        raise UnsupportedTensorError(
            f"{call.node.describe()}: an int8 SVDF needs int8 weights_feature and output",
            hint="quantize the whole node to int8 (hybrid SVDF is not supported)",
        )
    input_zero = require_quantization(call.node, call.input_tensor(0), "input").zero_point
    state_zero = require_quantization(call.node, state_tensor, "activation_state").zero_point
    output_zero = require_quantization(call.node, call.outputs[0], "output").zero_point
    (m1, s1), (m2, s2) = svdf_multipliers(call)
    info = np.iinfo(state_tensor.dtype.numpy)

    state = current_state(call)
    shift_state(state)
    x = call.value(0).astype(np.int64).reshape(batch, input_size) - input_zero
    feature = call.value(1).astype(np.int64).reshape(filters, input_size)
    products = wrap_int32(x @ feature.T)
    # The state's zero point is added before the clamp to the state's type.
    # Clamped to the state's type, then the zero point added and narrowed with wrap-around (an int8 state
    # with a zero point can wrap): the pinned TFLite Micro's order; upstream later moved the zero point
    # before the clamp.
    newest = np.clip(multiply_by_quantized_multiplier(products, m1, s1), info.min, info.max) + state_zero
    state[newest_positions(batch, filters, memory)] = newest.astype(state.dtype)
    memories = state.reshape(batch, filters, memory).astype(np.int64) - state_zero
    time = call.value(2).astype(np.int64).reshape(1, filters, memory)
    scratch = wrap_int32((memories * time).sum(axis=2))
    output = np.zeros((batch, units), np.int64)
    if call.optional_input_tensor(3) is not None:
        output = output + call.value(3).astype(np.int64).reshape(1, units)
    output = wrap_int32(output + scratch.reshape(batch, units, rank).sum(axis=2))
    scaled = multiply_by_quantized_multiplier(output, m2, s2) + output_zero
    return [np.clip(scaled, -128, 127).astype(np.int8).reshape(call.outputs[0].shape)]


def require_variable_state(node: Node, state: Tensor) -> None:
    """The activation state must be a variable tensor (TFLite Micro checks is_variable too): a graph input
    or a constant in its place would be ignored, since the state lives in the node from run to run."""
    if not state.is_variable:
        raise UnsupportedTensorError(
            f"{node.describe()}: the activation state {state.describe()} is not a variable tensor",
            hint="mark the SVDF's input 4 is_variable (TFLite's converter does), not a graph input or a constant",
        )


def svdf_reference(call: ReferenceCall) -> list[Array]:
    require_variable_state(call.node, call.input_tensor(STATE_INPUT))
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return svdf_float32(call)
    return svdf_integer(call)


def svdf_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each filter's dot product with the input, then with its time weights."""
    batch, inputs = graph.tensor(node.inputs[0]).shape
    filters, memory = graph.tensor(node.inputs[2]).shape
    return batch * filters * (inputs + memory)
