"""SQUEEZE: drops size-1 dimensions; the same bytes under the output's shape."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.reshape import reshape_reference
from opbridge.ops.reshape.emit_c import emit_reshape
from opbridge.ops.squeeze.litert import parse_litert_options
from opbridge.ops.squeeze.schema import SQUEEZE_SCHEMA

# The memory planner aliases SQUEEZE like RESHAPE (backends/c/memory_plan.py).
SQUEEZE = OperatorDefinition(
    op_type="SQUEEZE",
    reference=reshape_reference,
    litert_builtin_code=BuiltinOperator.SQUEEZE,
    litert_versions=frozenset({1, 2}),
    parse_litert_options=parse_litert_options,
    emit_c=emit_reshape,
    doc=__doc__ or "",
    schema=SQUEEZE_SCHEMA,
)
