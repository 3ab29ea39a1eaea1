# SPDX-License-Identifier: Apache-2.0
"""What the operator folders' kernel-test cases (python/opbridge/ops/<op>/kernel_cases.py) are made of.

Each folder's kernel_cases.py maps its operators to KernelCases: a case builder that draws one node
of the operator for a dtype path from a seeded generator (cc/kernels/kernel_tests/kernel_cases.py
draws the per-kernel golden test's graph with it), and what the schema alone does not say about which
dtype paths to test. Here: the node and tensor specs, the drawing helpers, and the builders several
operators share (element-wise binary, pooling, convolution, ...).
"""

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Activation, Padding, Requantization
from opbridge.ops.definition import OperatorDefinition
from opbridge.schemas.schema import SameAsInput

from opbridge_testing.operators import available_operator_registry

REGISTRY = available_operator_registry()


@dataclasses.dataclass(frozen=True)
class DTypePath:
    """The element type a node reads and the one it writes."""

    source: DType
    target: DType

    def describe(self) -> str:
        same = self.source is self.target
        return self.source.value if same else f"{self.source.value}_to_{self.target.value}"


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    """A node input: a run-time graph input, or a constant (`data`)."""

    name: str
    dtype: DType
    shape: tuple[int, ...]
    quantization: Quantization | None = None
    data: np.ndarray | None = None
    # A variable tensor (SVDF's state): neither a graph input nor a constant.
    is_variable: bool = False


@dataclasses.dataclass(frozen=True)
class NodeSpec:
    """One drawn node; the output's dtype and shape come from the operator's schema."""

    inputs: Sequence[TensorSpec | None]
    attributes: Any = None
    output_quantization: Quantization | None = None


class InvalidDrawError(Exception):
    """The drawn parameters make no valid node (e.g. an empty output); draw again."""


# One node of an operator: (seeded generator, dtype path, variant) -> the node.
CaseBuilder = Callable[[np.random.Generator, DTypePath, int], NodeSpec]


@dataclasses.dataclass(frozen=True)
class KernelCases:
    """One operator's kernel-test cases: its case builder, and which dtype paths beyond the schema's
    int8, int32 and float32 ones to test."""

    build: CaseBuilder
    # Test the int16 paths too (TFLite's 16x8 quantization), after the others so that adding them left the
    # other paths' draws as they were; other operators' schemas may allow int16 without a builder that draws it.
    int16: bool = False
    # The input whose dtype is the path's source (SPLIT's first input is its axis).
    data_input: int = 0
    # For an operator whose input and output type variables differ but whose inference takes only some of
    # the pairs its constraints allow: the mixed pairs it takes (pairs of one dtype are always kept).
    mixed_paths: frozenset[tuple[DType, DType]] | None = None
    # For an operator whose inference refuses some pairs of one dtype too: exactly the pairs it takes
    # (QUANTIZE: TFLite Micro's pairs, which requantize int8 to int8 but not int32 to int32).
    only_paths: frozenset[tuple[DType, DType]] | None = None


def has_attributes(op_type: str) -> bool:
    schema = REGISTRY[op_type].schema
    return schema is not None and schema.attributes_class is not None


def attributes(op_type: str, **fields: Any) -> Any:
    """The operator's attributes (its schema's attribute class, wherever the op keeps it)."""
    schema = REGISTRY[op_type].schema
    if schema is None or schema.attributes_class is None:
        raise ValueError(f"{op_type} has no attribute class")
    return schema.attributes_class(**fields)


# -- drawing ---------------------------------------------------------------------------


def draw_shape(rng: np.random.Generator, min_rank: int, max_rank: int, max_size: int = 5) -> tuple[int, ...]:
    rank = int(rng.integers(min_rank, max_rank, endpoint=True))
    return tuple(int(size) for size in rng.integers(1, max_size, size=rank, endpoint=True))


def draw_scale(rng: np.random.Generator, low: float, high: float) -> float:
    """A float32 scale, log-uniform between low and high."""
    return float(np.float32(math.exp(rng.uniform(math.log(low), math.log(high)))))


def per_tensor(rng: np.random.Generator, low: float = 1e-3, high: float = 0.5) -> Quantization:
    return Quantization((draw_scale(rng, low, high),), (int(rng.integers(-128, 127, endpoint=True)),))


def int16_symmetric(rng: np.random.Generator, low: float = 1e-5, high: float = 1e-2) -> Quantization:
    """int16 activations as TFLite's converter quantizes them for 16x8 models: zero point 0, one scale."""
    return Quantization((draw_scale(rng, low, high),), (0,))


