"""DEQUANTIZE: int8 -> float32, scale * (q - zero_point)."""

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.common import require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.dequantize.schema import DEQUANTIZE_SCHEMA


def dequantize_reference(call: ReferenceCall) -> list[Array]:
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    centred = (call.value(0).astype(np.int32) - input_q.zero_point).astype(np.float32)
    # One float32 multiply of exact operands: the correctly rounded product, as in C.
    return [(np.float32(input_q.scale) * centred).astype(np.float32)]


def emit_dequantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor = ctx.graph.tensor(node.inputs[0])
    require_dtype(node, input_tensor, "input")
    require_dtype(node, ctx.graph.tensor(node.outputs[0]), "output", (DType.FLOAT32,))
    input_q = require_quantization(node, input_tensor, "input")
    call = (
        f"status = opbridge_dequantize_s8_f32({input_tensor.element_count}, {float(input_q.scale)!r}f, "
        f"{input_q.zero_point}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[KERNELS_HEADER], statements=[call])


DEQUANTIZE = OperatorDefinition(
    op_type="DEQUANTIZE",
    reference=dequantize_reference,
    litert_builtin_code=BuiltinOperator.DEQUANTIZE,
    litert_versions=frozenset({1, 2, 3, 4, 5}),
    emit_c=emit_dequantize,
    doc=__doc__ or "",
    schema=DEQUANTIZE_SCHEMA,
)
