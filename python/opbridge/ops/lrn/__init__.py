# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION: x * (bias + alpha * sum of squares over a window of channels)^-beta along the
last axis, float32 (AlexNet's and GoogLeNet's LRN): from LiteRT and from ONNX's LRN (alpha / size)."""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.lrn.emit_c import emit_local_response_normalization
from opbridge.ops.lrn.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.lrn.onnx import ONNX_CONVERTERS
from opbridge.ops.lrn.reference import local_response_normalization_macs, local_response_normalization_reference
from opbridge.ops.lrn.schema import LOCAL_RESPONSE_NORMALIZATION_SCHEMA

LOCAL_RESPONSE_NORMALIZATION = OperatorDefinition(
    op_type="LOCAL_RESPONSE_NORMALIZATION",
    reference=local_response_normalization_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_local_response_normalization,
    c_kernels=("opbridge_local_response_normalization_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=LOCAL_RESPONSE_NORMALIZATION_SCHEMA,
    macs=local_response_normalization_macs,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (LOCAL_RESPONSE_NORMALIZATION,)
