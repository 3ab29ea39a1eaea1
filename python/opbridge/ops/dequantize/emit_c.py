# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.shared.quantized import require_dtype, require_quantization


def emit_dequantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    require_dtype(node, input_tensor, "input", (DType.INT8, DType.INT16))
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output", (DType.FLOAT32,))
    input_q = require_quantization(node, input_tensor, "input")
    suffix = "s8" if input_tensor.dtype is DType.INT8 else "s16"
    call = (
        f"status = opbridge_dequantize_{suffix}_f32({input_tensor.element_count}, {float(input_q.scale)!r}f, "
        f"{input_q.zero_point}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.outputs[0])});"
    )
    header = KERNELS_HEADER if input_tensor.dtype is DType.INT8 else "cc/kernels/opbridge_kernels_s16.h"
    return NodeCode(includes=[header], statements=[call])
