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

`keyword_scrambled` writes a second model, shaped as TFLite Micro's keyword benchmark model (seven SVDF
layers, an int16 input and an int32 output): see its section below.
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


# -- TFLite Micro's scrambled keyword model ----------------------------------------------------------
#
# The structure of TFLite Micro's keyword benchmark model (tensorflow/lite/micro/models/
# keyword_scrambled_8bit.tflite, which its keyword benchmark and memory tests run): an int16 frame of 96
# features, QUANTIZE to int8, seven rank-1 SVDF layers with RELU (memories of 8 frames, then of 32), a
# FULLY_CONNECTED of 16 units after each of the first four, FULLY_CONNECTED to 2 classes, SOFTMAX from int8
# to int16 and a last QUANTIZE from int16 to int32 (the model's output). Its weights are scrambled (random),
# as ours are (seeded). TFLite Micro's file keeps int8 time weights and states; TFLite's converter now
# writes int16 ones (the default here), and `state_type=np.int8` gives the file's int8 kind.

SCRAMBLED_FEATURES = 96
# ("svdf", units, memory) or ("fc", units), in order.
SCRAMBLED_LAYERS = (
    *(layer for _ in range(4) for layer in (("svdf", 64, 8), ("fc", 16))),
    ("svdf", 32, 32),
    ("svdf", 32, 32),
    ("svdf", 32, 32),
    ("fc", 2),
)
# SOFTMAX's int16 output (TFLite Micro requires it from an int8 input), and the int32 output it is
# requantized to (the scale of TFLite Micro's model: twice the probabilities', 1 / 32767).
PROBABILITIES_SCALE, PROBABILITIES_ZERO_POINT = 1 / 65536, -32768
SCRAMBLED_OUTPUT_SCALE = 1 / 32767
# The frames of one calibration sequence, from reset states.
SCRAMBLED_SEQUENCE = 10


@dataclasses.dataclass(frozen=True)
class ScrambledLayer:
    kind: str  # "svdf" or "fc"
    weights: np.ndarray  # SVDF: weights_feature [units, inputs]; FC: [units, inputs]
    bias: np.ndarray  # [units]
    time: np.ndarray | None = None  # SVDF: weights_time [units, memory]


def scrambled_weights(seed: int) -> list[ScrambledLayer]:
    """Seeded random weights, scaled so that each layer's outputs keep roughly the spread of its inputs."""
    rng = np.random.default_rng(seed)
    layers, inputs = [], SCRAMBLED_FEATURES
    for kind, units, *memory in SCRAMBLED_LAYERS:
        weights = (rng.standard_normal((units, inputs)) * np.sqrt(2.0 / inputs)).astype(np.float32)
        bias = (0.05 * rng.standard_normal(units)).astype(np.float32)
        time = None
        if kind == "svdf":
            time = (rng.standard_normal((units, memory[0])) / np.sqrt(memory[0])).astype(np.float32)
        layers.append(ScrambledLayer(kind, weights, bias, time))
        inputs = units
    return layers


def scrambled_frames(seed: int, count: int) -> np.ndarray:
    """Feature frames in [-1, 1): [count, 1, SCRAMBLED_FEATURES] float32."""
    return np.random.default_rng(seed).uniform(-1.0, 1.0, (count, 1, SCRAMBLED_FEATURES)).astype(np.float32)


def scrambled_ranges(layers: list[ScrambledLayer], seed: int = 1) -> tuple[list[tuple[float, float]], list[float]]:
    """(min, max) of each layer's output and (for SVDF layers) max |state|, over CALIBRATION_FRAMES frames run
    through the float model in float64, the states reset every SCRAMBLED_SEQUENCE frames (the calls a test
    makes from a reset, so that their outputs spread over the quantized ranges)."""
    outputs = [(0.0, 0.0)] * len(layers)
    state_peaks = [0.0] * len(layers)
    for count, frame in enumerate(scrambled_frames(seed, CALIBRATION_FRAMES)):
        if count % SCRAMBLED_SEQUENCE == 0:
            states = [None if layer.time is None else np.zeros(layer.time.shape) for layer in layers]
        x = frame[0].astype(np.float64)
        for position, layer in enumerate(layers):
            state = states[position]
            if state is None:
                x = layer.weights @ x + layer.bias
            else:
                state[:, :-1] = state[:, 1:].copy()
                state[:, -1] = layer.weights @ x
                state_peaks[position] = max(state_peaks[position], float(np.abs(state).max()))
                x = np.maximum((state * layer.time).sum(axis=1) + layer.bias, 0.0)  # rank 1, RELU
            low, high = outputs[position]
            outputs[position] = (min(low, float(x.min())), max(high, float(x.max())))
    return outputs, state_peaks


def scrambled_input_scale() -> float:
    """The int16 input's scale: symmetric over the frames' [-1, 1]."""
    return float(np.float32(1.0 / 32767))


