# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR on NHWC, float32 and int8 (TFLite Micro's reference ResizeBilinear and ResizeBilinearInteger).

[N, H, W, C] and a constant int32 size (height, width) -> [N, height, width, C], each output pixel weighted
from its four neighbours: in float32 for float32, in TFLite's 10-bit fixed point for int8 (the output keeps the
input's quantization). align_corners or half_pixel_centers, not both (TFLite Micro refuses the pair).
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.resize_bilinear.emit_c import emit_resize_bilinear
from opbridge.ops.resize_bilinear.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.resize_bilinear.onnx import ONNX_CONVERTERS
from opbridge.ops.resize_bilinear.reference import resize_bilinear_reference
from opbridge.ops.resize_bilinear.schema import RESIZE_BILINEAR_SCHEMA
from opbridge.ops.resize_nearest_neighbor.emit_c import size_input
from opbridge.ops.shared.macs import per_output_element

RESIZE_BILINEAR = OperatorDefinition(
    op_type="RESIZE_BILINEAR",
    reference=resize_bilinear_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_resize_bilinear,
    c_kernels=("opbridge_resize.c",),
    absorbed_constants=size_input,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=RESIZE_BILINEAR_SCHEMA,
    macs=per_output_element(4),
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RESIZE_BILINEAR,)
