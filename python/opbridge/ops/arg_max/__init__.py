# SPDX-License-Identifier: Apache-2.0
"""ARG_MAX along one constant axis, float32 and int8 inputs, int32 or int64 indices (TFLite Micro's ArgMinMax).

Element 0 of the axis is taken first and element i replaces the kept one only when it compares strictly
greater (`>`), so of equal values (0.0 and -0.0 included) the first index is returned; a float32 NaN never
replaces and, at index 0, is never replaced (the output is 0). int8 compares the stored values. The axis is a constant
int32 or int64 tensor of one element (negative counts from the end); the output drops the axis.
"""

from opbridge.ops.arg_max.emit_c import emit_arg_max
from opbridge.ops.arg_max.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.arg_max.onnx import ONNX_CONVERTERS
from opbridge.ops.arg_max.reference import arg_max_reference
from opbridge.ops.arg_max.schema import ARG_MAX_SCHEMA
from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition

ARG_MAX = OperatorDefinition(
    op_type="ARG_MAX",
    reference=arg_max_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_arg_max,
    c_kernels=("opbridge_arg_min_max.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=ARG_MAX_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ARG_MAX,)
