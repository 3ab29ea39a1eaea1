# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's UNIDIRECTIONAL_SEQUENCE_LSTM (lstm_eval.h's EvalLstm), with the hidden and cell states
kept in the node's ReferenceCall.state across runs.

Each time step, for each batch row (batch-major input runs each row's time steps in turn, time-major
runs all rows together: the rows never mix, so both orders give the same values):

1. each gate's pre-activation is FC(x_t, input weights, bias) + FC(h, recurrent weights) (no recurrent
   bias); int8: each FC's int32 sum rescaled to int16 at scale 2^-12 (Q3.12), saturated, and the two
   added with int16 saturation (16x8, int16 activations: int64 sums and biases, and TFLite's int64
   MultiplyByQuantizedMultiplier, which rounds the multiplier to 16 bits);
2. forget, input and output gates: sigmoid; the cell gate: tanh (the only fused activation TFLite
   Micro applies; int8: both on Q3.12 input to Q0.15 output, TFLite's int16 lookup-table kernels);
3. c = forget * c + input * cell_gate (int8: two int16 multiplies rescaled to the cell scale, a
   saturating int16 add), then clamped to +-cell_clip when cell_clip > 0;
4. h = tanh(c) * output_gate (tanh of the cell state whatever the fused activation; int8: the cell
   scale's power of two decides the tanh input shift, the product rescaled to the hidden state's scale
   plus its zero point, clamped to int8, or int16 for 16x8); h is the step's output.

float32: every FC sum is a sequential loop from 0 in the kernel's order, then + bias (+ 0.0 without
one), clamped to +-FLT_MAX; the multiplies are clamped to +-FLT_MAX as TFLite's Mul does; the adds are
not. exp and tanh: see opbridge.ops.shared.float32 (libm's expf/tanhf may differ by an ulp).
"""

import math
from collections.abc import Callable

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.logistic.reference import float32_logistic
from opbridge.ops.shared.float32 import FLOAT32_LOWEST, FLOAT32_MAX, clamp_float32, float32_tanh
from opbridge.ops.shared.quantized import float32, require_quantization
from opbridge.ops.svdf.reference import initial_state
from opbridge.ops.unidirectional_sequence_lstm.schema import (
    BIASES,
    CELL_STATE,
    HIDDEN_STATE,
    INPUT,
    INPUT_WEIGHTS,
    RECURRENT_WEIGHTS,
)
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
    multiply_by_quantized_multiplier_int64,
    quantize_multiplier,
    wrap_int32,
)

HIDDEN_KEY = "output_state"
CELL_KEY = "cell_state"
# Gate order in INPUT_WEIGHTS, RECURRENT_WEIGHTS and BIASES.
INPUT_GATE, FORGET_GATE, CELL_GATE, OUTPUT_GATE = range(4)
# The gates' int16 pre-activations are Q3.12, their activations Q0.15.
GATE_INPUT_SCALE = 2.0**-12
GATE_OUTPUT_SCALE = 2.0**-15
INT16_MIN, INT16_MAX = -32768, 32767

# The entries of TFLite's int16 sigmoid table (sigmoid_table_uint16) one above round(65536 * sigmoid(i / 24)):
# the table was tuned by hand, and the integer LOGISTIC and TANH results depend on it bit for bit.
TUNED_SIGMOID_ENTRIES = (
    4, 8, 12, 14, 15, 16, 17, 19, 20, 21, 22, 25, 27, 28, 29, 30, 31, 33, 34, 35, 37, 39, 40, 41, 43, 44, 45,
    46, 49, 50, 54, 62, 63, 64, 66, 82, 86, 93, 100, 103, 112, 116, 135, 255,
)  # fmt: skip


def sigmoid_table() -> Array:
    """TFLite's table of sigmoid(i / 24), i in 0..255, in 0.16 fixed point: the interpolation table of its
    int16 LOGISTIC and TANH kernels (TFLite Micro's LSTM gates)."""
    index = np.arange(256, dtype=np.float64)
    table = np.round(65536.0 / (1.0 + np.exp(-index / 24.0))).astype(np.int64)
    table[list(TUNED_SIGMOID_ENTRIES)] += 1
    return table


SIGMOID_TABLE = sigmoid_table()


def states(call: ReferenceCall) -> tuple[Array, Array]:
    """The node's hidden and cell state buffers (flat, batch-major), created after a reset as TFLite
    Micro resets variable tensors (int8: the zero point; otherwise 0)."""
    for key, position in ((HIDDEN_KEY, HIDDEN_STATE), (CELL_KEY, CELL_STATE)):
        if key not in call.state:
            call.state[key] = initial_state(call.input_tensor(position))
    return call.state[HIDDEN_KEY], call.state[CELL_KEY]


def time_major_input(call: ReferenceCall) -> Array:
    """The input as [time, batch, input_size]."""
    x = call.value(INPUT)
    return x if call.attributes.time_major else np.swapaxes(x, 0, 1)


def from_time_major(call: ReferenceCall, steps: list[Array]) -> Array:
    out = np.stack(steps)
    return out if call.attributes.time_major else np.ascontiguousarray(np.swapaxes(out, 0, 1))


# --- float32 -----------------------------------------------------------------------------------------


def float_fc(x: Array, weights: Array, bias: Array | None) -> Array:
    """TFLite's reference float FULLY_CONNECTED without activation: [rows, depth] x [units, depth]."""
    total = np.zeros((x.shape[0], weights.shape[0]), np.float32)
    for d in range(x.shape[1]):
        total = total + x[:, d : d + 1] * weights[np.newaxis, :, d]
    total = total + (bias[np.newaxis, :] if bias is not None else np.float32(0.0))
    return clamp_float32(total, FLOAT32_LOWEST, FLOAT32_MAX)


def float_mul(a: Array, b: Array) -> Array:
    return clamp_float32(a * b, FLOAT32_LOWEST, FLOAT32_MAX)


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def lstm_float32(call: ReferenceCall) -> list[Array]:
    hidden, cell = states(call)
    batch = call.outputs[0].shape[1 if call.attributes.time_major else 0]
    h = hidden.reshape(batch, -1)
    c = cell.reshape(batch, -1)
    w = [call.value(p).astype(np.float32) for p in INPUT_WEIGHTS]
    r = [call.value(p).astype(np.float32) for p in RECURRENT_WEIGHTS]
    bias = [call.value(p).astype(np.float32) for p in BIASES]
    clip = np.float32(call.attributes.cell_clip)
    outputs = []
    for x in time_major_input(call).astype(np.float32):
        gates = [float_fc(x, w[g], bias[g]) + float_fc(h, r[g], None) for g in range(4)]
        forget = float32_logistic(gates[FORGET_GATE])
        input_gate = float32_logistic(gates[INPUT_GATE])
        cell_gate = float32_tanh(gates[CELL_GATE])
        c = float_mul(forget, c) + float_mul(input_gate, cell_gate)
        if clip > 0:
            c = np.where(c < clip, c, clip)  # std::min(clip, c): NaN gives clip
            c = np.where(c < -clip, -clip, c).astype(np.float32)
        output_gate = float32_logistic(gates[OUTPUT_GATE])
        h = float_mul(float32_tanh(c), output_gate)
        outputs.append(h)
    hidden[:] = h.ravel()
    cell[:] = c.ravel()
    return [from_time_major(call, outputs).reshape(call.outputs[0].shape)]


# --- int8 (or int16) activations with an int16 cell state -------------------------------------------


def int16_sigmoid(x: Array) -> Array:
    """TFLite's int16 LOGISTIC (reference_integer_ops::Logistic) with input multiplier 0 and shift 0:
    Q3.12 in, Q0.15 out, interpolated in SIGMOID_TABLE."""
    scaled = x.astype(np.int64) * 3
    magnitude = np.abs(scaled)
    index = np.minimum(magnitude >> 9, 254)
    low, high = SIGMOID_TABLE[index], SIGMOID_TABLE[index + 1]
    result = np.where(magnitude >> 9 >= 255, 0x7FFF << 10, (low << 9) + (magnitude & 0x1FF) * (high - low))
    result = np.where(scaled >= 0, result + (1 << 9), (1 << 25) - result + (1 << 9) - 1)
    return (result >> 10).astype(np.int64)


def int16_tanh(x: Array, multiplier: int, left_shift: int) -> Array:
    """TFLite's int16 TANH (reference_integer_ops::Tanh): Q0.15 out, interpolated in SIGMOID_TABLE."""
    if multiplier == 0:
        multiplier, left_shift = 3 << left_shift, 0
    rounding = (1 << (left_shift - 1)) if left_shift > 0 else 0
    scaled = (x.astype(np.int64) * multiplier + rounding) >> left_shift
    magnitude = np.abs(scaled)
    index = np.minimum(magnitude >> 8, 254)
    low, high = SIGMOID_TABLE[index], SIGMOID_TABLE[index + 1]
    result = np.where(magnitude >> 8 >= 255, 0xFFFF << 8, (low << 8) + (magnitude & 0xFF) * (high - low))
    result = np.where(scaled >= 0, result - (1 << 23) + (1 << 7), -result + (1 << 23) + (1 << 7) - 1)
    return result >> 8


def cell_state_scale_power(scale: float) -> int:
    """TFLite's CheckedLog2 in float32 (log(x) * (1 / log 2), rounded half away from zero); TFLite Micro
    ignores whether the scale is a power of two."""
    log2 = float32(float32(math.log(float32(scale))) * float32(1.0 / float32(math.log(2.0))))
    return int(math.floor(abs(log2) + 0.5) * (1 if log2 >= 0 else -1))


def tanh_parameters(power: int) -> tuple[int, int]:
    """TFLite Micro's lstm_internal::Tanh: the cell state (scale 2^power) brought to the Q3.12 input."""
    shift = 15 + power - 3
    return (3, -shift) if shift < 0 else (0, shift)


def saturate(values: Array, low: int, high: int) -> Array:
    return np.clip(values, low, high)


def integer_multipliers(node: Node, tensor: Callable[[int], Tensor]) -> dict[str, tuple[int, int]]:
    """TFLite Micro's effective scales (lstm_eval_common.cc), each QuantizeMultiplier'd:
    - each gate's input FC: float32(input scale * weight scale) / 2^-12 (in double),
    - each gate's recurrent FC: float32(hidden scale * weight scale) / 2^-12,
    - forget * cell: 2^-15 * cell / cell, input * cell gate: 2^-15 * 2^-15 / cell,
      tanh(cell) * output gate: 2^-15 * 2^-15 / hidden (double products).
    `tensor` gives the node's input tensor at a position."""
    input_q = require_quantization(node, tensor(INPUT), "input")
    hidden_q = require_quantization(node, tensor(HIDDEN_STATE), "output_state")
    cell_q = require_quantization(node, tensor(CELL_STATE), "cell_state")
    result: dict[str, tuple[int, int]] = {}
    for gate, (w, r) in enumerate(zip(INPUT_WEIGHTS, RECURRENT_WEIGHTS, strict=True)):
        for kind, position, source in (("input", w, input_q), ("recurrent", r, hidden_q)):
            weight_q = require_quantization(node, tensor(position), f"weights (input {position})")
            if len(weight_q.scales) != 1:
                raise UnsupportedTensorError(
                    f"{node.describe()}: weights (input {position}) are quantized per channel",
                    hint="TFLite Micro's LSTM takes per-tensor weight scales (it ignores per-channel ones); "
                    "re-quantize the LSTM weights per tensor",
                )
            product = float32(source.scale * weight_q.scale)
            result[f"{kind}{gate}"] = quantize_multiplier(product / GATE_INPUT_SCALE)
    cell_scale, hidden_scale = float(np.float32(cell_q.scale)), float(np.float32(hidden_q.scale))
    result["forget_cell"] = quantize_multiplier(GATE_OUTPUT_SCALE * cell_scale / cell_scale)
    result["input_cell"] = quantize_multiplier(GATE_OUTPUT_SCALE * GATE_OUTPUT_SCALE / cell_scale)
    result["hidden"] = quantize_multiplier(GATE_OUTPUT_SCALE * GATE_OUTPUT_SCALE / hidden_scale)
    return result


def quantized_cell_clip(cell_clip: float, cell_scale: float) -> int:
    """static_cast<int16_t>(clamp(cell_clip / scale, -32768, 32767)) (truncated toward zero)."""
    return int(min(max(float(np.float32(cell_clip)) / float(np.float32(cell_scale)), -32768.0), 32767.0))


def check_integer_tensors(call: ReferenceCall) -> None:
    output, x = call.outputs[0], call.input_tensor(INPUT)
    if output.dtype is not x.dtype:
        raise UnsupportedTensorError(
            f"{call.node.describe()}: a {x.dtype.value} LSTM needs a {x.dtype.value} output, got {output.describe()}",
            hint="quantize the whole LSTM (int8 or int16 activations, int16 cell state)",
        )


def int_fc(
    x: Array, x_zero: int, weights: Array, weight_zero: int, bias: Array | None, m: tuple[int, int], wide: bool
) -> Array:
    """reference_integer_ops::FullyConnected to int16 at zero point 0: int8 input with an int32
    accumulator (and bias), or (wide) int16 input with an int64 one."""
    acc = (x.astype(np.int64) - x_zero) @ (weights.astype(np.int64) - weight_zero).T
    if bias is not None:
        acc = acc + bias.astype(np.int64)[np.newaxis, :]
    if wide:
        scaled = multiply_by_quantized_multiplier_int64(acc, *m)
    else:
        scaled = multiply_by_quantized_multiplier(wrap_int32(acc), *m)
    return saturate(scaled, INT16_MIN, INT16_MAX)


def lstm_integer(call: ReferenceCall) -> list[Array]:
    check_integer_tensors(call)
    activation_type = call.input_tensor(INPUT).dtype.numpy
    info = np.iinfo(activation_type)
    wide = activation_type == np.int16
    node = call.node
    hidden, cell = states(call)
    batch = call.outputs[0].shape[1 if call.attributes.time_major else 0]
    input_zero = require_quantization(node, call.input_tensor(INPUT), "input").zero_point
    hidden_q = require_quantization(node, call.input_tensor(HIDDEN_STATE), "output_state")
    cell_scale = require_quantization(node, call.input_tensor(CELL_STATE), "cell_state").scale
    m = integer_multipliers(node, call.input_tensor)
    w = [call.value(p) for p in INPUT_WEIGHTS]
    r = [call.value(p) for p in RECURRENT_WEIGHTS]
    w_zero = [call.input_tensor(p).quantization.zero_point for p in INPUT_WEIGHTS]
    r_zero = [call.input_tensor(p).quantization.zero_point for p in RECURRENT_WEIGHTS]
    bias = [call.value(p) for p in BIASES]
    cell_tanh = tanh_parameters(cell_state_scale_power(cell_scale))
    clip = quantized_cell_clip(call.attributes.cell_clip, cell_scale) if call.attributes.cell_clip > 0 else None

    h = hidden.reshape(batch, -1).astype(np.int64)
    c = cell.reshape(batch, -1).astype(np.int64)
    outputs = []
    for x in time_major_input(call):
        pre = []
        for g in range(4):
            from_input = int_fc(x, input_zero, w[g], w_zero[g], bias[g], m[f"input{g}"], wide)
            from_hidden = int_fc(h, hidden_q.zero_point, r[g], r_zero[g], None, m[f"recurrent{g}"], wide)
            pre.append(saturate(from_input + from_hidden, INT16_MIN, INT16_MAX))
        forget = int16_sigmoid(pre[FORGET_GATE])
        input_gate = int16_sigmoid(pre[INPUT_GATE])
        cell_gate = int16_tanh(pre[CELL_GATE], 0, 0)
        kept = saturate(multiply_by_quantized_multiplier(forget * c, *m["forget_cell"]), INT16_MIN, INT16_MAX)
        added = saturate(
            multiply_by_quantized_multiplier(input_gate * cell_gate, *m["input_cell"]), INT16_MIN, INT16_MAX
        )
        c = saturate(kept + added, INT16_MIN, INT16_MAX)
        if clip is not None:
            c = np.maximum(np.minimum(clip, c), -clip)
        output_gate = int16_sigmoid(pre[OUTPUT_GATE])
        squashed = int16_tanh(c, *cell_tanh)
        h = saturate(
            multiply_by_quantized_multiplier(squashed * output_gate, *m["hidden"]) + hidden_q.zero_point,
            int(info.min),
            int(info.max),
        )
        outputs.append(h.astype(activation_type))
    hidden[:] = h.ravel()
    cell[:] = c.ravel()
    return [from_time_major(call, outputs).reshape(call.outputs[0].shape)]


def check_weight_types(call: ReferenceCall) -> None:
    """float32 weights for float32 activations, int8 otherwise (no hybrid kernel in TFLite Micro)."""
    activations = call.input_tensor(INPUT).dtype
    expected = DType.FLOAT32 if activations is DType.FLOAT32 else DType.INT8
    for position in (*INPUT_WEIGHTS, *RECURRENT_WEIGHTS):
        weights = call.input_tensor(position)
        if weights.dtype is not expected:
            raise UnsupportedTensorError(
                f"{call.node.describe()}: {activations.value} activations with {weights.dtype.value} weights "
                f"{weights.describe()} (a hybrid LSTM) are not supported",
                hint="quantize the whole LSTM (int8 or 16x8), or keep it float32",
            )


def lstm_reference(call: ReferenceCall) -> list[Array]:
    check_weight_types(call)
    if call.input_tensor(INPUT).dtype is DType.FLOAT32:
        return lstm_float32(call)
    return lstm_integer(call)


def lstm_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Per step, four gates over the input and the hidden row."""
    first, second, inputs = graph.tensor(node.inputs[0]).shape
    units = graph.tensor(node.inputs[5]).shape[0]
    return first * second * 4 * units * (inputs + units)
