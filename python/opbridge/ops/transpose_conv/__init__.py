# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV: transposed 2-D convolution (LiteRT's, and ONNX's ConvTranspose), float32: NHWC input, OHWI
filter, optional bias, the output shape a constant input; TFLite Micro's float reference, bit for bit."""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.transpose_conv.emit_c import emit_transpose_conv, output_shape_input
from opbridge.ops.transpose_conv.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.transpose_conv.onnx import ONNX_CONVERTERS
from opbridge.ops.transpose_conv.reference import transpose_conv_macs, transpose_conv_reference
from opbridge.ops.transpose_conv.schema import TRANSPOSE_CONV_SCHEMA

TRANSPOSE_CONV = OperatorDefinition(
    op_type="TRANSPOSE_CONV",
    reference=transpose_conv_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_transpose_conv,
    absorbed_constants=output_shape_input,
    c_kernels=("opbridge_transpose_conv_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=TRANSPOSE_CONV_SCHEMA,
    macs=transpose_conv_macs,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (TRANSPOSE_CONV,)
