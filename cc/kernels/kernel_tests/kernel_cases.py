# SPDX-License-Identifier: Apache-2.0
"""Seeded graphs of one operator each, for the per-kernel golden tests (cc/kernels/BUILD.bazel).

`operator_graph(op_type)` builds, for one built-in operator, a graph of
independent nodes of that operator only: NODES_PER_PATH nodes for each
dtype path its schema allows among int8, int32 and float32 (CAST, QUANTIZE
and DEQUANTIZE: each allowed input and output pair), and int16 for the operators
in INT16_OPERATORS (TFLite's 16x8 quantization), whose int16 paths come after the
others so that adding them left the other paths' draws as they were. Shapes, quantization
and attributes come from a generator seeded by the operator's name, so a
graph changes only when this file does. generate.py emits each graph as a
C module with its golden test (expected outputs from the NumPy reference).

The operators are the registry's (opbridge.ops.builtin.BUILTIN_OPERATORS);
kernel_cases_test.py fails when an operator has no entry in CASES or when
operators.bzl (the names Bazel needs) drifts from the registry.
"""

import dataclasses
import math
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import Activation, Padding, Requantization
from opbridge.ops.builtin import BUILTIN_OPERATORS, build_builtin_registry
from opbridge.ops.definition import OperatorDefinition
from opbridge.schemas.schema import InferenceContext, InputInfo, ShapeInferenceError
from opbridge_testing.single_op import GraphBuilder

REGISTRY = build_builtin_registry()
# The element types the kernels take; an operator is tested on those its schema allows.
KERNEL_DTYPES = (DType.INT8, DType.INT32, DType.FLOAT32)
# Operators whose int16 kernels (16x8 quantization) are tested too; other operators' schemas may allow int16 without
# a case builder that draws it.
INT16_OPERATORS = frozenset(
    {"ADD", "DEQUANTIZE", "FULLY_CONNECTED", "QUANTIZE", "SOFTMAX", "UNIDIRECTIONAL_SEQUENCE_LSTM"}
)
# Nodes per dtype path; case builders use the node's variant (0 or 1) to cover both settings of a
# two-way attribute (requantization, bias present or not, PAD or PADV2).
NODES_PER_PATH = 2
# Draws of one node until its shapes are valid (non-empty output) before giving up.
MAX_DRAWS = 100


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


def operator_seed(op_type: str) -> int:
    """The seed of an operator's graph (a CRC of its name: stable across runs and machines)."""
    return zlib.crc32(op_type.encode())


# Operators whose data input is not their first (SPLIT's first input is its axis).
DATA_INPUT = {"SPLIT": 1}


# Operators whose input and output type variables differ but whose inference takes only some of the pairs their
# constraints allow: the mixed pairs they take (pairs of one dtype are always kept). SOFTMAX writes int16 from int8
# (int16_output) and otherwise its input's dtype.
MIXED_PATHS = {"SOFTMAX": frozenset({(DType.INT8, DType.INT16)})}


def dtype_paths(definition: OperatorDefinition) -> list[DTypePath]:
    """The kernel dtype paths of an operator, from its schema's type constraints."""
    schema = definition.schema
    if schema is None:
        raise ValueError(f"{definition.op_type} has no schema to read its dtypes from")
    paths = schema_paths(definition, KERNEL_DTYPES)
    if definition.op_type in INT16_OPERATORS:
        paths += [path for path in schema_paths(definition, (*KERNEL_DTYPES, DType.INT16)) if path not in paths]
    mixed = MIXED_PATHS.get(definition.op_type)
    if mixed is not None:
        paths = [path for path in paths if path.source is path.target or (path.source, path.target) in mixed]
    return paths


def schema_paths(definition: OperatorDefinition, dtypes: Sequence[DType]) -> list[DTypePath]:
    """The paths among `dtypes` that the operator's schema allows."""
    schema = definition.schema
    assert schema is not None
    data_input = schema.inputs[DATA_INPUT.get(definition.op_type, 0)]
    source_var, target_var = data_input.type_var, schema.outputs[0].type_var
    sources = [d for d in dtypes if d in schema.constraint(source_var).allowed]
    if source_var == target_var:
        return [DTypePath(d, d) for d in sources]
    targets = [d for d in dtypes if d in schema.constraint(target_var).allowed]
    return [DTypePath(source, target) for source in sources for target in targets]


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


# -- one case builder per operator ---------------------------------------------------------

# Element-wise binary operators whose int8 kernels rescale each input (TFLite's quantized ADD, SUB, MUL).
RESCALING_BINARY = ("ADD", "SUB", "MUL")


