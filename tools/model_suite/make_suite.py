# SPDX-License-Identifier: Apache-2.0
"""Writes the converter-made model suite: int8 (and one 16x8) models made by TensorFlow's own TFLite converter.

The suite holds the models MCU users deploy, built the way their tools build
them: Keras 3 layers (keras.applications where Keras has the network), batch
normalisation with drawn statistics (so per-channel scales differ as in a
trained model), TFLiteConverter.from_keras_model with full-integer
quantization calibrated by a representative dataset of seeded random data.
The weights are random (seeded): the suite measures arithmetic and speed, not
accuracy. Run it with the pinned TensorFlow of requirements_lock.txt beside
this file (README.md); the library and the tests never import TensorFlow.

    python tools/model_suite/make_suite.py tests/models/converter_suite
"""

import argparse
import dataclasses
import hashlib
import json
import os
import pathlib
import sys
from collections.abc import Callable, Iterator

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

# After the logging setting above.
import keras
import numpy as np
import tensorflow as tf
from keras import layers

# Calibration batches per model: as many as a user's short representative dataset.
CALIBRATION_SAMPLES = 16
# Every model file stays under this (the repository's limit for committed models).
MAX_MODEL_BYTES = 1_000_000


@dataclasses.dataclass(frozen=True)
class SuiteModel:
    """One suite entry: how to build the Keras model, and how to quantize it."""

    name: str
    description: str
    build: Callable[[], keras.Model]
    seed: int
    # The calibration data's distribution: (low, high) of a uniform draw.
    input_range: tuple[float, float] = (-1.0, 1.0)
    per_channel: bool = True
    # int16 activations with int8 weights (TFLite's "16x8" scheme) instead of int8 activations.
    activations_int16: bool = False


def _randomize_batch_norms(model: keras.Model, rng: np.random.Generator) -> None:
    """Draws each BatchNormalization's statistics, as training would have left them.

    Fresh Keras layers have gamma 1, beta 0, mean 0, variance 1: every channel
    would get the same scale after folding, which no trained model has.
    """
    for layer in model.layers:
        if isinstance(layer, layers.BatchNormalization):
            channels = layer.get_weights()[0].shape  # gamma, beta, moving mean, moving variance
            layer.set_weights(
                [
                    rng.uniform(0.3, 2.0, channels).astype(np.float32),
                    rng.normal(0.0, 0.3, channels).astype(np.float32),
                    rng.normal(0.0, 0.3, channels).astype(np.float32),
                    rng.uniform(0.2, 3.0, channels).astype(np.float32),
                ]
            )


