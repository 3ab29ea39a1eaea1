"""DIV: element-wise quotient of two plain int32 tensors (broadcasting), truncated toward zero."""

from tflite.BuiltinOperator import BuiltinOperator

from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.div.litert import parse_litert_options
from opbridge.ops.div.lowering import lower_div
from opbridge.ops.div.reference import div_reference

DIV = OperatorDefinition(
    op_type="DIV",
    reference=div_reference,
    litert_builtin_code=BuiltinOperator.DIV,
    litert_versions=frozenset({1, 2}),
    parse_litert_options=parse_litert_options,
    lower_c=lower_div,
    doc=__doc__ or "",
)
