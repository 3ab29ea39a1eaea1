# SPDX-License-Identifier: Apache-2.0
"""CONV_2D: 2-D convolution, NHWC input, OHWI filter: int8 with int32 bias, or float32."""

from opbridge.ops.conv_2d.emit_c import conv_2d_scratch_bytes, emit_conv_2d, folded_bias_input, kernel_path
from opbridge.ops.conv_2d.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.conv_2d.onnx import ONNX_CONVERTERS
from opbridge.ops.conv_2d.reference import conv_2d_reference
from opbridge.ops.conv_2d.schema import CONV_2D_SCHEMA
from opbridge.ops.conv_2d.torch import TORCH_CONVERTERS
from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.shared.folded import FOLDED_KERNEL_FILES
from opbridge.ops.shared.macs import conv_2d_macs

CONV_2D = OperatorDefinition(
    op_type="CONV_2D",
    reference=conv_2d_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_conv_2d,
    absorbed_constants=folded_bias_input,
    c_kernels=("opbridge_conv_s8.c", "opbridge_conv_f32.c", *FOLDED_KERNEL_FILES),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=CONV_2D_SCHEMA,
    macs=conv_2d_macs,
    cost_class=kernel_path,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    memory=NodeMemory(scratch=conv_2d_scratch_bytes),
    patch_tiles=True,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (CONV_2D,)
