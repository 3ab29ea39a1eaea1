"""Shared pieces of the element-wise operators (requantization and broadcasting).

Also the plain-integer binary operators (int32 ADD, MUL, DIV; MINIMUM and
MAXIMUM): TFLite Micro computes them on the raw values, wrapping around on
overflow, with 4-D broadcasting; their kernels are in
cc/kernels/opbridge_kernels_int.h.

And the float32 paths (cc/kernels/opbridge_kernels_f32.h): every result is
one float32 operation on float32 arrays, rounded as the C kernels round it
(IEEE-754 round to nearest, no fused multiply-add); sums are explicit loops
in the kernels' order, never np.sum (pairwise). Transcendental functions are
computed in float64 and rounded once to float32 (libm's expf and tanhf may
differ by an ulp or so).
"""

from collections.abc import Callable

import numpy as np

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ops.common import INT8_MAX, INT8_MIN, Activation, float_activation_range
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier

INT_KERNELS_HEADER = "cc/kernels/opbridge_kernels_int.h"
F32_KERNELS_HEADER = "cc/kernels/opbridge_kernels_f32.h"
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
# Kernel name suffixes of the element types (cc/kernels/opbridge_kernels_int.h).
KERNEL_SUFFIXES = {
    DType.BOOL: "b8",
    DType.INT8: "s8",
    DType.INT16: "s16",
    DType.INT32: "s32",
    DType.UINT32: "u32",
    DType.FLOAT32: "f32",
}


def requantize(
    values: np.ndarray,
    input_zero_point: int,
    multiplier: int,
    shift: int,
    output_zero_point: int,
    low: int = INT8_MIN,
    high: int = INT8_MAX,
) -> np.ndarray:
    """clamp(rescale(q - input_zero_point) + output_zero_point), as int8."""
    scaled = multiply_by_quantized_multiplier(values.astype(np.int64) - input_zero_point, multiplier, shift)
    return np.clip(scaled + output_zero_point, low, high).astype(np.int8)


def emit_requantize(
    ctx: EmitContext,
    node: Node,
    input_zero_point: int,
    multiplier: int,
    shift: int,
    output_zero_point: int,
    low: int,
    high: int,
) -> NodeCode:
    """A node computed by opbridge_requantize_s8."""
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_requantize_s8_params {params_symbol} = {{
    .size = {ctx.graph.tensor(node.inputs[0]).element_count},
    .input_offset = {-input_zero_point},
    .output_offset = {output_zero_point},
    .multiplier = {multiplier},
    .shift = {shift},
    .activation_min = {low},
    .activation_max = {high},
}};"""
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = f"status = opbridge_requantize_s8(&{params_symbol}, {source}, {target});"
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])


def output_shape_4d(node: Node, output: Tensor) -> tuple[int, ...]:
    if len(output.shape) > 4:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(output.shape)} > 4", hint="reshape to 4-D")
    return (1,) * (4 - len(output.shape)) + tuple(output.shape)


def broadcast_strides(node: Node, tensor: Tensor, output_shape: tuple[int, ...]) -> list[int]:
    """Element strides of `tensor` read at each index of the 4-D output (0 where broadcast)."""
    shape = (1,) * (4 - len(tensor.shape)) + tuple(tensor.shape)
    strides = []
    stride = 1
    for size, output_size in zip(reversed(shape), reversed(output_shape), strict=True):
        if size not in (1, output_size):
            raise UnsupportedTensorError(
                f"{node.describe()}: {tensor.describe()} does not broadcast to {list(output_shape)}",
                hint="the model is inconsistent",
            )
        strides.append(0 if size == 1 and output_size != 1 else stride)
        stride *= size
    return list(reversed(strides))


def strides_initializer(node: Node, tensor: Tensor, output_shape: tuple[int, ...]) -> str:
    return "{" + c_int_list(broadcast_strides(node, tensor, output_shape)) + "}"


def wrap_integers(values: Array, dtype: DType) -> Array:
    """Integers reduced modulo 2^bits into `dtype` (C++ static_cast on two's complement)."""
    bits = 8 * dtype.itemsize
    low = np.asarray(values, dtype=np.int64) & ((1 << bits) - 1)
    if np.issubdtype(dtype.numpy, np.signedinteger):
        low = np.where(low >= 1 << (bits - 1), low - (1 << bits), low)
    return low.astype(dtype.numpy)


def int32_activation_range(activation: Activation) -> tuple[int, int]:
    """TFLite's CalculateActivationRange for int32: the clamp of a fused activation on raw values."""
    return {
        Activation.NONE: (INT32_MIN, INT32_MAX),
        Activation.RELU: (0, INT32_MAX),
        Activation.RELU6: (0, 6),
        Activation.RELU_N1_TO_1: (-1, 1),
    }[activation]


def plain_integer_operands(
    node: Node, first: Tensor, second: Tensor, output: Tensor, allowed: tuple[DType, ...], quantized_ok: bool = True
) -> DType:
    """Checks that both inputs and the output share one dtype of `allowed`; returns it.

    With quantized_ok=False, quantized operands are rejected (TFLite Micro's
    int32 ADD and DIV accept only unquantized tensors).
    """
    dtype = output.dtype
    for role, tensor in (("input 0", first), ("input 1", second), ("output", output)):
        if tensor.dtype not in allowed or tensor.dtype is not dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; this operator supports "
                f"{', '.join(d.value for d in allowed)}, the same for both inputs and the output",
                hint="TFLite Micro computes this operator only on inputs and an output of one type",
            )
        if not quantized_ok and tensor.quantization is not None:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is quantized",
                hint=f"TFLite Micro's {dtype.value} {node.op_type} takes only unquantized tensors",
            )
    return dtype


