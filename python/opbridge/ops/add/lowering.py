"""ADD -> opbridge_add_s8, with broadcasting as 4-D strides."""

from opbridge.backends.c.lowering import KERNELS_HEADER, LoweringContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node, Tensor
from opbridge.ops.add.reference import LEFT_SHIFT, add_parameters
from opbridge.ops.common import activation_range, require_dtype, require_quantization


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


def lower_add(ctx: LoweringContext, node: Node) -> NodeCode:
    graph = ctx.graph
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    output = graph.tensor(node.outputs[0])
    for role, tensor in (("input 0", first), ("input 1", second), ("output", output)):
        require_dtype(node, tensor, role)
    first_q = require_quantization(node, first, "input 0")
    second_q = require_quantization(node, second, "input 1")
    output_q = require_quantization(node, output, "output")
    if len(output.shape) > 4:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(output.shape)} > 4", hint="reshape to 4-D")
    output_shape = (1,) * (4 - len(output.shape)) + tuple(output.shape)
    p = add_parameters(first_q, second_q, output_q)
    low, high = activation_range(node.attributes.activation, output_q)
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_add_s8_params {params_symbol} = {{
    .input1_offset = {-first_q.zero_point},
    .input2_offset = {-second_q.zero_point},
    .output_offset = {output_q.zero_point},
    .left_shift = {LEFT_SHIFT},
    .input1_multiplier = {p.first_multiplier},
    .input1_shift = {p.first_shift},
    .input2_multiplier = {p.second_multiplier},
    .input2_shift = {p.second_shift},
    .output_multiplier = {p.output_multiplier},
    .output_shift = {p.output_shift},
    .activation_min = {low},
    .activation_max = {high},
    .output_shape = {{{c_int_list(output_shape)}}},
    .input1_strides = {{{c_int_list(broadcast_strides(node, first, output_shape))}}},
    .input2_strides = {{{c_int_list(broadcast_strides(node, second, output_shape))}}},
}};"""
    call = (
        f"status = opbridge_add_s8(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.inputs[1])}, "
        f"{ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])
