# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL -> opbridge_batch_matmul_<f32|s8|s16> (cc/kernels/opbridge_batch_matmul.h): the operands read
through strides, so adj_x, adj_y and broadcasting cost no copy and no scratch."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, StructValue, fields, int_array
from opbridge.ir import DType, Node
from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes
from opbridge.ops.batch_matmul.reference import MAX_RANK, check_batch_matmul

HEADER = "cc/kernels/opbridge_batch_matmul.h"
KERNELS = {
    DType.FLOAT32: "opbridge_batch_matmul_f32",
    DType.INT8: "opbridge_batch_matmul_s8",
    DType.INT16: "opbridge_batch_matmul_s16",
}


def batch_strides(shape: tuple[int, ...]) -> list[int]:
    """TFLite Micro's extents of the three batch dimensions (the shape extended to rank 5): 0 where the size is 1."""
    extended = (1,) * (MAX_RANK - len(shape)) + shape
    strides = []
    for axis in range(3):
        size = 1
        for later in extended[axis + 1 :]:
            size *= later
        strides.append(0 if extended[axis] == 1 else size)
    return strides


def emit_batch_matmul(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    parameters = check_batch_matmul(graph, node)
    attributes: BatchMatMulAttributes = node.attributes or BatchMatMulAttributes()
    lhs, rhs, output = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0])
    if output.element_count == 0:
        return NodeCode(statements=["/* The output is empty. */", "status = 0;"])
    rows, cols = output.shape[-2], output.shape[-1]
    depth = lhs.shape[-2] if attributes.adj_x else lhs.shape[-1]
    batches = ((1,) * (MAX_RANK - len(output.shape)) + output.shape)[:3]
    lhs_row, lhs_depth = (1, rows) if attributes.adj_x else (depth, 1)
    rhs_depth, rhs_col = (1, depth) if attributes.adj_y else (cols, 1)
    shape = fields(
        batches=int_array(batches),
        lhs_batch_strides=int_array(batch_strides(lhs.shape)),
        rhs_batch_strides=int_array(batch_strides(rhs.shape)),
        rows=rows,
        cols=cols,
        depth=depth,
        lhs_row_stride=lhs_row,
        lhs_depth_stride=lhs_depth,
        rhs_depth_stride=rhs_depth,
        rhs_col_stride=rhs_col,
    )
    params_symbol = ctx.local_symbol(node, "params")
    if parameters is None:
        params = ParamStruct("opbridge_batch_matmul_shape", params_symbol, shape)
    else:
        p = parameters
        params = ParamStruct(
            "opbridge_batch_matmul_quantized_params",
            params_symbol,
            fields(
                shape=StructValue("opbridge_batch_matmul_shape", shape, designated=True, multiline=True),
                lhs_offset=-p.lhs_zero_point,
                rhs_offset=-p.rhs_zero_point,
                output_offset=p.output_zero_point,
                output_multiplier=p.multiplier,
                output_shift=p.shift,
            ),
        )
    pointers = (ctx.pointer(node.inputs[0]), ctx.pointer(node.inputs[1]), ctx.pointer(node.outputs[0]))
    call = KernelCall(KERNELS[output.dtype], params, pointers)
    return NodeCode(includes=[HEADER], call=call)
