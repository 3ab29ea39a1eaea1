# SPDX-License-Identifier: Apache-2.0
"""DEPTHWISE_CONV_2D: per-channel 2-D convolution with a depth multiplier: int8 with int32 bias, or float32."""

from opbridge.ops.conv_2d.emit_c import folded_bias_input, kernel_path
from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.depthwise_conv_2d.emit_c import emit_depthwise_conv_2d, in_place_scratch_bytes, runs_in_place
from opbridge.ops.depthwise_conv_2d.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.depthwise_conv_2d.reference import depthwise_conv_2d_reference
from opbridge.ops.depthwise_conv_2d.schema import DEPTHWISE_CONV_2D_SCHEMA
from opbridge.ops.shared.folded import FOLDED_KERNEL_FILES
from opbridge.ops.shared.macs import depthwise_conv_2d_macs

DEPTHWISE_CONV_2D = OperatorDefinition(
    op_type="DEPTHWISE_CONV_2D",
    reference=depthwise_conv_2d_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_depthwise_conv_2d,
    absorbed_constants=folded_bias_input,
    c_kernels=("opbridge_conv_s8.c", "opbridge_conv_f32.c", *FOLDED_KERNEL_FILES),
    doc=__doc__ or "",
    schema=DEPTHWISE_CONV_2D_SCHEMA,
    macs=depthwise_conv_2d_macs,
    cost_class=kernel_path,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    # int8 stride-1 layers whose input dies here run row by row over their input, keeping the rows
    # their windows still need in a scratch of a few rows (docs/memory_planner.md, "In place").
    memory=NodeMemory(
        in_place=runs_in_place,
        in_place_scratch=in_place_scratch_bytes,
    ),
    patch_tiles=True,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (DEPTHWISE_CONV_2D,)