def int32_quantization(
    role: str, draw_scale: Callable[[float, float], float], draw_integer: Callable[[int, int], int]
) -> Quantization:
    """An int32 tensor's quantization as QUANTIZE's tests draw it (its op test with hypothesis, its kernel
    cases with a seeded generator: each passes its own drawers, of a float32 scale log-uniform between two
    bounds and of an integer between two bounds, both included): small scales, as an "input" holds
    accumulator-like values over its whole range and an output gets a finer scale than its int8 or int16
    input, and a zero point in [-100, 100]."""
    low, high = (1e-10, 1e-7) if role == "input" else (1e-7, 1e-3)
    scale = draw_scale(low, high)
    return Quantization((scale,), (draw_integer(-100, 100),))


def symmetric_filter(rng: np.random.Generator, channels: int, axis: int, per_channel: bool) -> Quantization:
    """int8 filter quantization: zero points 0, one scale or one per channel along `axis`."""
    if not per_channel or channels == 1:
        return Quantization((draw_scale(rng, 1e-3, 0.05),), (0,))
    return Quantization(tuple(draw_scale(rng, 1e-3, 0.05) for _ in range(channels)), (0,) * channels, axis)


def values(rng: np.random.Generator, dtype: DType, shape: tuple[int, ...]) -> np.ndarray:
    """Constant data: standard normal (float32) or uniform over the dtype's range."""
    if dtype is DType.FLOAT32:
        return rng.standard_normal(shape).astype(np.float32)
    info = np.iinfo(dtype.numpy)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype.numpy)


def draw_activation(rng: np.random.Generator) -> Activation:
    return list(Activation)[int(rng.integers(len(Activation)))]


def int32_constant(name: str, data: Sequence[int] | np.ndarray) -> TensorSpec:
    array = np.asarray(data, dtype=np.int32)
    return TensorSpec(name, DType.INT32, array.shape, data=array)


# -- case builders several operators share -------------------------------------------------


def binary(op_type: str, rescales: bool = False) -> CaseBuilder:
    """Two inputs of rank 1 to 4 that keep or broadcast each dimension; input b sometimes a constant (and then,
    for int32, input a whole and b one value or whole: the flat forms). int8:
    each tensor its own quantization when the kernel `rescales` each input (TFLite's quantized ADD, SUB, MUL),
    else one for all three (MINIMUM and MAXIMUM compare stored values)."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        dtype = path.source
        shape = draw_shape(rng, 1, 4, 4)
        first = tuple(size if rng.random() < 0.6 else 1 for size in shape)
        second = tuple(size if rng.random() < 0.6 else 1 for size in shape)
        if dtype is DType.INT16:
            # 16x8 (ADD only): symmetric inputs, the output's scale at least the larger input's.
            first_q, second_q = int16_symmetric(rng), int16_symmetric(rng)
            larger = max(first_q.scale, second_q.scale)
            quantizations = (first_q, second_q, Quantization((larger * float(rng.uniform(1.0, 8.0)),), (0,)))
        elif dtype is DType.INT8 and rescales:
            quantizations = (per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.01, 1.0))
        elif dtype is DType.INT8:
            shared = per_tensor(rng)
            quantizations = (shared, shared, shared)
        else:
            quantizations = (None, None, None)
        # int32's variant 1: the flat forms the kernels' fast paths take (a whole, b one value or whole too);
        # no draw is added, so the other paths' nodes stay those drawn before.
        flat = dtype is DType.INT32 and variant == 1
        first = shape if flat else first
        a = TensorSpec("a", dtype, first, quantizations[0])
        if variant == 1:
            second = () if rng.random() < 0.5 else (shape if flat else second)
            b = TensorSpec("b", dtype, second, quantizations[1], values(rng, dtype, second))
        else:
            b = TensorSpec("b", dtype, second, quantizations[1])
        # ADD, SUB, MUL and DIV fuse an activation; MINIMUM and MAXIMUM have no attributes.
        node_attributes = attributes(op_type, activation=draw_activation(rng)) if has_attributes(op_type) else None
        return NodeSpec([a, b], node_attributes, quantizations[2])

    return build


def pool_2d(op_type: str) -> CaseBuilder:
    """AVERAGE_POOL_2D or MAX_POOL_2D on 1xHxWxC, SAME padding (variant 0) or VALID; int8
    AVERAGE_POOL_2D's variant 1 a global average over 17x16 pixels."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        quantization = per_tensor(rng) if path.source is DType.INT8 else None  # TFLite: equal in and out
        if op_type == "AVERAGE_POOL_2D" and path.source is DType.INT8 and variant == 1:
            # A global average of 272 pixels after a RELU (zero point -128), 4 channels and 2 more:
            # more pixels than the DSP variant sums in int16 lanes (256) before widening to int32.
            assert quantization is not None
            relu_output = Quantization(quantization.scales, (-128,))
            node_attributes = attributes(
                op_type,
                padding=Padding.VALID,
                stride_height=1,
                stride_width=1,
                filter_height=17,
                filter_width=16,
                activation=Activation.NONE,
            )
            return NodeSpec(
                [TensorSpec("input", path.source, (1, 17, 16, 6), relu_output)], node_attributes, relu_output
            )
        shape = (1, *(int(size) for size in rng.integers(1, 9, size=2, endpoint=True)), int(rng.integers(1, 4)))
        node_attributes = attributes(
            op_type,
            padding=(Padding.SAME, Padding.VALID)[variant % 2],
            stride_height=int(rng.integers(1, 3, endpoint=True)),
            stride_width=int(rng.integers(1, 3, endpoint=True)),
            filter_height=int(rng.integers(1, 4, endpoint=True)),
            filter_width=int(rng.integers(1, 4, endpoint=True)),
            activation=draw_activation(rng),
        )
        return NodeSpec([TensorSpec("input", path.source, shape, quantization)], node_attributes, quantization)

    return build


