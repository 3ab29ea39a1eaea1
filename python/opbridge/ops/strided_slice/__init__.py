# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE: every stride-th element between begin and end along each axis (ranks 1 to 4).

begin, end and strides must be constant int32 tensors, as TFLite Micro
requires; begin_mask, end_mask and shrink_axis_mask are supported,
ellipsis_mask, new_axis_mask and offset are not (TFLite Micro ignores them).
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.strided_slice.emit_c import emit_strided_slice
from opbridge.ops.strided_slice.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.strided_slice.onnx import ONNX_CONVERTERS
from opbridge.ops.strided_slice.reference import strided_slice_reference
from opbridge.ops.strided_slice.schema import STRIDED_SLICE_SCHEMA

STRIDED_SLICE = OperatorDefinition(
    op_type="STRIDED_SLICE",
    reference=strided_slice_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_strided_slice,
    c_kernels=("opbridge_strided_slice.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=STRIDED_SLICE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (STRIDED_SLICE,)
