"""Shared pieces of the element-wise operators (requantization and broadcasting)."""

import numpy as np

from opbridge.backends.c.lowering import KERNELS_HEADER, LoweringContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node, Tensor
from opbridge.ops.common import INT8_MAX, INT8_MIN
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier


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


def lower_requantize(
    ctx: LoweringContext,
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
