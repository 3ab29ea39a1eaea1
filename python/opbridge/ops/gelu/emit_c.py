# SPDX-License-Identifier: Apache-2.0
"""GELU -> opbridge_gelu_s8 (with its 256-entry table) or opbridge_gelu_f32 (cc/kernels/opbridge_gelu.h)."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode, c_int_list, constants_placement
from opbridge.backends.c.kernel_call import KernelCall
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.gelu.reference import int8_table
from opbridge.ops.shared.float32 import require_float32

HEADER = "cc/kernels/opbridge_gelu.h"


def emit_gelu(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="an element-wise operator's output has its input's shape; the model is inconsistent",
        )
    approximate = node.attributes.approximate
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        require_float32(node, [("input", input_tensor), ("output", output)])
        call = KernelCall("opbridge_gelu_f32", None, (int(approximate), input_tensor.element_count, source, target))
        return NodeCode(includes=[HEADER], call=call)
    table = int8_table(node, input_tensor, output, approximate)
    table_symbol = ctx.local_symbol(node, "table")
    definition = f"{constants_placement(ctx.prefix)} static const int8_t {table_symbol}[256] = {{{c_int_list(table)}}};"
    call = KernelCall("opbridge_gelu_s8", None, (table_symbol, input_tensor.element_count, source, target))
    return NodeCode(includes=[HEADER], definitions=[definition], call=call)
