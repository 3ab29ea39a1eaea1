# SPDX-License-Identifier: Apache-2.0
"""EXP on float32: e^x (C: libm's expf, as TFLite Micro; the reference rounds a float64 exp once, so the
two may differ by an ulp)."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.exp.emit_c import emit_exp
from opbridge.ops.exp.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.exp.onnx import ONNX_CONVERTERS
from opbridge.ops.exp.reference import exp_reference
from opbridge.ops.exp.schema import EXP_SCHEMA
from opbridge.ops.exp.torch import TORCH_CONVERTERS

EXP = OperatorDefinition(
    op_type="EXP",
    reference=exp_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_exp,
    c_kernels=("opbridge_math_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=EXP_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (EXP,)