def binary(op_type: str) -> CaseBuilder:
    """Two inputs of rank 1 to 4 that keep or broadcast each dimension; input b sometimes a constant."""

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
        elif dtype is DType.INT8 and op_type in RESCALING_BINARY:
            quantizations = (per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.01, 1.0))
        elif dtype is DType.INT8:
            # MINIMUM and MAXIMUM compare stored values: one quantization for all three.
            shared = per_tensor(rng)
            quantizations = (shared, shared, shared)
        else:
            quantizations = (None, None, None)
        a = TensorSpec("a", dtype, first, quantizations[0])
        if variant == 1:
            second = () if rng.random() < 0.5 else second
            b = TensorSpec("b", dtype, second, quantizations[1], values(rng, dtype, second))
        else:
            b = TensorSpec("b", dtype, second, quantizations[1])
        # ADD, SUB, MUL and DIV fuse an activation; MINIMUM and MAXIMUM have no attributes.
        node_attributes = attributes(op_type, activation=draw_activation(rng)) if has_attributes(op_type) else None
        return NodeSpec([a, b], node_attributes, quantizations[2])

    return build


def pool_2d(op_type: str) -> CaseBuilder:
    """AVERAGE_POOL_2D or MAX_POOL_2D on 1xHxWxC, SAME padding (variant 0) or VALID."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        quantization = per_tensor(rng) if path.source is DType.INT8 else None  # TFLite: equal in and out
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


def cast(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = draw_shape(rng, 1, 4, 6)
    return NodeSpec([TensorSpec("input", path.source, shape)], attributes("CAST", out_data_type=path.target))


def concatenation(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    dtype = path.source
    shape = draw_shape(rng, 1, 4, 4)
    axis = int(rng.integers(-len(shape), len(shape)))
    quantization = per_tensor(rng) if dtype is DType.INT8 else None  # TFLite: one quantization for all
    inputs = []
    for position in range(int(rng.integers(1, 4, endpoint=True))):
        input_shape = list(shape)
        input_shape[axis] = int(rng.integers(1, 5, endpoint=True))
        constant = position > 0 and variant == 1 and rng.random() < 0.5
        data = values(rng, dtype, tuple(input_shape)) if constant else None
        inputs.append(TensorSpec(f"input_{position}", dtype, tuple(input_shape), quantization, data))
    return NodeSpec(inputs, attributes("CONCATENATION", axis=axis), quantization)


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


def dequantize(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    quantization = int16_symmetric(rng) if path.source is DType.INT16 else per_tensor(rng, 0.005, 0.5)
    return NodeSpec([TensorSpec("input", path.source, draw_shape(rng, 1, 3, 6), quantization)])


def fully_connected(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """int8 with TFLite (variant 0) or ONNX (variant 1) requantization; float32 keeping the
    leading dimensions (variant 0) or flattening them."""
    dtype = path.source
    depth, units = int(rng.integers(1, 24, endpoint=True)), int(rng.integers(1, 12, endpoint=True))
    if dtype is DType.FLOAT32:
        leading = draw_shape(rng, 1, 3, 3)
        inputs = [
            TensorSpec("input", dtype, (*leading, depth)),
            TensorSpec("filter", dtype, (units, depth), data=values(rng, dtype, (units, depth))),
            TensorSpec("bias", dtype, (units,), data=values(rng, dtype, (units,))) if rng.random() < 0.5 else None,
        ]
        node_attributes = attributes(
            "FULLY_CONNECTED", activation=draw_activation(rng), keep_num_dims=variant == 0 and len(leading) > 1
        )
        return NodeSpec(inputs, node_attributes)
    if dtype is DType.INT16:
        return fully_connected_int16(rng, depth, units, variant)
    batches = int(rng.integers(1, 3, endpoint=True))
    input_q = per_tensor(rng)
    filter_q = symmetric_filter(rng, units, 0, per_channel=rng.random() < 0.5)
    bias_q = Quantization(tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis)
    filter_data = rng.integers(-127, 127, size=(units, depth), endpoint=True).astype(np.int8)
    bias_data = rng.integers(-20000, 20000, size=(units,)).astype(np.int32)
    inputs = [
        TensorSpec("input", dtype, (batches, depth), input_q),
        TensorSpec("filter", dtype, (units, depth), filter_q, filter_data),
        TensorSpec("bias", DType.INT32, (units,), bias_q, bias_data) if rng.random() < 0.7 else None,
    ]
    node_attributes = attributes(
        "FULLY_CONNECTED",
        activation=draw_activation(rng),
        requantization=(Requantization.TFLITE, Requantization.ONNX)[variant % 2],
    )
    return NodeSpec(inputs, node_attributes, per_tensor(rng, 0.01, 2.0))


def fully_connected_int16(rng: np.random.Generator, depth: int, units: int, variant: int) -> NodeSpec:
    """16x8: int16 input and output (zero points 0), int8 symmetric weights, an int64 bias (variant 0, sometimes
    none) or an int32 one (variant 1)."""
    batches = int(rng.integers(1, 3, endpoint=True))
    input_q = int16_symmetric(rng)
    filter_q = symmetric_filter(rng, units, 0, per_channel=rng.random() < 0.5)
    bias_q = Quantization(tuple(input_q.scale * s for s in filter_q.scales), (0,) * len(filter_q.scales), filter_q.axis)
    filter_data = rng.integers(-127, 127, size=(units, depth), endpoint=True).astype(np.int8)
    bias_dtype = DType.INT64 if variant == 0 else DType.INT32
    bias_data = rng.integers(-(2**20), 2**20, size=(units,)).astype(bias_dtype.numpy)
    bias = TensorSpec("bias", bias_dtype, (units,), bias_q, bias_data)
    inputs = [
        TensorSpec("input", DType.INT16, (batches, depth), input_q),
        TensorSpec("filter", DType.INT8, (units, depth), filter_q, filter_data),
        bias if variant == 1 or rng.random() < 0.7 else None,
    ]
    node_attributes = attributes("FULLY_CONNECTED", activation=draw_activation(rng))
    return NodeSpec(inputs, node_attributes, int16_symmetric(rng, 1e-4, 1e-1))


# int8 LOGISTIC, TANH and SOFTMAX write fixed output quantizations (TFLite's).
FIXED_OUTPUTS = {
    "LOGISTIC": Quantization((1.0 / 256.0,), (-128,)),
    "TANH": Quantization((1.0 / 128.0,), (0,)),
    "SOFTMAX": Quantization((1.0 / 256.0,), (-128,)),
}
# int16 SOFTMAX's, and int8 -> int16 SOFTMAX's (TFLite Micro requires them).
INT16_SOFTMAX_OUTPUT = Quantization((1.0 / 32768.0,), (0,))
INT8_TO_INT16_SOFTMAX_OUTPUT = Quantization((1.0 / 65536.0,), (-32768,))


def saturating(op_type: str) -> CaseBuilder:
    """LOGISTIC or TANH."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 3, 6)
        if path.source is DType.FLOAT32:
            return NodeSpec([TensorSpec("input", path.source, shape)])
        input_q = per_tensor(rng, 0.002, 0.5)
        return NodeSpec([TensorSpec("input", path.source, shape, input_q)], None, FIXED_OUTPUTS[op_type])

    return build


