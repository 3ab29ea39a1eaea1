# SPDX-License-Identifier: Apache-2.0
"""GELU: x * Phi(x), the Gaussian error linear unit of transformers and modern CNNs. float32: the exact
erfc form or the tanh approximation, in float32 steps; int8: LiteRT's 256-entry lookup table, made at
conversion time from the input and output quantizations (TFLite Micro has no GELU)."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.gelu.emit_c import emit_gelu
from opbridge.ops.gelu.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.gelu.onnx import ONNX_CONVERTERS
from opbridge.ops.gelu.reference import gelu_reference
from opbridge.ops.gelu.schema import GELU_SCHEMA
from opbridge.ops.gelu.torch import TORCH_CONVERTERS

GELU = OperatorDefinition(
    op_type="GELU",
    reference=gelu_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_gelu,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    c_kernels=("opbridge_gelu.c",),
    doc=__doc__ or "",
    schema=GELU_SCHEMA,
    macs=None,  # a table lookup or libm's erfcf / expf: no multiply-accumulate (docs/adding_an_operator.md)
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (GELU,)
