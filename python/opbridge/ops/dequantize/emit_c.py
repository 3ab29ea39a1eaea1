# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall
from opbridge.ir import DType, Node
from opbridge.ops.shared.quantized import require_dtype, require_quantization


def emit_dequantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    require_dtype(node, input_tensor, "input", (DType.INT8, DType.INT16))
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output", (DType.FLOAT32,))
    input_q = require_quantization(node, input_tensor, "input")
    suffix = "s8" if input_tensor.dtype is DType.INT8 else "s16"
    arguments = (input_tensor.element_count, f"{float(input_q.scale)!r}f", input_q.zero_point)
    pointers = (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0]))
    call = KernelCall(f"opbridge_dequantize_{suffix}_f32", None, (*arguments, *pointers))
    header = KERNELS_HEADER if input_tensor.dtype is DType.INT8 else "cc/kernels/opbridge_kernels_s16.h"
    return NodeCode(includes=[header], call=call)
