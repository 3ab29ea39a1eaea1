"""DEQUANTIZE: int8 -> float32, scale * (q - zero_point)."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.dequantize.emit_c import emit_dequantize
from opbridge.ops.dequantize.reference import dequantize_reference
from opbridge.ops.dequantize.schema import DEQUANTIZE_SCHEMA

DEQUANTIZE = OperatorDefinition(
    op_type="DEQUANTIZE",
    reference=dequantize_reference,
    litert_builtin_code=BuiltinOperator.DEQUANTIZE,
    litert_versions=frozenset({1, 2, 3, 4, 5}),
    emit_c=emit_dequantize,
    doc=__doc__ or "",
    schema=DEQUANTIZE_SCHEMA,
)
