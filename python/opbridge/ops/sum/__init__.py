# SPDX-License-Identifier: Apache-2.0
"""SUM over constant axes, float32 (TFLite Micro's ReduceGeneric with 0 and +).

Each output is 0 plus its inputs in row-major input order, one float32
rounding per addition; the reference adds column by column in that order,
never with np.sum (pairwise). Inputs and attributes are MEAN's (keep_dims).
int8 is not converted yet: the schema takes float32 only.
"""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.sum.emit_c import emit_sum
from opbridge.ops.sum.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.sum.onnx import ONNX_CONVERTERS
from opbridge.ops.sum.reference import sum_reference
from opbridge.ops.sum.schema import SUM_SCHEMA

SUM = OperatorDefinition(
    op_type="SUM",
    reference=sum_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_sum,
    c_kernels=("opbridge_sum_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SUM_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SUM,)
