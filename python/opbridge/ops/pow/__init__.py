# SPDX-License-Identifier: Apache-2.0
"""POW: base ** exponent on float32 tensors with broadcasting (TFLite's std::pow); from LiteRT POW and ONNX Pow.

The reference is pow in float64 rounded once to float32; libm's powf (TFLite, the C kernel) is within an ulp of it.
"""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.pow.emit_c import emit_pow
from opbridge.ops.pow.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.pow.onnx import ONNX_CONVERTERS
from opbridge.ops.pow.reference import pow_reference
from opbridge.ops.pow.schema import POW_SCHEMA

POW = OperatorDefinition(
    op_type="POW",
    reference=pow_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_pow,
    c_kernels=("opbridge_binary_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=POW_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (POW,)
