# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR on NHWC, float32, int8 and int16 (TFLite Micro's reference ResizeNearestNeighbor).

[N, H, W, C] and a constant int32 size (height, width) -> [N, height, width, C], each output pixel a copy of
the input pixel TFLite's float32 index rule picks (align_corners, half_pixel_centers, both allowed together).
Integer outputs need the input's quantization.
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.resize_nearest_neighbor.emit_c import emit_resize_nearest_neighbor, size_input
from opbridge.ops.resize_nearest_neighbor.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.resize_nearest_neighbor.onnx import ONNX_CONVERTERS
from opbridge.ops.resize_nearest_neighbor.reference import resize_nearest_neighbor_reference
from opbridge.ops.resize_nearest_neighbor.schema import RESIZE_NEAREST_NEIGHBOR_SCHEMA

RESIZE_NEAREST_NEIGHBOR = OperatorDefinition(
    op_type="RESIZE_NEAREST_NEIGHBOR",
    reference=resize_nearest_neighbor_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_resize_nearest_neighbor,
    c_kernels=("opbridge_resize.c",),
    absorbed_constants=size_input,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=RESIZE_NEAREST_NEIGHBOR_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RESIZE_NEAREST_NEIGHBOR,)
