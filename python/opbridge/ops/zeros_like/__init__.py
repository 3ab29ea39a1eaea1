# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE: a tensor of the input's shape and dtype (int8, int32, int64 or float32) filled with 0, TFLite
Micro's; for int8 the stored value 0, not the quantized zero point (as TFLite Micro). The input is not read."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.zeros_like.emit_c import emit_zeros_like
from opbridge.ops.zeros_like.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.zeros_like.onnx import ONNX_CONVERTERS
from opbridge.ops.zeros_like.reference import zeros_like_reference
from opbridge.ops.zeros_like.schema import ZEROS_LIKE_SCHEMA

ZEROS_LIKE = OperatorDefinition(
    op_type="ZEROS_LIKE",
    reference=zeros_like_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_zeros_like,
    c_kernels=("opbridge_zeros_like.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=ZEROS_LIKE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=SAME_AS_INPUT,
    memory=NodeMemory(
        in_place=True
    ),  # the input is never read, so the output may take its bytes (docs/memory_planner.md)
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ZEROS_LIKE,)