def broadcast_binary_reference(
    call: ReferenceCall, operation: Callable[[Array, Array], Array], dtype: DType
) -> list[Array]:
    """`operation` on the two inputs as int64 (broadcast NumPy-style), reshaped to the output."""
    output = call.outputs[0]
    first = call.value(0).astype(np.int64)
    second = call.value(1).astype(np.int64)
    result = np.broadcast_to(operation(first, second), output.shape)
    return [np.ascontiguousarray(result).astype(dtype.numpy)]


def broadcast_4d_initializer(ctx: EmitContext, node: Node) -> str:
    """An opbridge_broadcast_4d initializer for a binary node (inputs 0 and 1, output 0)."""
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output_shape = output_shape_4d(node, graph.tensor(node.outputs[0]))
    return (
        f"{{.output_shape = {{{c_int_list(output_shape)}}}, "
        f".input1_strides = {strides_initializer(node, first, output_shape)}, "
        f".input2_strides = {strides_initializer(node, second, output_shape)}}}"
    )


def emit_int_binary(ctx: EmitContext, node: Node, kernel: str, activation: Activation | None) -> NodeCode:
    """A binary node computed by `kernel` of opbridge_kernels_int.h.

    With an activation: an opbridge_arithmetic_s32_params kernel (int32 ADD,
    MUL, DIV); without: an opbridge_broadcast_4d kernel (MINIMUM, MAXIMUM).
    """
    bounds = None
    if activation is not None:
        low, high = int32_activation_range(activation)
        bounds = (c_int32_literal(low), c_int32_literal(high))
    return emit_broadcast_binary(ctx, node, kernel, INT_KERNELS_HEADER, "opbridge_arithmetic_s32_params", bounds)


def emit_broadcast_binary(
    ctx: EmitContext,
    node: Node,
    kernel: str,
    header: str,
    arithmetic_type: str,
    bounds: tuple[str, str] | None,
) -> NodeCode:
    """A broadcasting binary node computed by `kernel(&params, input1, input2, output)`: with
    clamp bounds (C literals) the params are an `arithmetic_type`, without an opbridge_broadcast_4d."""
    params_symbol = ctx.local_symbol(node, "params")
    broadcast = broadcast_4d_initializer(ctx, node)
    if bounds is None:
        params = f"static const opbridge_broadcast_4d {params_symbol} = {broadcast};"
    else:
        params = f"""static const {arithmetic_type} {params_symbol} = {{
    .broadcast = {broadcast},
    .activation_min = {bounds[0]},
    .activation_max = {bounds[1]},
}};"""
    call = (
        f"status = {kernel}(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.inputs[1])}, "
        f"{ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[header], definitions=[params], statements=[call])


def c_int32_literal(value: int) -> str:
    """An int32 constant as C source (INT32_MIN has no literal of its own)."""
    return {INT32_MIN: "INT32_MIN", INT32_MAX: "INT32_MAX"}.get(value, str(value))


# MINIMUM and MAXIMUM: raw values compared, whatever the quantization (as TFLite Micro does).
MIN_MAX_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)


def float32_minimum(first: Array, second: Array) -> Array:
    """TFLite Micro's MinimumOp, a < b ? a : b (a NaN in either gives b; np.minimum would give the NaN)."""
    return np.where(first < second, first, second)


def float32_maximum(first: Array, second: Array) -> Array:
    """TFLite Micro's MaximumOp, a > b ? a : b."""
    return np.where(first > second, first, second)


def min_max_reference(call: ReferenceCall, choose: Callable[[Array, Array], Array]) -> list[Array]:
    """MINIMUM (choose=np.minimum) or MAXIMUM (np.maximum) of two broadcast inputs."""
    if call.outputs[0].dtype is DType.FLOAT32:
        float_choose = float32_minimum if choose is np.minimum else float32_maximum
        return float32_binary_reference(call, float_choose, None)
    dtype = plain_integer_operands(
        call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0], MIN_MAX_DTYPES
    )
    return broadcast_binary_reference(call, choose, dtype)


