# SPDX-License-Identifier: Apache-2.0
"""NEG on float32: -x, TFLite Micro's Negate (the sign bit flips: 0.0 -> -0.0, NaN stays NaN);
exact, so the C kernel equals the reference bit for bit."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.neg.emit_c import emit_neg
from opbridge.ops.neg.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.neg.onnx import ONNX_CONVERTERS
from opbridge.ops.neg.reference import neg_reference
from opbridge.ops.neg.schema import NEG_SCHEMA
from opbridge.ops.neg.torch import TORCH_CONVERTERS

NEG = OperatorDefinition(
    op_type="NEG",
    reference=neg_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_neg,
    c_kernels=("opbridge_math_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=NEG_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (NEG,)
