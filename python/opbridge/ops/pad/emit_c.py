# SPDX-License-Identifier: Apache-2.0
"""PAD / PADV2 -> opbridge_pad_s8 (int8, up to 5-D) or opbridge_pad (float32, any element size, up to 6-D)."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.pad.reference import constant_paddings, pad_value_index, padding_and_value
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype

MAX_RANK = 5
# OPBRIDGE_PAD_MAX_RANK in cc/kernels/opbridge_kernels_f32.h.
ELEMENT_PAD_MAX_RANK = 6


def emit_pad_float32(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    value_index = pad_value_index(node)
    operands = [("input", input_tensor), ("output", output)]
    if value_index is not None:
        operands.append(("pad value", graph.tensor(value_index)))
    require_float32(node, operands)
    rank = len(input_tensor.shape)
    if rank > ELEMENT_PAD_MAX_RANK:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has rank {rank} > {ELEMENT_PAD_MAX_RANK}",
            hint="reshape to fewer dimensions around the PAD",
        )
    paddings = constant_paddings(graph, node)
    padded_shape = None
    if paddings.shape == (rank, 2) and not (paddings < 0).any():
        padded_shape = tuple(int(size + sum(pair)) for size, pair in zip(input_tensor.shape, paddings, strict=True))
    if padded_shape != tuple(output.shape):
        raise UnsupportedTensorError(
            f"{node.describe()}: paddings {paddings.tolist()} do not take input {input_tensor.describe()} "
            f"to output {output.describe()}",
            hint="the paddings must be [rank, 2] non-negative [before, after] pairs; re-export the model",
        )
    lead = ELEMENT_PAD_MAX_RANK - rank
    definitions = []
    if value_index is None:
        value_pointer = ctx.local_symbol(node, "pad_value")
        definitions.append(f"static const float {value_pointer}[1] = {{0.0f}};")
    else:
        value_pointer = ctx.pointer(value_index)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_pad_params",
        params_symbol,
        fields(
            element_size=input_tensor.dtype.itemsize,
            input_shape=int_array((1,) * lead + tuple(input_tensor.shape)),
            output_shape=int_array((1,) * lead + tuple(output.shape)),
            padding_before=int_array([0] * lead + [int(p[0]) for p in paddings]),
        ),
    )
    call = KernelCall(
        "opbridge_pad", params, (ctx.pointer(node.inputs[0]), value_pointer, ctx.pointer(node.outputs[0]))
    )
    return NodeCode(includes=[F32_KERNELS_HEADER], definitions=definitions, call=call)


def emit_pad(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_pad_float32(ctx, node)
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    if len(input_tensor.shape) > MAX_RANK:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(input_tensor.shape)} > {MAX_RANK}")
    paddings, value = padding_and_value(graph, node)
    lead = MAX_RANK - len(input_tensor.shape)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_pad_s8_params",
        params_symbol,
        fields(
            input_shape=int_array((1,) * lead + input_tensor.shape),
            output_shape=int_array((1,) * lead + output.shape),
            padding_before=int_array([0] * lead + [int(p[0]) for p in paddings]),
            pad_value=value,
        ),
    )
    call = KernelCall("opbridge_pad_s8", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[KERNELS_HEADER], call=call)
