# SPDX-License-Identifier: Apache-2.0
"""A streaming keyword model built from SVDF layers, as LiteRT models (float32 and int8) with seeded
random weights.

Each invocation reads one frame of 40 features; three SVDF layers (64, 64 and 32 units; memories of
8, 8 and 4 frames; ranks 1, 1 and 2) keep the past frames in their activation states (variable
tensors), then FULLY_CONNECTED gives 4 classes and SOFTMAX their probabilities: the shape of TFLite
Micro's SVDF keyword models. Written with LiteRT's own schema bindings (no TensorFlow on our machines).

The int8 model is quantized as TFLite's converter quantizes an SVDF model, from ranges recorded on
the float32 model over seeded calibration frames (`calibrate`):
- activations (the input, each layer's output): int8, asymmetric, scale (max - min) / 255 over the
  recorded range widened to include 0, zero point -128 - min / scale, rounded;
- weights_feature and the classifier's weights: int8, symmetric per tensor, max |w| / 127;
- weights_time: int16, symmetric, max |w| / 32767;
- activation states: int16, symmetric (zero point 0), max |state| / 32767 over the recorded states;
- biases: int32 at state scale x weights_time scale (SVDF) or input scale x weight scale (the classifier);
- SOFTMAX's output: scale 1/256, zero point -128 (TFLite's fixed int8 softmax output).
"""

import dataclasses

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import ModelWriter

FEATURES = 40
# (units, rank, memory) of each SVDF layer.
LAYERS = ((64, 1, 8), (64, 1, 8), (32, 2, 4))
CLASSES = 4
CALIBRATION_FRAMES = 200


@dataclasses.dataclass(frozen=True)
class SvdfWeights:
    feature: np.ndarray  # [filters, inputs]
    time: np.ndarray  # [filters, memory]
    bias: np.ndarray  # [units]
    rank: int


@dataclasses.dataclass(frozen=True)
class Weights:
    layers: tuple[SvdfWeights, ...]
    classifier: np.ndarray  # [classes, units]
    classifier_bias: np.ndarray  # [classes]


def draw_weights(seed: int) -> Weights:
    """Weights scaled so that each layer's outputs keep roughly the spread of its inputs."""
    rng = np.random.default_rng(seed)
    layers = []
    inputs = FEATURES
    for units, rank, memory in LAYERS:
        filters = units * rank
        layers.append(
            SvdfWeights(
                feature=(rng.standard_normal((filters, inputs)) / np.sqrt(inputs)).astype(np.float32),
                time=(rng.standard_normal((filters, memory)) / np.sqrt(memory * rank)).astype(np.float32),
                bias=(0.1 * rng.standard_normal(units)).astype(np.float32),
                rank=rank,
            )
        )
        inputs = units
    classifier = (rng.standard_normal((CLASSES, inputs)) / np.sqrt(inputs)).astype(np.float32)
    return Weights(tuple(layers), classifier, (0.1 * rng.standard_normal(CLASSES)).astype(np.float32))


def frames(seed: int, count: int) -> np.ndarray:
    """Feature frames in [-1, 1) (the range the int8 input is calibrated to): [count, 1, FEATURES]."""
    return np.random.default_rng(seed).uniform(-1.0, 1.0, (count, 1, FEATURES)).astype(np.float32)


@dataclasses.dataclass
class Ranges:
    """Recorded (min, max) of each layer's output and max |state| of each layer's state."""

    outputs: list[tuple[float, float]]
    states: list[float]


def calibrate(weights: Weights, seed: int = 1) -> Ranges:
    """Runs the float model over CALIBRATION_FRAMES frames in float64, recording its ranges."""
    states = [
        np.zeros((layer.feature.shape[0], memory)) for layer, (*_, memory) in zip(weights.layers, LAYERS, strict=True)
    ]
    ranges = Ranges([(0.0, 0.0)] * len(LAYERS), [0.0] * len(LAYERS))
    for frame in frames(seed, CALIBRATION_FRAMES):
        x = frame[0].astype(np.float64)
        for position, layer in enumerate(weights.layers):
            state = states[position]
            state[:, :-1] = state[:, 1:].copy()
            state[:, -1] = layer.feature @ x
            per_filter = (state * layer.time).sum(axis=1)
            x = per_filter.reshape(-1, layer.rank).sum(axis=1) + layer.bias
            low, high = ranges.outputs[position]
            ranges.outputs[position] = (min(low, float(x.min())), max(high, float(x.max())))
            ranges.states[position] = max(ranges.states[position], float(np.abs(state).max()))
    return ranges


