# SPDX-License-Identifier: Apache-2.0
"""SQUARED_DIFFERENCE: (a - b)^2 element by element, with broadcasting, on float32 (two float32 operations),
int32 (wrapping around) or int8 (TFLite Micro's fixed point: each input shifted left by 7 and rescaled onto twice
the larger input scale, the difference squared in int32 and rescaled to the output)."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.shared.macs import per_output_element
from opbridge.ops.squared_difference.emit_c import emit_squared_difference
from opbridge.ops.squared_difference.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.squared_difference.onnx import ONNX_CONVERTERS
from opbridge.ops.squared_difference.reference import squared_difference_reference
from opbridge.ops.squared_difference.schema import SQUARED_DIFFERENCE_SCHEMA

SQUARED_DIFFERENCE = OperatorDefinition(
    op_type="SQUARED_DIFFERENCE",
    reference=squared_difference_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_squared_difference,
    c_kernels=("opbridge_squared_difference.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SQUARED_DIFFERENCE_SCHEMA,
    macs=per_output_element(1),
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SQUARED_DIFFERENCE,)