def _conv_bn_relu(
    x: keras.KerasTensor, filters: int, kernel: int | tuple[int, int], strides: int = 1
) -> keras.KerasTensor:
    x = layers.Conv2D(filters, kernel, strides=strides, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.ReLU()(x)


def _depthwise_bn_relu(x: keras.KerasTensor, kernel: int, strides: int = 1, relu6: bool = False) -> keras.KerasTensor:
    x = layers.DepthwiseConv2D(kernel, strides=strides, padding="same", use_bias=False)(x)
    x = layers.BatchNormalization()(x)
    return layers.ReLU(max_value=6.0 if relu6 else None)(x)


def mobilenet_v1(alpha: float, size: int, channels: int) -> Callable[[], keras.Model]:
    def build() -> keras.Model:
        return keras.applications.MobileNet(
            input_shape=(size, size, channels), alpha=alpha, weights=None, classes=10, dropout=0.0
        )

    return build


def mobilenet_v2(alpha: float, size: int) -> Callable[[], keras.Model]:
    def build() -> keras.Model:
        return keras.applications.MobileNetV2(input_shape=(size, size, 3), alpha=alpha, weights=None, classes=10)

    return build


def ds_cnn(filters: int, blocks: int) -> Callable[[], keras.Model]:
    """ARM's DS-CNN keyword spotter (Hello Edge, S/M/L): 49x10 MFCCs, a 10x4 stride-2 conv, then
    depthwise-separable blocks."""

    def build() -> keras.Model:
        inputs = keras.Input((49, 10, 1))
        x = _conv_bn_relu(inputs, filters, (10, 4), strides=2)
        for _ in range(blocks):
            x = _depthwise_bn_relu(x, 3)
            x = _conv_bn_relu(x, filters, 1)
        x = layers.GlobalAveragePooling2D()(x)
        outputs = layers.Dense(12, activation="softmax")(x)
        return keras.Model(inputs, outputs)

    return build


def _inverted_residual(
    x: keras.KerasTensor, expansion: int, filters: int, kernel: int, strides: int
) -> keras.KerasTensor:
    in_channels = x.shape[-1]
    y = _conv_bn_relu(x, in_channels * expansion, 1) if expansion != 1 else x
    y = _depthwise_bn_relu(y, kernel, strides, relu6=True)
    y = layers.Conv2D(filters, 1, use_bias=False)(y)
    y = layers.BatchNormalization()(y)
    return layers.Add()([x, y]) if strides == 1 and in_channels == filters else y


def mcunet_like() -> keras.Model:
    """An MCUNet-style searched net: inverted residuals with 3x3, 5x5 and 7x7 depthwise, narrow channels."""
    inputs = keras.Input((96, 96, 3))
    x = _conv_bn_relu(inputs, 16, 3, strides=2)
    x = _depthwise_bn_relu(x, 3, relu6=True)
    x = layers.BatchNormalization()(layers.Conv2D(8, 1, use_bias=False)(x))
    # (expansion, filters, kernel, stride)
    for expansion, filters, kernel, strides in [
        (3, 16, 7, 2),
        (3, 16, 3, 1),
        (4, 24, 5, 2),
        (3, 24, 5, 1),
        (4, 40, 7, 2),
        (3, 40, 5, 1),
        (5, 48, 5, 1),
        (4, 96, 7, 2),
        (3, 96, 3, 1),
    ]:
        x = _inverted_residual(x, expansion, filters, kernel, strides)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    return keras.Model(inputs, outputs)


def resnet(stages: tuple[int, ...]) -> Callable[[], keras.Model]:
    """The MLPerf Tiny image-classification ResNet (one residual block a stage, 32x32x3 CIFAR input)."""

    def build() -> keras.Model:
        inputs = keras.Input((32, 32, 3))
        x = _conv_bn_relu(inputs, stages[0], 3)
        for index, filters in enumerate(stages):
            strides = 1 if index == 0 else 2
            y = _conv_bn_relu(x, filters, 3, strides)
            y = layers.BatchNormalization()(layers.Conv2D(filters, 3, padding="same", use_bias=False)(y))
            shortcut = x if strides == 1 else layers.Conv2D(filters, 1, strides=strides)(x)
            x = layers.ReLU()(layers.Add()([shortcut, y]))
        x = layers.AveragePooling2D(x.shape[1])(x)
        x = layers.Flatten()(x)
        outputs = layers.Dense(10, activation="softmax")(x)
        return keras.Model(inputs, outputs)

    return build


def conv1d_audio() -> keras.Model:
    """A 1-D convolutional keyword net over 49 frames of 40 filter-bank features (Conv1D, DepthwiseConv1D)."""
    inputs = keras.Input((49, 40))
    x = layers.ReLU()(
        layers.BatchNormalization()(layers.Conv1D(32, 5, strides=2, padding="same", use_bias=False)(inputs))
    )
    for filters in (32, 48, 64):
        x = layers.DepthwiseConv1D(3, padding="same", use_bias=False)(x)
        x = layers.ReLU()(layers.BatchNormalization()(x))
        x = layers.ReLU()(layers.BatchNormalization()(layers.Conv1D(filters, 1, use_bias=False)(x)))
    x = layers.GlobalAveragePooling1D()(x)
    outputs = layers.Dense(8, activation="softmax")(x)
    return keras.Model(inputs, outputs)


def fc_autoencoder() -> keras.Model:
    """The MLPerf Tiny anomaly-detection autoencoder's shape: 640 -> 4x128 -> 8 -> 4x128 -> 640."""
    inputs = keras.Input((640,))
    x = inputs
    for units in (128, 128, 128, 128, 8, 128, 128, 128, 128):
        x = layers.ReLU()(layers.BatchNormalization()(layers.Dense(units)(x)))
    outputs = layers.Dense(640)(x)
    return keras.Model(inputs, outputs)


SUITE: tuple[SuiteModel, ...] = (
    SuiteModel("mobilenet_v1_025_96_rgb", "MobileNet v1, alpha 0.25, 96x96x3", mobilenet_v1(0.25, 96, 3), 101),
    SuiteModel("mobilenet_v1_025_96_gray", "MobileNet v1, alpha 0.25, 96x96x1", mobilenet_v1(0.25, 96, 1), 102),
    SuiteModel(
        "mobilenet_v1_025_128_per_tensor",
        "MobileNet v1, alpha 0.25, 128x128x3, per-tensor weights",
        mobilenet_v1(0.25, 128, 3),
        103,
        per_channel=False,
    ),
    SuiteModel("mobilenet_v1_050_128_gray", "MobileNet v1, alpha 0.5, 128x128x1", mobilenet_v1(0.5, 128, 1), 104),
    SuiteModel("mobilenet_v2_035_96_rgb", "MobileNet v2, alpha 0.35, 96x96x3", mobilenet_v2(0.35, 96), 105),
    SuiteModel("mobilenet_v2_035_128_rgb", "MobileNet v2, alpha 0.35, 128x128x3", mobilenet_v2(0.35, 128), 106),
    SuiteModel("ds_cnn_s", "DS-CNN S keyword spotter, 49x10x1 MFCCs, 64 filters", ds_cnn(64, 4), 107, (-30.0, 30.0)),
    SuiteModel("ds_cnn_m", "DS-CNN M keyword spotter, 172 filters", ds_cnn(172, 4), 108, (-30.0, 30.0)),
    SuiteModel("ds_cnn_l", "DS-CNN L keyword spotter, 276 filters, 5 blocks", ds_cnn(276, 5), 109, (-30.0, 30.0)),
    SuiteModel("mcunet_like", "MCUNet-like: inverted residuals, 3x3/5x5/7x7 depthwise, 96x96x3", mcunet_like, 110),
    SuiteModel("resnet8", "ResNet-8 (MLPerf Tiny shape), 32x32x3", resnet((16, 32, 64)), 111, (0.0, 1.0)),
    SuiteModel("resnet10", "ResNet-10, 32x32x3, 16/32/64/128", resnet((16, 32, 64, 128)), 112, (0.0, 1.0)),
    SuiteModel(
        "conv1d_audio", "1-D conv keyword net, Conv1D + DepthwiseConv1D over 49x40", conv1d_audio, 113, (-4.0, 4.0)
    ),
    SuiteModel(
        "fc_autoencoder", "FC autoencoder (MLPerf Tiny anomaly shape), 640 -> 640", fc_autoencoder, 114, (0.0, 1.0)
    ),
    SuiteModel(
        "fc_autoencoder_16x8",
        "FC autoencoder with int16 activations and int8 weights (16x8)",
        fc_autoencoder,
        115,
        (0.0, 1.0),
        activations_int16=True,
    ),
)


def convert(entry: SuiteModel) -> bytes:
    """The entry's .tflite bytes, as TensorFlow's converter writes them for a full-integer model."""
    keras.utils.set_random_seed(entry.seed)
    model = entry.build()
    rng = np.random.default_rng(entry.seed)
    _randomize_batch_norms(model, rng)
    input_shape = (1, *model.inputs[0].shape[1:])
    low, high = entry.input_range

    def representative_dataset() -> Iterator[list[np.ndarray]]:
        data = np.random.default_rng(entry.seed + 1)
        for _ in range(CALIBRATION_SAMPLES):
            yield [data.uniform(low, high, input_shape).astype(np.float32)]

    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = representative_dataset
    if entry.activations_int16:
        converter.target_spec.supported_ops = [
            tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8
        ]
        converter.inference_input_type = tf.int16
        converter.inference_output_type = tf.int16
    else:
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    # The converter's own switch for per-tensor weight scales (per channel is its default).
    converter._experimental_disable_per_channel = not entry.per_channel
    return converter.convert()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=pathlib.Path, help="folder for the .tflite files and suite.json")
    parser.add_argument("--only", nargs="*", help="make only these suite models")
    args = parser.parse_args(argv)
    args.output.mkdir(parents=True, exist_ok=True)
    manifest = {
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "numpy": np.__version__,
        "calibration_samples": CALIBRATION_SAMPLES,
        "models": {},
    }
    manifest_path = args.output / "suite.json"
    if args.only and manifest_path.exists():
        manifest["models"] = json.loads(manifest_path.read_text())["models"]
    for entry in SUITE:
        if args.only and entry.name not in args.only:
            continue
        data = convert(entry)
        if len(data) > MAX_MODEL_BYTES:
            raise SystemExit(f"{entry.name}: {len(data):,} bytes, over the suite's {MAX_MODEL_BYTES:,}-byte limit")
        path = args.output / f"{entry.name}.tflite"
        path.write_bytes(data)
        manifest["models"][entry.name] = {
            "description": entry.description,
            "seed": entry.seed,
            "calibration_input_range": list(entry.input_range),
            "weights": "per-channel" if entry.per_channel else "per-tensor",
            "activations": "int16" if entry.activations_int16 else "int8",
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        print(f"{entry.name}: {len(data):,} bytes")
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
