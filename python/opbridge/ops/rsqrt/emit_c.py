# SPDX-License-Identifier: Apache-2.0
"""RSQRT -> opbridge_rsqrt_f32, or opbridge_rsqrt_s8 with a 256-entry table of TFLite Micro's fixed-point results
(cc/kernels/opbridge_rsqrt.h)."""

import dataclasses

from opbridge.backends.c.emit_context import EmitContext, NodeCode, c_int_list, constants_placement
from opbridge.backends.c.kernel_call import CExpression, KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.rsqrt.reference import check_int8_inputs, int8_quantizations, rsqrt_int8_table
from opbridge.ops.shared.emit_elementwise import emit_float32_unary

HEADER = "cc/kernels/opbridge_rsqrt.h"


def emit_rsqrt(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if output.dtype is DType.FLOAT32:
        # emit_float32_unary checks the dtypes and sizes; the kernel is declared in this op's header.
        return dataclasses.replace(emit_float32_unary(ctx, node, "opbridge_rsqrt_f32"), includes=[HEADER])
    input_q, output_q = int8_quantizations(node, input_tensor, output)
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="an element-wise operator's output has its input's shape; the model is inconsistent",
        )
    if input_tensor.data is not None:
        check_int8_inputs(node, input_tensor, input_q.zero_point, input_tensor.data)
    table_symbol = ctx.local_symbol(node, "table")
    table = rsqrt_int8_table(input_q, output_q)
    table_definition = (
        f"{constants_placement(ctx.prefix)} static const int8_t {table_symbol}[256] = {{{c_int_list(table)}}};"
    )
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_rsqrt_s8_params",
        params_symbol,
        fields(size=input_tensor.element_count, input_zero_point=input_q.zero_point, table=CExpression(table_symbol)),
    )
    call = KernelCall("opbridge_rsqrt_s8", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], definitions=[table_definition], call=call)