def affine(low: float, high: float) -> tuple[float, int]:
    """TFLite's int8 activation quantization of a range (widened to include 0)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = float(np.float32((high - low) / 255.0))
    return scale, int(np.clip(round(-128 - low / scale), -128, 127))


def symmetric(values: np.ndarray, limit: int) -> float:
    return float(np.float32(max(float(np.abs(values).max()), 1e-8) / limit))


def quantize(values: np.ndarray, scale: float, dtype: type, zero_point: int = 0) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.clip(np.round(values / scale) + zero_point, info.min, info.max).astype(dtype)


def svdf_keyword(quantized: bool, seed: int = 0) -> bytes:
    """The model's .tflite bytes (int8 when `quantized`); the same arguments give the same bytes."""
    weights = draw_weights(seed)
    ranges = calibrate(weights)
    writer = ModelWriter()
    f32, i8, i16, i32 = (schema.TensorType.FLOAT32, schema.TensorType.INT8, schema.TensorType.INT16,
                         schema.TensorType.INT32)  # fmt: skip
    input_scale, input_zero = affine(-1.0, 1.0)
    if quantized:
        source = writer.tensor("input", [1, FEATURES], i8, [input_scale], [input_zero])
    else:
        source = writer.tensor("input", [1, FEATURES], f32, [], [])
    source_scale = input_scale
    for position, (layer, (units, rank, memory)) in enumerate(zip(weights.layers, LAYERS, strict=True)):
        filters = units * rank
        name = f"svdf_{position}"
        if quantized:
            feature_scale = symmetric(layer.feature, 127)
            time_scale = symmetric(layer.time, 32767)
            state_scale = symmetric(np.array([ranges.states[position]]), 32767)
            bias_scale = float(np.float32(state_scale) * np.float32(time_scale))
            output_scale, output_zero = affine(*ranges.outputs[position])
            feature = writer.tensor(f"{name}/weights_feature", [filters, layer.feature.shape[1]], i8,
                                    [feature_scale], [0], quantize(layer.feature, feature_scale, np.int8))  # fmt: skip
            time = writer.tensor(f"{name}/weights_time", [filters, memory], i16, [time_scale], [0],
                                 quantize(layer.time, time_scale, np.int16))  # fmt: skip
            bias = writer.tensor(f"{name}/bias", [units], i32, [bias_scale], [0],
                                 quantize(layer.bias, bias_scale, np.int32))  # fmt: skip
            state = writer.tensor(f"{name}/state", [1, memory * filters], i16, [state_scale], [0], is_variable=True)
            output = writer.tensor(name, [1, units], i8, [output_scale], [output_zero])
            source_scale = output_scale
        else:
            feature = writer.tensor(f"{name}/weights_feature", [filters, layer.feature.shape[1]], f32, [], [],
                                    layer.feature)  # fmt: skip
            time = writer.tensor(f"{name}/weights_time", [filters, memory], f32, [], [], layer.time)
            bias = writer.tensor(f"{name}/bias", [units], f32, [], [], layer.bias)
            state = writer.tensor(f"{name}/state", [1, memory * filters], f32, [], [], is_variable=True)
            output = writer.tensor(name, [1, units], f32, [], [])
        options = schema.SVDFOptionsT()
        options.rank = rank
        options.fusedActivationFunction = schema.ActivationFunctionType.NONE
        writer.operator(schema.BuiltinOperator.SVDF, 3 if quantized else 1, [source, feature, time, bias, state],
                        [output], schema.BuiltinOptions.SVDFOptions, options)  # fmt: skip
        source = output
    units = LAYERS[-1][0]
    if quantized:
        weight_scale = symmetric(weights.classifier, 127)
        bias_scale = float(np.float32(source_scale) * np.float32(weight_scale))
        # The logits' range: the classifier's largest possible sums over the last layer's range, halved.
        spread = float(np.abs(weights.classifier).sum(axis=1).max()) * max(map(abs, ranges.outputs[-1])) / 2
        logits_scale, logits_zero = affine(-spread, spread)
        classifier = writer.tensor("classifier/weights", [CLASSES, units], i8, [weight_scale], [0],
                                   quantize(weights.classifier, weight_scale, np.int8))  # fmt: skip
        classifier_bias = writer.tensor("classifier/bias", [CLASSES], i32, [bias_scale], [0],
                                        quantize(weights.classifier_bias, bias_scale, np.int32))  # fmt: skip
        logits = writer.tensor("logits", [1, CLASSES], i8, [logits_scale], [logits_zero])
        probabilities = writer.tensor("probabilities", [1, CLASSES], i8, [1 / 256], [-128])
    else:
        classifier = writer.tensor("classifier/weights", [CLASSES, units], f32, [], [], weights.classifier)
        classifier_bias = writer.tensor("classifier/bias", [CLASSES], f32, [], [], weights.classifier_bias)
        logits = writer.tensor("logits", [1, CLASSES], f32, [], [])
        probabilities = writer.tensor("probabilities", [1, CLASSES], f32, [], [])
    fc = schema.FullyConnectedOptionsT()
    fc.fusedActivationFunction = schema.ActivationFunctionType.NONE
    fc_version = 4 if quantized else 1
    writer.operator(schema.BuiltinOperator.FULLY_CONNECTED, fc_version, [source, classifier, classifier_bias],
                    [logits], schema.BuiltinOptions.FullyConnectedOptions, fc)  # fmt: skip
    softmax = schema.SoftmaxOptionsT()
    softmax.beta = 1.0
    writer.operator(schema.BuiltinOperator.SOFTMAX, 2 if quantized else 1, [logits], [probabilities],
                    schema.BuiltinOptions.SoftmaxOptions, softmax)  # fmt: skip
    kind = "int8" if quantized else "float32"
    return writer.finish([0], [probabilities], f"opbridge SVDF keyword test model, {kind} (seed {seed})")


def svdf_keyword_int8() -> bytes:
    return svdf_keyword(quantized=True)


def svdf_keyword_float32() -> bytes:
    return svdf_keyword(quantized=False)
