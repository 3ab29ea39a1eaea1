# SPDX-License-Identifier: Apache-2.0
"""PRELU: x >= 0 ? x : alpha * x on float32, alpha broadcast against x (TFLite Micro's comparison: -0.0 is kept,
NaN takes the product); from LiteRT PRELU and ONNX PRelu."""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.prelu.emit_c import emit_prelu
from opbridge.ops.prelu.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.prelu.onnx import ONNX_CONVERTERS
from opbridge.ops.prelu.reference import prelu_reference
from opbridge.ops.prelu.schema import PRELU_SCHEMA
from opbridge.ops.shared.macs import per_output_element

PRELU = OperatorDefinition(
    op_type="PRELU",
    reference=prelu_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_prelu,
    c_kernels=("opbridge_binary_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=PRELU_SCHEMA,
    macs=per_output_element(1),
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (PRELU,)
