# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX over constant axes, float32 and int8 (TFLite Micro's ReduceGeneric with lowest and >).

Each output starts at the type's lowest value (-FLT_MAX, -128) and takes each
input, in row-major input order, only when `in > current`: so NaN never wins
(an all-NaN or all -inf reduction gives -FLT_MAX), and of equal values, 0.0
and -0.0 included, the first one stays. int8 compares the stored values and
needs equal input and output quantization, as TFLite Micro does. Inputs and
attributes are MEAN's (keep_dims).
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.reduce_max.emit_c import emit_reduce_max
from opbridge.ops.reduce_max.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.reduce_max.onnx import ONNX_CONVERTERS
from opbridge.ops.reduce_max.reference import reduce_max_reference
from opbridge.ops.reduce_max.schema import REDUCE_MAX_SCHEMA

REDUCE_MAX = OperatorDefinition(
    op_type="REDUCE_MAX",
    reference=reduce_max_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_reduce_max,
    c_kernels=("opbridge_reduce_max.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=REDUCE_MAX_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (REDUCE_MAX,)
