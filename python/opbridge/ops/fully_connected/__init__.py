"""FULLY_CONNECTED: output = input x filter^T + bias: int8 with int32 bias, or float32."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.fully_connected.emit_c import emit_fully_connected
from opbridge.ops.fully_connected.litert import parse_litert_options
from opbridge.ops.fully_connected.reference import fully_connected_reference
from opbridge.ops.fully_connected.schema import FULLY_CONNECTED_SCHEMA

FULLY_CONNECTED = OperatorDefinition(
    op_type="FULLY_CONNECTED",
    reference=fully_connected_reference,
    litert_builtin_code=BuiltinOperator.FULLY_CONNECTED,
    litert_versions=frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9}),
    parse_litert_options=parse_litert_options,
    emit_c=emit_fully_connected,
    doc=__doc__ or "",
    schema=FULLY_CONNECTED_SCHEMA,
)
