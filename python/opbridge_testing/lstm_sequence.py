# SPDX-License-Identifier: Apache-2.0
"""A sequence classifier built around UNIDIRECTIONAL_SEQUENCE_LSTM, as LiteRT models (float32 and int8) with
seeded random weights: UNIDIRECTIONAL_SEQUENCE_LSTM -> RESHAPE -> FULLY_CONNECTED -> SOFTMAX.

Each invocation reads a window of 8 time steps of 12 features ([1, 8, 12], batch-major); the LSTM (24
units) carries its hidden and cell states (variable tensors) from window to window, its outputs for the
8 steps are flattened ([1, 192]) and classified into 4 classes. Written with LiteRT's own schema
bindings (no TensorFlow on our machines).

The int8 model is quantized as TFLite's converter quantizes an int8 LSTM (TFLite Micro's integer
kernel), from ranges recorded on the float model over seeded calibration windows (`calibrate`):
- activations (the input, the LSTM output and hidden state, which share parameters since the kernel
  copies one into the other, and the logits): int8, asymmetric, scale (max - min) / 255 over the range
  widened to include 0, zero point -128 - min / scale, rounded;
- the eight LSTM weight matrices and the classifier's weights: int8, symmetric per tensor, max |w| / 127;
- the four gate biases: int32 at input scale x that gate's input weight scale; the classifier's bias at
  its input scale x weight scale;
- the cell state: int16, symmetric, a power-of-two scale 2^k / 32768 covering the recorded max |cell|;
- SOFTMAX's output: scale 1/256, zero point -128 (TFLite's fixed int8 softmax output).
"""

import dataclasses
import math

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import ModelWriter
from opbridge_testing.svdf_keyword import affine, quantize, symmetric

TIME_STEPS = 8
FEATURES = 12
UNITS = 24
CLASSES = 4
CALIBRATION_WINDOWS = 60
GATES = 4  # input, forget, cell, output: LiteRT's order


@dataclasses.dataclass(frozen=True)
class Weights:
    input_weights: tuple[np.ndarray, ...]  # 4 x [UNITS, FEATURES]
    recurrent_weights: tuple[np.ndarray, ...]  # 4 x [UNITS, UNITS]
    biases: tuple[np.ndarray, ...]  # 4 x [UNITS]
    classifier: np.ndarray  # [CLASSES, TIME_STEPS * UNITS]
    classifier_bias: np.ndarray  # [CLASSES]


def draw_weights(seed: int) -> Weights:
    """About unit gain into each gate; the forget gate's bias at 1, as Keras initializes it."""
    rng = np.random.default_rng(seed)

    def matrices(columns: int) -> tuple[np.ndarray, ...]:
        return tuple((rng.standard_normal((UNITS, columns)) / np.sqrt(columns)).astype(np.float32) for _ in range(4))

    biases = tuple((0.2 * rng.standard_normal(UNITS) + (1.0 if g == 1 else 0.0)).astype(np.float32) for g in range(4))
    depth = TIME_STEPS * UNITS
    classifier = (rng.standard_normal((CLASSES, depth)) / np.sqrt(depth)).astype(np.float32)
    return Weights(matrices(FEATURES), matrices(UNITS), biases, classifier, np.zeros(CLASSES, np.float32))


def windows(seed: int, count: int) -> np.ndarray:
    """Input windows in [-2, 2) (the range the int8 input is calibrated to): [count, 1, TIME_STEPS, FEATURES]."""
    return np.random.default_rng(seed).uniform(-2.0, 2.0, (count, 1, TIME_STEPS, FEATURES)).astype(np.float32)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


@dataclasses.dataclass
class Ranges:
    hidden: tuple[float, float]
    cell: float  # max |cell state|
    logits: tuple[float, float]


def calibrate(weights: Weights, seed: int = 1) -> Ranges:
    """Runs the float model (float64) over CALIBRATION_WINDOWS windows in a row, recording its ranges."""
    hidden, cell = np.zeros(UNITS), np.zeros(UNITS)
    low = high = cell_max = 0.0
    logits_low = logits_high = 0.0
    for window in windows(seed, CALIBRATION_WINDOWS):
        outputs = []
        for x in window[0].astype(np.float64):
            gates = [
                weights.input_weights[g] @ x + weights.recurrent_weights[g] @ hidden + weights.biases[g]
                for g in range(4)
            ]
            cell = sigmoid(gates[1]) * cell + sigmoid(gates[0]) * np.tanh(gates[2])
            hidden = sigmoid(gates[3]) * np.tanh(cell)
            outputs.append(hidden)
            low, high = min(low, float(hidden.min())), max(high, float(hidden.max()))
            cell_max = max(cell_max, float(np.abs(cell).max()))
        logits = weights.classifier @ np.concatenate(outputs) + weights.classifier_bias
        logits_low, logits_high = min(logits_low, float(logits.min())), max(logits_high, float(logits.max()))
    return Ranges((low, high), cell_max, (logits_low, logits_high))


