# SPDX-License-Identifier: Apache-2.0
"""DIV: element-wise quotient of two plain int32 tensors (truncated toward zero) or of two float32 tensors
(broadcasting)."""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.div.emit_c import emit_div
from opbridge.ops.div.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.div.onnx import ONNX_CONVERTERS
from opbridge.ops.div.reference import div_reference
from opbridge.ops.div.schema import DIV_SCHEMA
from opbridge.ops.div.torch import TORCH_CONVERTERS

DIV = OperatorDefinition(
    op_type="DIV",
    reference=div_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_div,
    c_kernels=("opbridge_arithmetic_int.c", "opbridge_elementwise_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=DIV_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (DIV,)