def emit_min_max(ctx: EmitContext, node: Node, name: str) -> NodeCode:
    """MINIMUM or MAXIMUM (`name` is "minimum" or "maximum") -> opbridge_<name>_<s8|s16|s32|f32>."""
    graph = ctx.graph
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, f"opbridge_{name}_f32", None)
    dtype = plain_integer_operands(
        node, graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0]), MIN_MAX_DTYPES
    )
    return emit_int_binary(ctx, node, f"opbridge_{name}_{KERNEL_SUFFIXES[dtype]}", None)


# float32 ----------------------------------------------------------------------


def require_float32(node: Node, operands: list[tuple[str, Tensor]]) -> None:
    """Checks that each (role, tensor) is float32 (TFLite Micro's float kernels take one type throughout)."""
    for role, tensor in operands:
        if tensor.dtype is not DType.FLOAT32:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} is {tensor.dtype.value}; the float32 "
                f"{node.op_type} needs float32 inputs and outputs",
                hint="give every input and output of the node one type (quantize the whole node, or none of it)",
            )


def clamp_float32(values: Array, low: float, high: float) -> Array:
    """TFLite's ActivationFunctionWithMinMax, std::min(std::max(x, low), high), on float32 (NaN passes)."""
    low_value, high_value = np.float32(low), np.float32(high)
    raised = np.where(values < low_value, low_value, values)
    return np.where(high_value < raised, high_value, raised).astype(np.float32)


def float32_exp(values: Array) -> Array:
    """exp in float64, rounded once to float32: a correctly rounded expf but for rare double roundings.

    libm's expf (glibc, newlib) is within an ulp of it; the golden C tests allow for that.
    """
    with np.errstate(over="ignore"):
        return np.exp(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_tanh(values: Array) -> Array:
    """tanh in float64, rounded once to float32 (libm's tanhf is within an ulp or two)."""
    return np.tanh(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_binary_reference(
    call: ReferenceCall, operation: Callable[[Array, Array], Array], activation: Activation | None
) -> list[Array]:
    """`operation` on two float32 inputs (broadcast NumPy-style), then the fused activation's clamp if any."""
    output = call.outputs[0]
    require_float32(
        call.node, [("input 0", call.input_tensor(0)), ("input 1", call.input_tensor(1)), ("output", output)]
    )
    first = np.asarray(call.value(0), dtype=np.float32)
    second = np.asarray(call.value(1), dtype=np.float32)
    with np.errstate(all="ignore"):  # x / 0 and overflow give inf or NaN, as in C
        result = np.asarray(operation(first, second), dtype=np.float32)
    if activation is not None:
        result = clamp_float32(result, *float_activation_range(activation))
    return [np.ascontiguousarray(np.broadcast_to(result, output.shape), dtype=np.float32)]


def float32_unary_reference(call: ReferenceCall, operation: Callable[[Array], Array]) -> list[Array]:
    """`operation` on one float32 input, element by element, as float32."""
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    with np.errstate(all="ignore"):
        result = operation(np.asarray(call.value(0), dtype=np.float32))
    return [np.asarray(result, dtype=np.float32).reshape(output.shape)]


def c_float_literal(value: float) -> str:
    """A float32 value as a C float constant that reads back to the same bits."""
    single = np.float32(value)
    if not np.isfinite(single):
        raise ValueError(f"{value} is not a finite float32")
    return f"{float(single)!r}f"


def emit_float32_binary(ctx: EmitContext, node: Node, kernel: str, activation: Activation | None) -> NodeCode:
    """A binary float32 node computed by `kernel` of opbridge_kernels_f32.h.

    With an activation: an opbridge_arithmetic_f32_params kernel (ADD, SUB,
    MUL, DIV); without: an opbridge_broadcast_4d kernel (MINIMUM, MAXIMUM).
    """
    graph = ctx.graph
    operands = [("input 0", node.inputs[0]), ("input 1", node.inputs[1]), ("output", node.outputs[0])]
    require_float32(node, [(role, graph.tensor(index)) for role, index in operands])
    bounds = None
    if activation is not None:
        low, high = float_activation_range(activation)
        bounds = (c_float_literal(low), c_float_literal(high))
    return emit_broadcast_binary(ctx, node, kernel, F32_KERNELS_HEADER, "opbridge_arithmetic_f32_params", bounds)


def emit_float32_unary(ctx: EmitContext, node: Node, kernel: str) -> NodeCode:
    """A unary float32 node computed by `kernel(size, input, output)` of opbridge_kernels_f32.h."""
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="an element-wise operator's output has its input's shape; the model is inconsistent",
        )
    call = (
        f"status = {kernel}({input_tensor.element_count}, {ctx.pointer(node.inputs[0])}, "
        f"{ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[F32_KERNELS_HEADER], statements=[call])