def lstm_sequence(quantized: bool, seed: int = 0) -> bytes:
    """The model's .tflite bytes (int8 when `quantized`); the same arguments give the same bytes."""
    weights = draw_weights(seed)
    ranges = calibrate(weights)
    writer = ModelWriter()
    f32, i8, i16, i32 = (schema.TensorType.FLOAT32, schema.TensorType.INT8, schema.TensorType.INT16,
                         schema.TensorType.INT32)  # fmt: skip
    sequence = [1, TIME_STEPS, FEATURES]
    inputs: list[int] = [-1] * 24
    if quantized:
        input_scale, input_zero = affine(-2.0, 2.0)
        hidden_scale, hidden_zero = affine(*ranges.hidden)
        cell_scale = 2.0 ** math.ceil(math.log2(max(ranges.cell, 1e-3))) / 32768
        inputs[0] = writer.tensor("input", sequence, i8, [input_scale], [input_zero])
        for g in range(GATES):
            w, r = weights.input_weights[g], weights.recurrent_weights[g]
            w_scale, r_scale = symmetric(w, 127), symmetric(r, 127)
            inputs[1 + g] = writer.tensor(
                f"lstm/w{g}", [UNITS, FEATURES], i8, [w_scale], [0], quantize(w, w_scale, np.int8)
            )
            inputs[5 + g] = writer.tensor(
                f"lstm/r{g}", [UNITS, UNITS], i8, [r_scale], [0], quantize(r, r_scale, np.int8)
            )
            bias_scale = float(np.float32(input_scale) * np.float32(w_scale))
            inputs[12 + g] = writer.tensor(f"lstm/b{g}", [UNITS], i32, [bias_scale], [0],
                                           quantize(weights.biases[g], bias_scale, np.int32))  # fmt: skip
        inputs[18] = writer.tensor("lstm/output_state", [1, UNITS], i8, [hidden_scale], [hidden_zero], is_variable=True)
        inputs[19] = writer.tensor("lstm/cell_state", [1, UNITS], i16, [cell_scale], [0], is_variable=True)
        lstm_out = writer.tensor("lstm", [1, TIME_STEPS, UNITS], i8, [hidden_scale], [hidden_zero])
        flat = writer.tensor("flatten", [1, TIME_STEPS * UNITS], i8, [hidden_scale], [hidden_zero])
        weight_scale = symmetric(weights.classifier, 127)
        bias_scale = float(np.float32(hidden_scale) * np.float32(weight_scale))
        logits_scale, logits_zero = affine(*ranges.logits)
        classifier = writer.tensor("classifier/weights", [CLASSES, TIME_STEPS * UNITS], i8, [weight_scale], [0],
                                   quantize(weights.classifier, weight_scale, np.int8))  # fmt: skip
        classifier_bias = writer.tensor("classifier/bias", [CLASSES], i32, [bias_scale], [0],
                                        quantize(weights.classifier_bias, bias_scale, np.int32))  # fmt: skip
        logits = writer.tensor("logits", [1, CLASSES], i8, [logits_scale], [logits_zero])
        probabilities = writer.tensor("probabilities", [1, CLASSES], i8, [1 / 256], [-128])
    else:
        inputs[0] = writer.tensor("input", sequence, f32, [], [])
        for g in range(GATES):
            inputs[1 + g] = writer.tensor(f"lstm/w{g}", [UNITS, FEATURES], f32, [], [], weights.input_weights[g])
            inputs[5 + g] = writer.tensor(f"lstm/r{g}", [UNITS, UNITS], f32, [], [], weights.recurrent_weights[g])
            inputs[12 + g] = writer.tensor(f"lstm/b{g}", [UNITS], f32, [], [], weights.biases[g])
        inputs[18] = writer.tensor("lstm/output_state", [1, UNITS], f32, [], [], is_variable=True)
        inputs[19] = writer.tensor("lstm/cell_state", [1, UNITS], f32, [], [], is_variable=True)
        lstm_out = writer.tensor("lstm", [1, TIME_STEPS, UNITS], f32, [], [])
        flat = writer.tensor("flatten", [1, TIME_STEPS * UNITS], f32, [], [])
        classifier = writer.tensor("classifier/weights", [CLASSES, TIME_STEPS * UNITS], f32, [], [], weights.classifier)
        classifier_bias = writer.tensor("classifier/bias", [CLASSES], f32, [], [], weights.classifier_bias)
        logits = writer.tensor("logits", [1, CLASSES], f32, [], [])
        probabilities = writer.tensor("probabilities", [1, CLASSES], f32, [], [])
    options = schema.UnidirectionalSequenceLSTMOptionsT()
    options.fusedActivationFunction = schema.ActivationFunctionType.TANH
    options.cellClip = 10.0
    options.timeMajor = False
    writer.operator(schema.BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM, 1, inputs, [lstm_out],
                    schema.BuiltinOptions.UnidirectionalSequenceLSTMOptions, options)  # fmt: skip
    new_shape = writer.tensor("flatten/shape", [2], i32, [], [], np.array([1, TIME_STEPS * UNITS], np.int32))
    reshape = schema.ReshapeOptionsT()
    reshape.newShape = [1, TIME_STEPS * UNITS]
    writer.operator(schema.BuiltinOperator.RESHAPE, 1, [lstm_out, new_shape], [flat],
                    schema.BuiltinOptions.ReshapeOptions, reshape)  # fmt: skip
    fc = schema.FullyConnectedOptionsT()
    fc.fusedActivationFunction = schema.ActivationFunctionType.NONE
    writer.operator(schema.BuiltinOperator.FULLY_CONNECTED, 4 if quantized else 1, [flat, classifier, classifier_bias],
                    [logits], schema.BuiltinOptions.FullyConnectedOptions, fc)  # fmt: skip
    softmax = schema.SoftmaxOptionsT()
    softmax.beta = 1.0
    writer.operator(schema.BuiltinOperator.SOFTMAX, 2 if quantized else 1, [logits], [probabilities],
                    schema.BuiltinOptions.SoftmaxOptions, softmax)  # fmt: skip
    kind = "int8" if quantized else "float32"
    return writer.finish([inputs[0]], [probabilities], f"opbridge LSTM sequence test model, {kind} (seed {seed})")


def lstm_sequence_int8() -> bytes:
    return lstm_sequence(quantized=True)


def lstm_sequence_float32() -> bytes:
    return lstm_sequence(quantized=False)
