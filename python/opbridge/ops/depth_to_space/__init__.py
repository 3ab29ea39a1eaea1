# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE on NHWC, float32 and int8 (TFLite Micro's reference DepthToSpace, DCR order).

[N, H, W, C] -> [N, H * block, W * block, C / block^2]: output (n, h * block + y, w * block + x, d) is input
(n, h, w, (y * block + x) * (C / block^2) + d). Elements are moved unchanged; int8 needs the output's
quantization to equal the input's. block_size >= 1 (1 is the identity), its square dividing C.
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.depth_to_space.emit_c import emit_depth_to_space
from opbridge.ops.depth_to_space.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.depth_to_space.onnx import ONNX_CONVERTERS
from opbridge.ops.depth_to_space.reference import depth_to_space_reference
from opbridge.ops.depth_to_space.schema import DEPTH_TO_SPACE_SCHEMA

DEPTH_TO_SPACE = OperatorDefinition(
    op_type="DEPTH_TO_SPACE",
    reference=depth_to_space_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_depth_to_space,
    c_kernels=("opbridge_depth_space.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=DEPTH_TO_SPACE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (DEPTH_TO_SPACE,)
