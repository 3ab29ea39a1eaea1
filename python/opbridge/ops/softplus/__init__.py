# SPDX-License-Identifier: Apache-2.0
"""SOFTPLUS on float32: log(1 + exp(x)) as x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)) (onnxruntime's
formula: no overflow). ONNX only: LiteRT has no SOFTPLUS builtin. The reference rounds float64 exp and
log1p once each, so libm's expf and log1pf may differ by an ulp."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.softplus.emit_c import emit_softplus
from opbridge.ops.softplus.litert import LITERT_CODE
from opbridge.ops.softplus.onnx import ONNX_CONVERTERS
from opbridge.ops.softplus.reference import softplus_reference
from opbridge.ops.softplus.schema import SOFTPLUS_SCHEMA

SOFTPLUS = OperatorDefinition(
    op_type="SOFTPLUS",
    reference=softplus_reference,
    litert_builtin_code=LITERT_CODE,
    emit_c=emit_softplus,
    onnx_converters=ONNX_CONVERTERS,
    c_kernels=("opbridge_activations_f32.c",),
    doc=__doc__ or "",
    schema=SOFTPLUS_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SOFTPLUS,)