def mean(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = draw_shape(rng, 1, 4, 6)
    rank = len(shape)
    # Axes sometimes negative, sometimes repeated (TFLite Micro resolves both).
    axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    quantized = path.source is DType.INT8
    inputs = [
        TensorSpec("input", path.source, shape, per_tensor(rng, 0.01, 0.5) if quantized else None),
        int32_constant("axes", axes),
    ]
    output_q = per_tensor(rng, 0.01, 0.5) if quantized else None
    return NodeSpec(inputs, attributes("MEAN", keep_dims=variant == 0), output_q)


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


def quantize(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """float32 to int8 or int16 rounding as TFLite (variant 0) or ONNX (variant 1); int8 or int16 to int8 or int16
    requantizes (int16 quantized as for 16x8 models: zero point 0)."""
    shape = draw_shape(rng, 1, 3, 6)
    input_q = None
    if path.source is DType.INT8:
        input_q = per_tensor(rng, 0.005, 0.5)
    elif path.source is DType.INT16:
        input_q = int16_symmetric(rng)
    requantization = (Requantization.TFLITE, Requantization.ONNX)[variant % 2]
    node_attributes = attributes("QUANTIZE", requantization=requantization, output_dtype=path.target)
    output_q = int16_symmetric(rng) if path.target is DType.INT16 else per_tensor(rng, 0.005, 0.5)
    return NodeSpec([TensorSpec("input", path.source, shape, input_q)], node_attributes, output_q)


def elementwise_unary(op_type: str) -> CaseBuilder:
    """Any operator whose schema takes one tensor and gives one of its dtype and shape, with its
    attributes' defaults: int8 nodes get their own output quantization. New activations need no entry
    in CASES (see case_builder)."""

    def build(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
        shape = draw_shape(rng, 1, 4, 6)
        node_attributes = attributes(op_type) if has_attributes(op_type) else None
        if path.source is not DType.INT8:
            return NodeSpec([TensorSpec("input", path.source, shape)], node_attributes)
        input_q, output_q = per_tensor(rng, 0.005, 0.5), per_tensor(rng, 0.005, 0.5)
        return NodeSpec([TensorSpec("input", path.source, shape, input_q)], node_attributes, output_q)

    return build


def is_elementwise_unary(definition: OperatorDefinition) -> bool:
    schema = definition.schema
    return (
        schema is not None
        and len(schema.inputs) == 1
        and len(schema.outputs) == 1
        and schema.inputs[0].type_var == schema.outputs[0].type_var
        and getattr(schema.infer, "__qualname__", "").startswith("same_as_input")
    )


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


def reshape(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """A reversed or flattened shape, as written with a -1 to infer (variant 1) or in full."""
    shape = draw_shape(rng, 1, 4)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    target = [int(np.prod(shape))] if rng.random() < 0.5 else list(reversed(shape))
    if variant == 1:
        target[int(rng.integers(len(target)))] = -1
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("shape", target)]
    return NodeSpec(inputs, None, quantization)


def softmax(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = (*draw_shape(rng, 0, 2, 3), int(rng.integers(1, 24, endpoint=True)))
    beta = float(rng.choice([1.0, 0.5, 2.0, 0.125]))
    if path.source is DType.FLOAT32:
        return NodeSpec([TensorSpec("input", path.source, shape)], attributes("SOFTMAX", beta=beta))
    if path.source is DType.INT16:
        input_q = int16_symmetric(rng, 1e-5, 3e-3)
        return NodeSpec(
            [TensorSpec("input", path.source, shape, input_q)], attributes("SOFTMAX", beta=beta), INT16_SOFTMAX_OUTPUT
        )
    input_q = per_tensor(rng, 0.01, 0.5)
    if path.target is DType.INT16:
        return NodeSpec(
            [TensorSpec("input", path.source, shape, input_q)],
            attributes("SOFTMAX", beta=beta, int16_output=True),
            INT8_TO_INT16_SOFTMAX_OUTPUT,
        )
    return NodeSpec(
        [TensorSpec("input", path.source, shape, input_q)], attributes("SOFTMAX", beta=beta), FIXED_OUTPUTS["SOFTMAX"]
    )


def squeeze(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Size-1 dimensions named (variant 0, some negative) or all of them (no dimension named)."""
    base = draw_shape(rng, 1, 3)
    shape = tuple(d for size in base for d in ((size, 1) if rng.random() < 0.5 else (size,)))
    ones = [axis for axis, size in enumerate(shape) if size == 1]
    chosen = [axis for axis in ones if rng.random() < 0.7] if variant == 0 else []
    squeeze_dims = tuple(axis - len(shape) if rng.random() < 0.5 else axis for axis in chosen)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization)]
    return NodeSpec(inputs, attributes("SQUEEZE", squeeze_dims=squeeze_dims), quantization)


def strided_slice(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Begins, ends and strides of both signs, masks, and (variant 1) a shrunk axis."""
    shape = draw_shape(rng, 1, 4, 6)
    begins, ends, strides = [], [], []
    begin_mask = end_mask = shrink_mask = 0
    shrunk = int(rng.integers(len(shape))) if variant == 1 else -1
    for axis, size in enumerate(shape):
        if axis == shrunk:
            shrink_mask |= 1 << axis
            begins.append(int(rng.integers(-size, size)))
            ends.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
            strides.append(int(rng.integers(1, 3, endpoint=True)))
            continue
        begins.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
        ends.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
        strides.append(int(rng.choice([-3, -2, -1, 1, 2, 3])))
        begin_mask |= int(rng.random() < 0.3) << axis
        end_mask |= int(rng.random() < 0.3) << axis
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, shape, quantization),
        int32_constant("begin", begins),
        int32_constant("end", ends),
        int32_constant("strides", strides),
    ]
    node_attributes = attributes(
        "STRIDED_SLICE", begin_mask=begin_mask, end_mask=end_mask, shrink_axis_mask=shrink_mask
    )
    return NodeSpec(inputs, node_attributes, quantization)


def transpose(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = draw_shape(rng, 2 if variant == 0 else 1, 4, 4)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    perm = [int(axis) for axis in rng.permutation(len(shape))]
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("perm", perm)]
    return NodeSpec(inputs, None, quantization)


def sum_reduction(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SUM over drawn axes (some negative, some repeated), kept (variant 0) or dropped."""
    shape = draw_shape(rng, 1, 4, 6)
    rank = len(shape)
    axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    inputs = [TensorSpec("input", path.source, shape), int32_constant("axes", axes)]
    return NodeSpec(inputs, attributes("SUM", keep_dims=variant == 0))


def reduce_max(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """REDUCE_MAX over drawn axes (some negative, some repeated), kept (variant 0) or dropped; int8 with one
    quantization on input and output (TFLite Micro refuses any other)."""
    shape = draw_shape(rng, 1, 4, 6)
    rank = len(shape)
    axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    quantization = per_tensor(rng, 0.01, 0.5) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("axes", axes)]
    return NodeSpec(inputs, attributes("REDUCE_MAX", keep_dims=variant == 0), quantization)


def log_softmax(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = (*draw_shape(rng, 0, 2, 3), int(rng.integers(1, 24, endpoint=True)))
    return NodeSpec([TensorSpec("input", path.source, shape)])


def tile(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Multiples 1 to 3 per axis, int32 (variant 0) or int64."""
    shape = draw_shape(rng, 1, 4, 4)
    multiples = [int(m) for m in rng.integers(1, 3, size=len(shape), endpoint=True)]
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    if variant == 1:
        array = np.array(multiples, np.int64)
        spec = TensorSpec("multiples", DType.INT64, array.shape, data=array)
    else:
        spec = int32_constant("multiples", multiples)
    return NodeSpec([TensorSpec("input", path.source, shape, quantization), spec], None, quantization)


def gather(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Constant int32 positions (variant 0, a vector) or int64 ones (a 2x3 matrix) along a drawn axis."""
    shape = draw_shape(rng, 1, 4, 5)
    axis = int(rng.integers(-len(shape), len(shape)))
    positions_shape = (int(rng.integers(1, 4, endpoint=True)),) if variant == 0 else (2, 3)
    dtype = DType.INT32 if variant == 0 else DType.INT64
    positions = rng.integers(0, shape[axis], size=positions_shape).astype(dtype.numpy)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, shape, quantization),
        TensorSpec("positions", dtype, positions_shape, data=positions),
    ]
    return NodeSpec(inputs, attributes("GATHER", axis=axis), quantization)


def transpose_conv(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SAME (variant 0) or VALID padding, strides 1 to 2, a bias on variant 0, a drawn activation. The path's
    source is the output shape's int32, its target the data's dtype."""
    height, width = (int(size) for size in rng.integers(1, 5, size=2, endpoint=True))
    channels, out_channels = (int(size) for size in rng.integers(1, 4, size=2, endpoint=True))
    kernel_h, kernel_w = (int(size) for size in rng.integers(1, 3, size=2, endpoint=True))
    stride_h, stride_w = (int(size) for size in rng.integers(1, 3, size=2, endpoint=True))
    same = variant == 0
    out_h = height * stride_h if same else (height - 1) * stride_h + kernel_h
    out_w = width * stride_w if same else (width - 1) * stride_w + kernel_w
    filter_shape = (out_channels, kernel_h, kernel_w, channels)
    inputs = [
        int32_constant("output_shape", [1, out_h, out_w, out_channels]),
        TensorSpec("filter", path.target, filter_shape, data=values(rng, path.target, filter_shape)),
        TensorSpec("input", path.target, (1, height, width, channels)),
    ]
    if same:
        bias = values(rng, path.target, (out_channels,))
        inputs.append(TensorSpec("bias", path.target, (out_channels,), data=bias))
    node_attributes = attributes(
        "TRANSPOSE_CONV",
        padding=Padding.SAME if same else Padding.VALID,
        stride_height=stride_h,
        stride_width=stride_w,
        activation=draw_activation(rng),
    )
    return NodeSpec(inputs, node_attributes)


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


def split(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SPLIT into 1 to 3 equal parts along a drawn axis (negative on variant 1)."""
    parts = int(rng.integers(1, 3, endpoint=True))
    shape = list(draw_shape(rng, 1, 4, 3))
    position = int(rng.integers(len(shape)))
    shape[position] *= parts
    axis = position - (len(shape) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [int32_constant("axis", [axis]), TensorSpec("input", path.source, tuple(shape), quantization)]
    return NodeSpec(inputs, attributes("SPLIT", num_splits=parts), quantization)


def split_v(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SPLIT_V into 1 to 3 parts of drawn sizes, one written -1 on variant 1."""
    sizes = [int(size) for size in rng.integers(1, 3, size=int(rng.integers(1, 3, endpoint=True)), endpoint=True)]
    shape = list(draw_shape(rng, 1, 4, 3))
    axis = int(rng.integers(-len(shape), len(shape)))
    shape[axis] = sum(sizes)
    if variant == 1:
        sizes[int(rng.integers(len(sizes)))] = -1
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, tuple(shape), quantization),
        int32_constant("size_splits", sizes),
        int32_constant("axis", [axis]),
    ]
    return NodeSpec(inputs, attributes("SPLIT_V", num_splits=len(sizes)), quantization)


def pack(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """PACK of 1 to 3 inputs of one shape along a drawn new axis (negative on variant 1); one quantization."""
    shape = draw_shape(rng, 1, 3, 4)
    count = int(rng.integers(1, 3, endpoint=True))
    axis = int(rng.integers(0, len(shape) + 1)) - ((len(shape) + 1) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec(f"value_{position}", path.source, shape, quantization) for position in range(count)]
    return NodeSpec(inputs, attributes("PACK", values_count=count, axis=axis), quantization)


def unpack(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """UNPACK along a drawn axis (negative on variant 1) of size 1 to 3."""
    shape = draw_shape(rng, 1, 4, 3)
    position = int(rng.integers(len(shape)))
    axis = position - (len(shape) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization)]
    return NodeSpec(inputs, attributes("UNPACK", num=shape[position], axis=axis), quantization)


def batch_matmul(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """lhs times a constant rhs (variant 0; int8: symmetric, as TFLite's converter writes weights) or a run-time
    one, with drawn adj_x, adj_y and batch dimensions that each operand keeps or broadcasts."""
    dtype = path.source
    adj_x, adj_y = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    rows, depth, cols = (int(v) for v in rng.integers(2, 5, size=3, endpoint=True))
    batch = draw_shape(rng, 0, 2, 3)
    lhs_batch = tuple(1 if rng.random() < 0.3 else d for d in batch)
    rhs_batch = tuple(1 if rng.random() < 0.3 else d for d in batch[int(rng.integers(0, len(batch), endpoint=True)) :])
    lhs_shape = (*lhs_batch, *((depth, rows) if adj_x else (rows, depth)))
    rhs_shape = (*rhs_batch, *((cols, depth) if adj_y else (depth, cols)))
    node_attributes = attributes("BATCH_MATMUL", adj_x=adj_x, adj_y=adj_y)
    constant = variant == 0
    if dtype is DType.FLOAT32:
        rhs_data = values(rng, dtype, rhs_shape) if constant else None
        inputs = [TensorSpec("lhs", dtype, lhs_shape), TensorSpec("rhs", dtype, rhs_shape, data=rhs_data)]
        return NodeSpec(inputs, node_attributes)
    lhs_q = per_tensor(rng)
    rhs_q = symmetric_filter(rng, 1, 0, per_channel=False) if constant else per_tensor(rng)
    rhs_data = rng.integers(-127, 127, size=rhs_shape, endpoint=True).astype(np.int8) if constant else None
    output_scale = float(np.float32(lhs_q.scale * rhs_q.scale * depth * rng.uniform(2.0, 40.0)))
    output_q = Quantization((output_scale,), (int(rng.integers(-20, 20, endpoint=True)),))
    inputs = [TensorSpec("lhs", dtype, lhs_shape, lhs_q), TensorSpec("rhs", dtype, rhs_shape, rhs_q, rhs_data)]
    return NodeSpec(inputs, node_attributes, output_q)


def l2_normalization(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Rank 1 to 4; int8 writes TFLite's fixed output quantization (scale 1/128, zero point 0)."""
    shape = draw_shape(rng, 1, 4, 6)
    node_attributes = attributes("L2_NORMALIZATION")
    if path.source is DType.FLOAT32:
        return NodeSpec([TensorSpec("input", path.source, shape)], node_attributes)
    inputs = [TensorSpec("input", path.source, shape, per_tensor(rng))]
    return NodeSpec(inputs, node_attributes, Quantization((1.0 / 128.0,), (0,)))


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


def lstm(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """UNIDIRECTIONAL_SEQUENCE_LSTM, batch-major (variant 0) or time-major (1), its hidden and cell states
    variable tensors; int8 quantized as TFLite's converter does (symmetric weights, biases at input x
    weight scale, an int16 cell state of scale 2^-11); 16x8 likewise with int16 input and hidden state
    (zero points 0) and int64 biases."""
    time, batch = int(rng.integers(1, 3, endpoint=True)), int(rng.integers(1, 2, endpoint=True))
    input_size, units = int(rng.integers(1, 6, endpoint=True)), int(rng.integers(1, 5, endpoint=True))
    time_major = variant % 2 == 1
    shape = (time, batch, input_size) if time_major else (batch, time, input_size)
    node_attributes = attributes(
        "UNIDIRECTIONAL_SEQUENCE_LSTM", time_major=time_major, cell_clip=float(rng.choice([0.0, 3.0]))
    )
    inputs: list[TensorSpec | None] = [None] * 24
    gates = range(4)
    if path.source is DType.FLOAT32:
        f32 = DType.FLOAT32
        inputs[0] = TensorSpec("input", f32, shape)
        for g in gates:
            inputs[1 + g] = TensorSpec(f"w{g}", f32, (units, input_size), data=values(rng, f32, (units, input_size)))
            inputs[5 + g] = TensorSpec(f"r{g}", f32, (units, units), data=values(rng, f32, (units, units)))
            inputs[12 + g] = TensorSpec(f"b{g}", f32, (units,), data=values(rng, f32, (units,)))
        inputs[18] = TensorSpec("output_state", f32, (batch, units), is_variable=True)
        inputs[19] = TensorSpec("cell_state", f32, (batch, units), is_variable=True)
        return NodeSpec(inputs, node_attributes)
    wide = path.source is DType.INT16
    if wide:
        # About the int8 path's real ranges: inputs up to a few units, the hidden state about [-1, 1].
        input_q, output_q = int16_symmetric(rng, 2e-5, 2e-4), Quantization((float(np.float32(1 / 32768)),), (0,))
    else:
        input_q, output_q = per_tensor(rng, 0.005, 0.05), Quantization((float(np.float32(2 / 255)),), (0,))
    bias_dtype, bias_limit = (DType.INT64, 200_000) if wide else (DType.INT32, 2000)
    for g in gates:
        for base, depth, source_q in ((1, input_size, input_q), (5, units, output_q)):
            weight_q = Quantization((draw_scale(rng, 0.002, 0.02),), (0,))
            data = values(rng, DType.INT8, (units, depth))
            inputs[base + g] = TensorSpec(f"w{base + g}", DType.INT8, (units, depth), weight_q, data)
            if base == 1:
                bias_q = Quantization((float(np.float32(source_q.scales[0]) * np.float32(weight_q.scales[0])),), (0,))
                bias = rng.integers(-bias_limit, bias_limit, units).astype(bias_dtype.numpy)
                inputs[12 + g] = TensorSpec(f"b{g}", bias_dtype, (units,), bias_q, bias)
    inputs[0] = TensorSpec("input", path.source, shape, input_q)
    inputs[18] = TensorSpec("output_state", path.source, (batch, units), output_q, is_variable=True)
    inputs[19] = TensorSpec(
        "cell_state", DType.INT16, (batch, units), Quantization((2.0**-11,), (0,)), is_variable=True
    )
    return NodeSpec(inputs, node_attributes, output_q)


def svdf(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SVDF, its state a variable tensor; int8 with an int16 state (variant 0) or an int8 one (variant 1),
    scales as TFLite's converter sets them (symmetric weights, bias at state x weights_time)."""
    batch, input_size = int(rng.integers(1, 2, endpoint=True)), int(rng.integers(1, 10, endpoint=True))
    rank, units, memory = (int(rng.integers(1, n, endpoint=True)) for n in (2, 4, 5))
    filters = rank * units
    node_attributes = attributes("SVDF", rank=rank, activation=draw_activation(rng))
    if path.source is DType.FLOAT32:
        f32 = DType.FLOAT32
        inputs = [
            TensorSpec("input", f32, (batch, input_size)),
            TensorSpec("weights_feature", f32, (filters, input_size), data=values(rng, f32, (filters, input_size))),
            TensorSpec("weights_time", f32, (filters, memory), data=values(rng, f32, (filters, memory))),
            TensorSpec("bias", f32, (units,), data=values(rng, f32, (units,))) if rng.random() < 0.7 else None,
            TensorSpec("state", f32, (batch, memory * filters), is_variable=True),
        ]
        return NodeSpec(inputs, node_attributes)
    state_dtype, state_limit = (DType.INT16, 32767) if variant % 2 == 0 else (DType.INT8, 127)
    input_q, feature_q = per_tensor(rng), Quantization((draw_scale(rng, 0.002, 0.05),), (0,))
    # The newest state values span about a quarter of the state's range.
    state_scale = input_q.scales[0] * feature_q.scales[0] * 128 * 127 * np.sqrt(input_size) / (state_limit / 4)
    state_q = Quantization(
        (float(np.float32(state_scale)),), (0 if state_dtype is DType.INT16 else int(rng.integers(-3, 4)),)
    )
    time_q = Quantization((draw_scale(rng, 1e-3, 1e-2),), (0,))
    bias_q = Quantization((float(np.float32(state_q.scales[0]) * np.float32(time_q.scales[0])),), (0,))
    sums = state_limit / 4 * state_limit * np.sqrt(memory * rank) / 2
    output_q = Quantization((float(np.float32(bias_q.scales[0] * sums / 64)),), (int(rng.integers(-5, 6)),))
    feature = values(rng, DType.INT8, (filters, input_size))
    time = rng.integers(-state_limit, state_limit, (filters, memory), endpoint=True).astype(state_dtype.numpy)
    bias = rng.integers(-int(sums), int(sums), units).astype(np.int32)
    inputs = [
        TensorSpec("input", DType.INT8, (batch, input_size), input_q),
        TensorSpec("weights_feature", DType.INT8, (filters, input_size), feature_q, feature),
        TensorSpec("weights_time", state_dtype, (filters, memory), time_q, time),
        TensorSpec("bias", DType.INT32, (units,), bias_q, bias) if rng.random() < 0.7 else None,
        TensorSpec("state", state_dtype, (batch, memory * filters), state_q, is_variable=True),
    ]
    return NodeSpec(inputs, node_attributes, output_q)


CASES: dict[str, CaseBuilder] = {
    "ADD": binary("ADD"),
    "ARG_MAX": arg_min_max("ARG_MAX"),
    "ARG_MIN": arg_min_max("ARG_MIN"),
    "AVERAGE_POOL_2D": pool_2d("AVERAGE_POOL_2D"),
    "BATCH_MATMUL": batch_matmul,
    "CAST": cast,
    "CONCATENATION": concatenation,
    "CONV_2D": convolution("CONV_2D"),
    "DEPTH_TO_SPACE": depth_space("DEPTH_TO_SPACE"),
    "DEPTHWISE_CONV_2D": convolution("DEPTHWISE_CONV_2D"),
    "DEQUANTIZE": dequantize,
    "DIV": binary("DIV"),
    "FULLY_CONNECTED": fully_connected,
    "GATHER": gather,
    "L2_NORMALIZATION": l2_normalization,
    "LOG_SOFTMAX": log_softmax,
    "LOGISTIC": saturating("LOGISTIC"),
    "MAX_POOL_2D": pool_2d("MAX_POOL_2D"),
    "MAXIMUM": binary("MAXIMUM"),
    "MEAN": mean,
    "MINIMUM": binary("MINIMUM"),
    "MUL": binary("MUL"),
    "PACK": pack,
    "PAD": pad("PAD"),
    "PADV2": pad("PADV2"),
    "POW": binary("POW"),
    "PRELU": binary("PRELU"),
    "QUANTIZE": quantize,
    "REDUCE_MAX": reduce_max,
    "RELU": relu("RELU"),
    "RELU6": relu("RELU6"),
    "RESHAPE": reshape,
    "RESIZE_BILINEAR": resize("RESIZE_BILINEAR"),
    "RESIZE_NEAREST_NEIGHBOR": resize("RESIZE_NEAREST_NEIGHBOR"),
    "SOFTMAX": softmax,
    "SPACE_TO_DEPTH": depth_space("SPACE_TO_DEPTH"),
    "SPLIT": split,
    "SPLIT_V": split_v,
    "SQUARED_DIFFERENCE": binary("SQUARED_DIFFERENCE"),
    "SQUEEZE": squeeze,
    "STRIDED_SLICE": strided_slice,
    "SUB": binary("SUB"),
    "SUM": sum_reduction,
    "SVDF": svdf,
    "TANH": saturating("TANH"),
    "TILE": tile,
    "TRANSPOSE": transpose,
    "TRANSPOSE_CONV": transpose_conv,
    "UNIDIRECTIONAL_SEQUENCE_LSTM": lstm,
    "UNPACK": unpack,
}


# -- graphs ----------------------------------------------------------------------------


# Operators that only work as a pair, so a graph of one operator cannot hold them: ASSIGN_VARIABLE
# writes the state its variable's READ_VARIABLE owns. Their golden tests are the resource-variable
# models' (tests/models:stateful_rnn, int8_accumulator, two_variables), on the same four platforms.
PAIRED_OPERATORS = frozenset({"READ_VARIABLE", "ASSIGN_VARIABLE"})


def registry_operators() -> list[str]:
    """The built-in operators' names, in the registry's order, but for PAIRED_OPERATORS."""
    return [d.op_type for d in BUILTIN_OPERATORS if d.op_type not in PAIRED_OPERATORS]


def operator_target_name(op_type: str) -> str:
    """The operator's name in Bazel targets and C prefixes: ADD -> add."""
    return op_type.lower()


class OneOperatorGraph:
    """Independent nodes of one operator, built tensor by tensor (GraphBuilder); the graph is named
    `name` (default: the operator's target name)."""

    def __init__(self, op_type: str, name: str | None = None) -> None:
        self.op_type = op_type
        self.name = operator_target_name(op_type) if name is None else name
        self.schema = REGISTRY[op_type].schema
        self.builder = GraphBuilder()
        self.nodes: list[Node] = []
        self.inputs: list[int] = []

    def output_types(self, spec: NodeSpec, name: str) -> list[tuple[DType, tuple[int, ...]]]:
        """Each output's dtype and shape by the schema (SPLIT and UNPACK have several); InvalidDrawError
        unless valid and non-empty."""
        assert self.schema is not None
        infos = [None if t is None else InputInfo(t.dtype, t.shape, t.quantization, t.data) for t in spec.inputs]
        try:
            outputs = self.schema.infer(InferenceContext(name, infos, spec.attributes))
        except ShapeInferenceError as error:
            raise InvalidDrawError(str(error)) from error
        for output in outputs:
            if any(size <= 0 for size in output.shape):
                raise InvalidDrawError(f"{name}: empty output {output.shape}")
        return [(output.dtype, tuple(output.shape)) for output in outputs]

    def add(self, spec: NodeSpec, name: str) -> None:
        output_types = self.output_types(spec, name)
        inputs: list[int | None] = []
        for tensor in spec.inputs:
            if tensor is None:
                inputs.append(None)
                continue
            index = self.builder.tensor(
                f"{name}_{tensor.name}", tensor.dtype, tensor.shape, tensor.quantization, tensor.data
            )
            if tensor.is_variable:
                self.builder.tensors[index] = dataclasses.replace(self.builder.tensors[index], is_variable=True)
            elif tensor.data is None:
                self.inputs.append(index)
            inputs.append(index)
        single = len(output_types) == 1
        outputs = [
            self.builder.tensor(
                f"{name}_output" if single else f"{name}_output_{position}", dtype, shape, spec.output_quantization
            )
            for position, (dtype, shape) in enumerate(output_types)
        ]
        self.nodes.append(Node(len(self.nodes), name, self.op_type, inputs, outputs, spec.attributes))

    def graph(self) -> Graph:
        outputs = [output for node in self.nodes for output in node.outputs]
        return Graph(self.name, self.builder.tensors, self.nodes, self.inputs, outputs)


def case_builder(op_type: str) -> CaseBuilder:
    """The op's entry in CASES; else, for a one-input element-wise op, elementwise_unary."""
    if op_type in CASES:
        return CASES[op_type]
    if is_elementwise_unary(REGISTRY[op_type]):
        return elementwise_unary(op_type)
    raise KeyError(f"{op_type} has no case builder; add one to CASES in {__name__}")


def operator_graph(op_type: str) -> Graph:
    """The seeded graph of `op_type`: NODES_PER_PATH nodes per dtype path, named <path>_<variant>."""
    build = case_builder(op_type)
    rng = np.random.default_rng(operator_seed(op_type))
    graph = OneOperatorGraph(op_type)
    for path in dtype_paths(REGISTRY[op_type]):
        for variant in range(NODES_PER_PATH):
            name = f"{path.describe()}_{variant}"
            for _ in range(MAX_DRAWS):
                try:
                    graph.add(build(rng, path, variant), name)
                    break
                except InvalidDrawError:
                    continue
            else:
                raise RuntimeError(f"{op_type} {name}: no valid node in {MAX_DRAWS} draws; fix its case builder")
    return graph.graph()
