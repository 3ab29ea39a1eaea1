# SPDX-License-Identifier: Apache-2.0
"""C emission the element-wise operators share: requantization, 4-D broadcast strides, the int and float32
binary and unary kernel calls, C literals."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import (
    ArrayValue,
    CExpression,
    Field,
    FloatValue,
    KernelCall,
    ParamStruct,
    StructValue,
    Value,
    fields,
    int_array,
)
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Tensor
from opbridge.ir.attribute_types import Activation
from opbridge.ops.shared.float32 import float_activation_range, require_float32
from opbridge.ops.shared.integer import INT32_MAX, INT32_MIN, int32_activation_range

INT_KERNELS_HEADER = "cc/kernels/opbridge_kernels_int.h"


F32_KERNELS_HEADER = "cc/kernels/opbridge_kernels_f32.h"


# Kernel name suffixes of the element types (cc/kernels/opbridge_kernels_int.h).
KERNEL_SUFFIXES = {
    DType.BOOL: "b8",
    DType.INT8: "s8",
    DType.INT16: "s16",
    DType.INT32: "s32",
    DType.UINT32: "u32",
    DType.FLOAT32: "f32",
}


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
    params = ParamStruct(
        "opbridge_requantize_s8_params",
        params_symbol,
        fields(
            size=ctx.graph.tensor(node.inputs[0]).element_count,
            input_offset=-input_zero_point,
            output_offset=output_zero_point,
            multiplier=multiplier,
            shift=shift,
            activation_min=low,
            activation_max=high,
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall("opbridge_requantize_s8", params, (source, target))
    return NodeCode(includes=[KERNELS_HEADER], call=call)


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


def strides_initializer(node: Node, tensor: Tensor, output_shape: tuple[int, ...]) -> ArrayValue:
    return int_array(broadcast_strides(node, tensor, output_shape))


def broadcast_4d_fields(ctx: EmitContext, node: Node) -> tuple[Field, ...]:
    """The opbridge_broadcast_4d of a binary node (inputs 0 and 1, output 0)."""
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output_shape = output_shape_4d(node, graph.tensor(node.outputs[0]))
    return fields(
        output_shape=int_array(output_shape),
        input1_strides=strides_initializer(node, first, output_shape),
        input2_strides=strides_initializer(node, second, output_shape),
    )


def emit_int_binary(ctx: EmitContext, node: Node, kernel: str, activation: Activation | None) -> NodeCode:
    """A binary node computed by `kernel` of opbridge_kernels_int.h.

    With an activation: an opbridge_arithmetic_s32_params kernel (int32 ADD,
    MUL, DIV); without: an opbridge_broadcast_4d kernel (MINIMUM, MAXIMUM).
    """
    bounds = None
    if activation is not None:
        low, high = int32_activation_range(activation)
        bounds = (CExpression(c_int32_literal(low)), CExpression(c_int32_literal(high)))
    return emit_broadcast_binary(ctx, node, kernel, INT_KERNELS_HEADER, "opbridge_arithmetic_s32_params", bounds)


def emit_broadcast_binary(
    ctx: EmitContext,
    node: Node,
    kernel: str,
    header: str,
    arithmetic_type: str,
    bounds: tuple[Value, Value] | None,
) -> NodeCode:
    """A broadcasting binary node computed by `kernel(&params, input1, input2, output)`: with
    clamp bounds the params are an `arithmetic_type`, without an opbridge_broadcast_4d."""
    params_symbol = ctx.local_symbol(node, "params")
    broadcast_fields = broadcast_4d_fields(ctx, node)
    if bounds is None:
        params = ParamStruct("opbridge_broadcast_4d", params_symbol, broadcast_fields, one_line=True)
    else:
        broadcast = StructValue("opbridge_broadcast_4d", broadcast_fields, designated=True)
        params = ParamStruct(
            arithmetic_type,
            params_symbol,
            fields(broadcast=broadcast, activation_min=bounds[0], activation_max=bounds[1]),
        )
    call = KernelCall(
        kernel, params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0]))
    )
    return NodeCode(includes=[header], call=call)


def c_int32_literal(value: int) -> str:
    """An int32 constant as C source (INT32_MIN has no literal of its own)."""
    return {INT32_MIN: "INT32_MIN", INT32_MAX: "INT32_MAX"}.get(value, str(value))


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
        bounds = (FloatValue(low), FloatValue(high))
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
    call = KernelCall(
        kernel, None, (input_tensor.element_count, ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0]))
    )
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)
