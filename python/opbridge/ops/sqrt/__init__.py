# SPDX-License-Identifier: Apache-2.0
"""SQRT on float32: the square root (C: sqrtf, as TFLite Micro; -0.0 for -0.0, NaN below 0: 0x7FC00000 in C on
every platform). IEEE-754 rounds it correctly, so the C kernel equals the reference bit for bit."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.sqrt.emit_c import emit_sqrt
from opbridge.ops.sqrt.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.sqrt.onnx import ONNX_CONVERTERS
from opbridge.ops.sqrt.reference import sqrt_reference
from opbridge.ops.sqrt.schema import SQRT_SCHEMA
from opbridge.ops.sqrt.torch import TORCH_CONVERTERS

SQRT = OperatorDefinition(
    op_type="SQRT",
    reference=sqrt_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_sqrt,
    c_kernels=("opbridge_math_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=SQRT_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SQRT,)
