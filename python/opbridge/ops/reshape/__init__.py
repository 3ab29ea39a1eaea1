"""RESHAPE: the same bytes under another shape (the output's, fixed at conversion)."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.reshape.emit_c import emit_reshape
from opbridge.ops.reshape.schema import RESHAPE_SCHEMA


def reshape_reference(call: ReferenceCall) -> list[Array]:
    return [call.value(0).reshape(call.outputs[0].shape).copy()]


RESHAPE = OperatorDefinition(
    op_type="RESHAPE",
    reference=reshape_reference,
    litert_builtin_code=BuiltinOperator.RESHAPE,
    litert_versions=frozenset({1, 2}),
    emit_c=emit_reshape,
    doc=__doc__ or "",
    schema=RESHAPE_SCHEMA,
)
