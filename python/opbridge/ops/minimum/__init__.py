# SPDX-License-Identifier: Apache-2.0
"""MINIMUM: the element-wise smaller of two int8, int16, int32 or float32 tensors (broadcasting).

Raw values are compared, whatever their quantization, as TFLite Micro does.
"""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.minimum.emit_c import emit_minimum
from opbridge.ops.minimum.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.minimum.onnx import ONNX_CONVERTERS
from opbridge.ops.minimum.reference import minimum_reference
from opbridge.ops.minimum.schema import MINIMUM_SCHEMA

MINIMUM = OperatorDefinition(
    op_type="MINIMUM",
    reference=minimum_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_minimum,
    c_kernels=("opbridge_arithmetic_int.c", "opbridge_elementwise_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=MINIMUM_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (MINIMUM,)