def convolution(op_type: str) -> CaseBuilder:
    """CONV_2D or DEPTHWISE_CONV_2D: int8 with TFLite (variant 0) or ONNX (variant 1) requantization,
    per-tensor or per-channel filters; float32 with a bias (variant 0) or without."""
    depthwise = op_type == "DEPTHWISE_CONV_2D"

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        dtype = path.source
        height, width = (int(size) for size in rng.integers(1, 9, size=2, endpoint=True))
        in_channels = int(rng.integers(1, 4, endpoint=True))
        multiplier = int(rng.integers(1, 3, endpoint=True)) if depthwise else 1
        out_channels = in_channels * multiplier if depthwise else int(rng.integers(1, 5, endpoint=True))
        filter_height, filter_width = (int(size) for size in rng.integers(1, 3, size=2, endpoint=True))
        fields: dict[str, Any] = {
            "padding": (Padding.SAME, Padding.VALID)[int(rng.integers(2))],
            "stride_height": int(rng.integers(1, 2, endpoint=True)),
            "stride_width": int(rng.integers(1, 2, endpoint=True)),
            "dilation_height": int(rng.integers(1, 2, endpoint=True)),
            "dilation_width": int(rng.integers(1, 2, endpoint=True)),
            "activation": draw_activation(rng),
        }
        if depthwise:
            fields["depth_multiplier"] = multiplier
        filter_shape = (
            (1, filter_height, filter_width, out_channels)
            if depthwise
            else (out_channels, filter_height, filter_width, in_channels)
        )
        input_shape = (1, height, width, in_channels)
        if dtype is DType.FLOAT32:
            bias = TensorSpec("bias", dtype, (out_channels,), data=values(rng, dtype, (out_channels,)))
            inputs = [
                TensorSpec("input", dtype, input_shape),
                TensorSpec("filter", dtype, filter_shape, data=values(rng, dtype, filter_shape)),
                bias if variant == 0 else None,
            ]
            return NodeSpec(inputs, attributes(op_type, **fields))
        fields["requantization"] = (Requantization.TFLITE, Requantization.ONNX)[variant % 2]
        input_q = per_tensor(rng)
        filter_q = symmetric_filter(rng, out_channels, 3 if depthwise else 0, per_channel=rng.random() < 0.5)
        bias_scales = tuple(input_q.scale * scale for scale in filter_q.scales)
        bias_q = Quantization(bias_scales, (0,) * len(bias_scales), 0 if len(bias_scales) > 1 else None)
        bias_data = rng.integers(-20000, 20000, size=(out_channels,)).astype(np.int32)
        filter_data = rng.integers(-127, 127, size=filter_shape, endpoint=True).astype(np.int8)
        inputs = [
            TensorSpec("input", dtype, input_shape, input_q),
            TensorSpec("filter", dtype, filter_shape, filter_q, filter_data),
            TensorSpec("bias", DType.INT32, (out_channels,), bias_q, bias_data),
        ]
        return NodeSpec(inputs, attributes(op_type, **fields), per_tensor(rng, 0.01, 2.0))

    return build


