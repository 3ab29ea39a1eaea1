"""TANH on int8: gemmlowp's fixed-point tanh; output scale 1/128, zero point 0. On float32: tanh (C: tanhf;
the reference rounds a float64 tanh once, so they may differ by an ulp or two)."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import emit_float32_unary, float32_tanh, float32_unary_reference
from opbridge.ops.logistic import emit_activation, saturating_activation
from opbridge.ops.tanh.schema import TANH_SCHEMA


def tanh_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_tanh)
    return [saturating_activation(call, "tanh")]


def emit_tanh(ctx: EmitContext, node: Node) -> NodeCode:
    if ctx.graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return emit_float32_unary(ctx, node, "opbridge_tanh_f32")
    return emit_activation(ctx, node, "opbridge_tanh_s8")


TANH = OperatorDefinition(
    op_type="TANH",
    reference=tanh_reference,
    litert_builtin_code=BuiltinOperator.TANH,
    litert_versions=frozenset({1, 2, 3}),
    emit_c=emit_tanh,
    doc=__doc__ or "",
    schema=TANH_SCHEMA,
)
