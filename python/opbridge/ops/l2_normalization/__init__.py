# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION: x / max(||x||, 1e-6) along the last axis, float32 and int8 (TFLite's fixed-point inverse square
root, outputs in units of 1/128), bit-exact with TFLite Micro's reference kernel; activation NONE only."""

from opbridge.ops.definition import NO_MEMORY, TANH_OUTPUT, Layout, OperatorDefinition
from opbridge.ops.l2_normalization.emit_c import emit_l2_normalization
from opbridge.ops.l2_normalization.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.l2_normalization.onnx import ONNX_CONVERTERS
from opbridge.ops.l2_normalization.reference import l2_normalization_reference
from opbridge.ops.l2_normalization.schema import L2_NORMALIZATION_SCHEMA
from opbridge.ops.shared.macs import per_output_element

L2_NORMALIZATION = OperatorDefinition(
    op_type="L2_NORMALIZATION",
    reference=l2_normalization_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_l2_normalization,
    c_kernels=("opbridge_l2_normalization.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=L2_NORMALIZATION_SCHEMA,
    macs=per_output_element(2),
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=TANH_OUTPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (L2_NORMALIZATION,)