def keyword_scrambled(state_type: type = np.int16, seed: int = 0) -> bytes:
    """The .tflite bytes of a model shaped as TFLite Micro's keyword_scrambled_8bit (see above), quantized as
    TFLite's converter quantizes it from ranges recorded on the float model: int16 input symmetric; int8
    activations asymmetric; int8 weights symmetric; int16 time weights and states symmetric (int8 ones: time
    weights symmetric, states asymmetric, as in TFLite Micro's file); int32 biases at their products' scales."""
    layers = scrambled_weights(seed)
    outputs, state_peaks = scrambled_ranges(layers)
    i8, i16, i32 = schema.TensorType.INT8, schema.TensorType.INT16, schema.TensorType.INT32
    state_code = i16 if state_type is np.int16 else i8
    state_limit = 32767 if state_type is np.int16 else 127
    writer = ModelWriter()
    frame = writer.tensor("input", [1, SCRAMBLED_FEATURES], i16, [scrambled_input_scale()], [0])
    source_scale, source_zero = affine(-1.0, 1.0)
    source = writer.tensor("input_int8", [1, SCRAMBLED_FEATURES], i8, [source_scale], [source_zero])
    writer.operator(schema.BuiltinOperator.QUANTIZE, 1, [frame], [source], 0, None)
    for position, layer in enumerate(layers):
        units, inputs = layer.weights.shape
        name = f"{layer.kind}_{position}"
        weight_scale = symmetric(layer.weights, 127)
        weights = writer.tensor(f"{name}/weights", [units, inputs], i8, [weight_scale], [0],
                                quantize(layer.weights, weight_scale, np.int8))  # fmt: skip
        output_scale, output_zero = affine(*outputs[position])
        output = writer.tensor(name, [1, units], i8, [output_scale], [output_zero])
        if layer.time is not None:
            memory = layer.time.shape[1]
            time_scale = symmetric(layer.time, state_limit)
            if state_type is np.int16:
                state_scale, state_zero = symmetric(np.array([state_peaks[position]]), 32767), 0
            else:
                state_scale, state_zero = affine(-state_peaks[position], state_peaks[position])
            bias_scale = float(np.float32(state_scale) * np.float32(time_scale))
            time = writer.tensor(f"{name}/weights_time", [units, memory], state_code, [time_scale], [0],
                                 quantize(layer.time, time_scale, state_type))  # fmt: skip
            bias = writer.tensor(f"{name}/bias", [units], i32, [bias_scale], [0],
                                 quantize(layer.bias, bias_scale, np.int32))  # fmt: skip
            state = writer.tensor(f"{name}/state", [1, memory * units], state_code, [state_scale], [state_zero],
                                  is_variable=True)  # fmt: skip
            options = schema.SVDFOptionsT()
            options.rank = 1
            options.fusedActivationFunction = schema.ActivationFunctionType.RELU
            writer.operator(schema.BuiltinOperator.SVDF, 3, [source, weights, time, bias, state], [output],
                            schema.BuiltinOptions.SVDFOptions, options)  # fmt: skip
        else:
            bias_scale = float(np.float32(source_scale) * np.float32(weight_scale))
            bias = writer.tensor(f"{name}/bias", [units], i32, [bias_scale], [0],
                                 quantize(layer.bias, bias_scale, np.int32))  # fmt: skip
            fc = schema.FullyConnectedOptionsT()
            fc.fusedActivationFunction = schema.ActivationFunctionType.NONE
            writer.operator(schema.BuiltinOperator.FULLY_CONNECTED, 4, [source, weights, bias], [output],
                            schema.BuiltinOptions.FullyConnectedOptions, fc)  # fmt: skip
        source, source_scale = output, output_scale
    classes = layers[-1].weights.shape[0]
    probabilities = writer.tensor("probabilities", [1, classes], i16, [PROBABILITIES_SCALE], [PROBABILITIES_ZERO_POINT])
    softmax = schema.SoftmaxOptionsT()
    softmax.beta = 1.0
    writer.operator(schema.BuiltinOperator.SOFTMAX, 2, [source], [probabilities],
                    schema.BuiltinOptions.SoftmaxOptions, softmax)  # fmt: skip
    result = writer.tensor("output", [1, classes], i32, [SCRAMBLED_OUTPUT_SCALE], [0])
    writer.operator(schema.BuiltinOperator.QUANTIZE, 1, [probabilities], [result], 0, None)
    kind = np.dtype(state_type).name
    return writer.finish([frame], [result], f"opbridge scrambled keyword test model, {kind} states (seed {seed})")


def scrambled_inputs(seed: int, count: int) -> list[np.ndarray]:
    """`count` frames as the model's int16 input, [1, SCRAMBLED_FEATURES] each."""
    return [quantize(frame, scrambled_input_scale(), np.int16) for frame in scrambled_frames(seed, count)]
