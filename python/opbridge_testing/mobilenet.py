# SPDX-License-Identifier: Apache-2.0
"""A MobileNet-v1 as an int8 LiteRT model with seeded random weights.

The shape of TFLite Micro's person-detection model (alpha 0.25, 96x96x1
input, 2 classes): a 3x3 stride-2 convolution, 13 depthwise-separable
blocks, average pooling, a 1x1 convolution as the classifier, softmax.
Written with LiteRT's own schema bindings (no TensorFlow on our machines).

`//tests/models:test_models` writes it (tests/models/make_models.py).

Quantization follows TFLite's int8 scheme: per-channel symmetric weights,
int32 biases at input scale x weight scale, asymmetric activations. The
output scales are set from the expected spread of each layer's output
(weights uniform in [-1, 1], so a sum of K products grows like sqrt(K)), so
that activations use the int8 range rather than saturating.
"""

import math

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

# (stride, output channels at alpha 1) of the 13 depthwise-separable blocks.
BLOCKS = [(1, 64), (2, 128), (1, 128), (2, 256), (1, 256), (2, 512)] + [(1, 512)] * 5 + [(2, 1024), (1, 1024)]


class ModelWriter:
    """Tensors, buffers and operators of one subgraph, packed into .tflite bytes."""

    def __init__(self) -> None:
        self.buffers = [schema.BufferT()]
        self.tensors: list[schema.TensorT] = []
        self.operators: list[schema.OperatorT] = []
        self.codes: list[tuple[int, int]] = []

    def tensor(
        self,
        name: str,
        shape: list[int],
        tensor_type: int,
        scales: list[float],
        zero_points: list[int],
        data: np.ndarray | None = None,
        axis: int = 0,
        is_variable: bool = False,
    ) -> int:
        packed = schema.TensorT()
        packed.name = name
        packed.shape = shape
        packed.type = tensor_type
        packed.buffer = 0
        packed.isVariable = is_variable
        if data is not None:
            buffer = schema.BufferT()
            buffer.data = np.ascontiguousarray(data).tobytes()
            self.buffers.append(buffer)
            packed.buffer = len(self.buffers) - 1
        quantization = schema.QuantizationParametersT()
        quantization.scale = scales
        quantization.zeroPoint = zero_points
        quantization.quantizedDimension = axis
        packed.quantization = quantization
        self.tensors.append(packed)
        return len(self.tensors) - 1

    def operator(
        self, code: int, version: int, inputs: list[int], outputs: list[int], options_type: int, options: object
    ) -> None:
        if (code, version) not in self.codes:
            self.codes.append((code, version))
        operator = schema.OperatorT()
        operator.opcodeIndex = self.codes.index((code, version))
        operator.inputs = inputs
        operator.outputs = outputs
        operator.builtinOptionsType = options_type
        operator.builtinOptions = options
        self.operators.append(operator)

    def subgraph(self, inputs: list[int], outputs: list[int], name: str = "main") -> schema.SubGraphT:
        """This writer's tensors and operators as a subgraph."""
        subgraph = schema.SubGraphT()
        subgraph.tensors, subgraph.operators = self.tensors, self.operators
        subgraph.inputs, subgraph.outputs, subgraph.name = inputs, outputs, name
        return subgraph

    def model_bytes(self, subgraphs: list[schema.SubGraphT], description: str) -> bytes:
        """A LiteRT file of `subgraphs` with this writer's operator codes and buffers."""
        model = schema.ModelT()
        model.version = 3
        model.operatorCodes = []
        for code, version in self.codes:
            operator_code = schema.OperatorCodeT()
            operator_code.builtinCode = code
            operator_code.deprecatedBuiltinCode = min(code, 127)
            operator_code.version = version
            model.operatorCodes.append(operator_code)
        model.subgraphs = subgraphs
        model.buffers = self.buffers
        model.description = description
        builder = flatbuffers.Builder(1024)
        builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())

    def finish(self, inputs: list[int], outputs: list[int], description: str) -> bytes:
        return self.model_bytes([self.subgraph(inputs, outputs)], description)


class Activation:
    """An int8 activation tensor and the spread (standard deviation) of its real values."""

    def __init__(self, index: int, shape: list[int], scale: float, zero_point: int, spread: float) -> None:
        self.index, self.shape, self.scale, self.zero_point, self.spread = index, shape, scale, zero_point, spread


def _relu_output(writer: ModelWriter, name: str, shape: list[int], spread: float) -> Activation:
    # ReLU outputs in [0, 6 sigma] over the whole int8 range: zero point -128.
    scale = 6.0 * spread / 255.0
    index = writer.tensor(name, shape, schema.TensorType.INT8, [scale], [-128])
    return Activation(index, shape, scale, -128, spread * math.sqrt(0.5))


