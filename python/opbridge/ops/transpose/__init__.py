# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE: permutes a tensor's axes by a constant int32 perm (ranks up to 6, any element type)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.transpose.emit_c import emit_transpose
from opbridge.ops.transpose.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.transpose.onnx import ONNX_CONVERTERS
from opbridge.ops.transpose.reference import transpose_reference
from opbridge.ops.transpose.schema import TRANSPOSE_SCHEMA
from opbridge.ops.transpose.torch import TORCH_CONVERTERS

TRANSPOSE = OperatorDefinition(
    op_type="TRANSPOSE",
    reference=transpose_reference,
    litert_builtin_code=LITERT_CODE,
    # TFLite's versions: 1 float32 and others, 2 int8, 3 bool, 4 five dimensions, 5 int16, 6 six dimensions.
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_transpose,
    c_kernels=("opbridge_transpose.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=TRANSPOSE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (TRANSPOSE,)