def saturating(op_type: str, int8_output: Quantization) -> CaseBuilder:
    """LOGISTIC or TANH: int8 writes the fixed `int8_output` quantization (TFLite's)."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 3, 6)
        if path.source is DType.FLOAT32:
            return NodeSpec([TensorSpec("input", path.source, shape)])
        input_q = per_tensor(rng, 0.002, 0.5)
        return NodeSpec([TensorSpec("input", path.source, shape, input_q)], None, int8_output)

    return build


def pad(op_type: str) -> CaseBuilder:
    """PAD, or PADV2 with a constant pad value (variant 0) or without one."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        dtype = path.source
        shape = draw_shape(rng, 1, 4)
        paddings = rng.integers(0, 2, size=(len(shape), 2), endpoint=True)
        quantization = per_tensor(rng) if dtype is DType.INT8 else None
        inputs: list[TensorSpec | None] = [
            TensorSpec("input", dtype, shape, quantization),
            int32_constant("paddings", paddings),
        ]
        if op_type == "PADV2" and variant == 0:
            inputs.append(TensorSpec("constant_values", dtype, (1,), quantization, values(rng, dtype, (1,))))
        return NodeSpec(inputs, None, quantization)

    return build


def is_elementwise_unary(definition: OperatorDefinition) -> bool:
    """One tensor in, one of the same dtype and shape out (the schema's shape rule is same_as_input)."""
    schema = definition.schema
    return (
        schema is not None
        and len(schema.inputs) == 1
        and len(schema.outputs) == 1
        and schema.inputs[0].type_var == schema.outputs[0].type_var
        and isinstance(schema.infer, SameAsInput)
        and schema.infer.position == 0
    )


def elementwise_unary(op_type: str) -> CaseBuilder:
    """Any operator whose schema takes one tensor and gives one of its dtype and shape, with its
    attributes' defaults: int8 nodes get their own output quantization (the activations' kernel_cases.py)."""
    if not is_elementwise_unary(REGISTRY[op_type]):
        raise ValueError(f"{op_type} is not a one-input element-wise operator; give it a case builder of its own")

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 4, 6)
        node_attributes = attributes(op_type) if has_attributes(op_type) else None
        if path.source is not DType.INT8:
            return NodeSpec([TensorSpec("input", path.source, shape)], node_attributes)
        input_q, output_q = per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.005, 0.5)
        return NodeSpec([TensorSpec("input", path.source, shape, input_q)], node_attributes, output_q)

    return build


def relu(op_type: str) -> CaseBuilder:
    """RELU or RELU6."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 4, 6)
        if path.source is DType.FLOAT32:
            return NodeSpec([TensorSpec("input", path.source, shape)])
        input_q = per_tensor(rng, 0.005, 0.5)
        # TFLite's RELU6 keeps the input's quantization; RELU rescales.
        output_q = input_q if op_type == "RELU6" else per_tensor(rng, 0.005, 0.5)
        return NodeSpec([TensorSpec("input", path.source, shape, input_q)], None, output_q)

    return build


def resize(op_type: str) -> CaseBuilder:
    """RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR to a drawn constant size (up or down), align_corners on
    variant 0, half_pixel_centers on variant 1; int8 keeps one quantization."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        n, h, w, c = (int(v) for v in rng.integers(1, 5, size=4, endpoint=True))
        size = [int(v) for v in rng.integers(1, 9, size=2, endpoint=True)]
        quantization = per_tensor(rng, 0.01, 0.5) if path.source is DType.INT8 else None
        options = attributes(op_type, align_corners=variant == 0, half_pixel_centers=variant == 1)
        inputs = [TensorSpec("input", path.source, (n, h, w, c), quantization), int32_constant("size", size)]
        return NodeSpec(inputs, options, quantization)

    return build


def arg_min_max(op_type: str) -> CaseBuilder:
    """ARG_MAX or ARG_MIN along a drawn axis (negative on variant 1); int8 with any quantization (stored
    values are compared)."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 4, 6)
        rank = len(shape)
        axis = int(rng.integers(0, rank)) - (rank if variant == 1 else 0)
        quantization = per_tensor(rng, 0.01, 0.5) if path.source is DType.INT8 else None
        inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("axis", [axis])]
        return NodeSpec(inputs, attributes(op_type, output_type=path.target))

    return build


def depth_space(op_type: str) -> CaseBuilder:
    """DEPTH_TO_SPACE or SPACE_TO_DEPTH with block 2 (variant 0) or 3 on a shape it fits; int8 keeps one
    quantization."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        block = 2 + variant
        n, h, w, c = (int(v) for v in rng.integers(1, 4, size=4))
        shape = (n, h, w, c * block * block) if op_type == "DEPTH_TO_SPACE" else (n, h * block, w * block, c)
        quantization = per_tensor(rng, 0.01, 0.5) if path.source is DType.INT8 else None
        return NodeSpec(
            [TensorSpec("input", path.source, shape, quantization)], attributes(op_type, block_size=block), quantization
        )

    return build