def convolution(
    writer: ModelWriter,
    rng: np.random.Generator,
    name: str,
    source: Activation,
    channels: int,
    kernel: int,
    stride: int,
    depthwise: bool,
    relu: bool = True,
) -> Activation:
    height, width, depth = source.shape[1:]
    out_height, out_width = -(-height // stride), -(-width // stride)  # SAME padding
    if depthwise:
        channels = depth
        filter_shape = [1, kernel, kernel, depth]
        taps = kernel * kernel
    else:
        filter_shape = [channels, kernel, kernel, depth]
        taps = kernel * kernel * depth
    weights = rng.integers(-127, 128, size=filter_shape, dtype=np.int8)
    weight_scales = [1.0 / 127.0] * channels
    axis = 3 if depthwise else 0
    filter_index = writer.tensor(
        f"{name}/weights", filter_shape, schema.TensorType.INT8, weight_scales, [0] * channels, weights, axis
    )
    bias_scales = [source.scale * s for s in weight_scales]
    bias = rng.integers(-256, 257, size=channels, dtype=np.int32)
    bias_index = writer.tensor(f"{name}/bias", [channels], schema.TensorType.INT32, bias_scales, [0] * channels, bias)
    # Real weights are uniform in [-1, 1] (standard deviation 1/sqrt(3)).
    spread = max(source.spread * math.sqrt(taps / 3.0), 1e-3)
    shape = [1, out_height, out_width, channels]
    if relu:
        output = _relu_output(writer, name, shape, spread)
    else:
        scale = 8.0 * spread / 255.0
        output = Activation(writer.tensor(name, shape, schema.TensorType.INT8, [scale], [0]), shape, scale, 0, spread)
    activation = schema.ActivationFunctionType.RELU if relu else schema.ActivationFunctionType.NONE
    if depthwise:
        options = schema.DepthwiseConv2DOptionsT()
        options.depthMultiplier = 1
        code, version, options_type = (
            schema.BuiltinOperator.DEPTHWISE_CONV_2D,
            3,
            schema.BuiltinOptions.DepthwiseConv2DOptions,
        )
    else:
        options = schema.Conv2DOptionsT()
        code, version, options_type = schema.BuiltinOperator.CONV_2D, 3, schema.BuiltinOptions.Conv2DOptions
    options.padding = schema.Padding.SAME
    options.strideW = options.strideH = stride
    options.dilationWFactor = options.dilationHFactor = 1
    options.fusedActivationFunction = activation
    writer.operator(code, version, [source.index, filter_index, bias_index], [output.index], options_type, options)
    return output


def add(writer: ModelWriter, first: Activation, second: Activation, zero_point: int) -> int:
    """ADD of two int8 activations of one shape into a tensor "sum" at twice the larger scale."""
    scale = 2 * max(first.scale, second.scale)
    output = writer.tensor("sum", first.shape, schema.TensorType.INT8, [scale], [zero_point])
    options = schema.AddOptionsT()
    options.fusedActivationFunction = schema.ActivationFunctionType.NONE
    writer.operator(
        schema.BuiltinOperator.ADD,
        1,
        [first.index, second.index],
        [output],
        schema.BuiltinOptions.AddOptions,
        options,
    )
    return output


def mobilenet_v1(
    alpha: float = 0.25,
    size: int = 96,
    channels: int = 1,
    classes: int = 2,
    seed: int = 0,
) -> bytes:
    """The model's .tflite bytes; the same arguments give the same bytes."""
    rng = np.random.default_rng(seed)
    writer = ModelWriter()
    input_shape = [1, size, size, channels]
    # Inputs in [-1, 1): scale 1/128, zero point 0, like an image normalised to that range.
    image = Activation(
        writer.tensor("input", input_shape, schema.TensorType.INT8, [1.0 / 128.0], [0]),
        input_shape,
        1.0 / 128.0,
        0,
        0.577,
    )
    width = max(8, int(32 * alpha))
    x = convolution(writer, rng, "conv_0", image, width, 3, 2, depthwise=False)
    for block, (stride, filters) in enumerate(BLOCKS, start=1):
        x = convolution(writer, rng, f"block_{block}/depthwise", x, 0, 3, stride, depthwise=True)
        x = convolution(writer, rng, f"block_{block}/pointwise", x, max(8, int(filters * alpha)), 1, 1, False)

    pooled_shape = [1, 1, 1, x.shape[3]]
    pooled = Activation(
        writer.tensor("pool", pooled_shape, schema.TensorType.INT8, [x.scale], [x.zero_point]),
        pooled_shape,
        x.scale,
        x.zero_point,
        x.spread,
    )
    options = schema.Pool2DOptionsT()
    options.padding = schema.Padding.VALID
    options.strideW = options.strideH = 1
    options.filterWidth, options.filterHeight = x.shape[2], x.shape[1]
    options.fusedActivationFunction = schema.ActivationFunctionType.NONE
    writer.operator(
        schema.BuiltinOperator.AVERAGE_POOL_2D,
        2,
        [x.index],
        [pooled.index],
        schema.BuiltinOptions.Pool2DOptions,
        options,
    )
    logits = convolution(writer, rng, "classifier", pooled, classes, 1, 1, depthwise=False, relu=False)

    shape_index = writer.tensor(
        "classifier/shape", [2], schema.TensorType.INT32, [], [], np.array([1, classes], dtype=np.int32)
    )
    flat = writer.tensor("logits", [1, classes], schema.TensorType.INT8, [logits.scale], [logits.zero_point])
    reshape_options = schema.ReshapeOptionsT()
    reshape_options.newShape = [1, classes]
    writer.operator(
        schema.BuiltinOperator.RESHAPE,
        1,
        [logits.index, shape_index],
        [flat],
        schema.BuiltinOptions.ReshapeOptions,
        reshape_options,
    )
    probabilities = writer.tensor("probabilities", [1, classes], schema.TensorType.INT8, [1.0 / 256.0], [-128])
    softmax_options = schema.SoftmaxOptionsT()
    softmax_options.beta = 1.0
    writer.operator(
        schema.BuiltinOperator.SOFTMAX,
        2,
        [flat],
        [probabilities],
        schema.BuiltinOptions.SoftmaxOptions,
        softmax_options,
    )
    description = f"opbridge MobileNet-v1 alpha {alpha} {size}x{size}x{channels}, random weights (seed {seed})"
    return writer.finish([image.index], [probabilities], description)
