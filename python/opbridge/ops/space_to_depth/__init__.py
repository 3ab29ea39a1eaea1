# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH on NHWC, float32 and int8 (TFLite Micro's reference SpaceToDepth), DEPTH_TO_SPACE's inverse.

[N, H, W, C] -> [N, H / block, W / block, block^2 * C]: output (n, h, w, (y * block + x) * C + c) is input
(n, h * block + y, w * block + x, c). Elements are moved unchanged; int8 needs the output's quantization to
equal the input's. block_size >= 1 (1 is the identity), dividing H and W.
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.space_to_depth.emit_c import emit_space_to_depth
from opbridge.ops.space_to_depth.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.space_to_depth.onnx import ONNX_CONVERTERS
from opbridge.ops.space_to_depth.reference import space_to_depth_reference
from opbridge.ops.space_to_depth.schema import SPACE_TO_DEPTH_SCHEMA

SPACE_TO_DEPTH = OperatorDefinition(
    op_type="SPACE_TO_DEPTH",
    reference=space_to_depth_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_space_to_depth,
    c_kernels=("opbridge_depth_space.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SPACE_TO_DEPTH_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SPACE_TO_DEPTH,)
