"""TANH on int8: gemmlowp's fixed-point tanh; output scale 1/128, zero point 0."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.lowering import LoweringContext, NodeCode
from opbridge.ir import Node
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.logistic import lower_activation, saturating_activation


def tanh_reference(call: ReferenceCall) -> list[Array]:
    return [saturating_activation(call, "tanh")]


def lower_tanh(ctx: LoweringContext, node: Node) -> NodeCode:
    return lower_activation(ctx, node, "opbridge_tanh_s8")


TANH = OperatorDefinition(
    op_type="TANH",
    reference=tanh_reference,
    litert_builtin_code=BuiltinOperator.TANH,
    litert_versions=frozenset({1, 2, 3}),
    lower_c=lower_tanh,
    doc=__doc__ or "",
)
