# SPDX-License-Identifier: Apache-2.0
"""ELU on float32: x < 0 ? alpha * expm1(x) : x (TFLite Micro's expm1f, alpha 1 from LiteRT; ONNX Elu's alpha,
and ONNX Selu as ELU then MUL). The reference rounds a float64 expm1 once, so libm's expm1f may differ by an
ulp."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.elu.emit_c import emit_elu
from opbridge.ops.elu.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.elu.onnx import ONNX_CONVERTERS
from opbridge.ops.elu.reference import elu_reference
from opbridge.ops.elu.schema import ELU_SCHEMA
from opbridge.ops.elu.torch import TORCH_CONVERTERS

ELU = OperatorDefinition(
    op_type="ELU",
    reference=elu_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_elu,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    c_kernels=("opbridge_activations_f32.c",),
    doc=__doc__ or "",
    schema=ELU_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ELU,)
