# SPDX-License-Identifier: Apache-2.0
"""ABS on float32: |x|, TFLite Micro's std::abs (the sign bit clears: -0.0 -> 0.0, NaN stays NaN); exact,
so the C kernel equals the reference bit for bit."""

from opbridge.ops.abs.emit_c import emit_abs
from opbridge.ops.abs.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.abs.onnx import ONNX_CONVERTERS
from opbridge.ops.abs.reference import abs_reference
from opbridge.ops.abs.schema import ABS_SCHEMA
from opbridge.ops.abs.torch import TORCH_CONVERTERS
from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition

ABS = OperatorDefinition(
    op_type="ABS",
    reference=abs_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_abs,
    c_kernels=("opbridge_math_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=ABS_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ABS,)
