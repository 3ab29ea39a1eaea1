# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX: exp(beta * (x - max)) / sum over the last axis, int8 in and int8 or int16 out, int16 in and out (16x8), or
float32."""

from opbridge.ops.definition import NO_MEMORY, SOFTMAX_OUTPUT, Layout, OperatorDefinition
from opbridge.ops.softmax.emit_c import emit_softmax
from opbridge.ops.softmax.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.softmax.onnx import ONNX_CONVERTERS
from opbridge.ops.softmax.reference import softmax_reference
from opbridge.ops.softmax.schema import SOFTMAX_SCHEMA
from opbridge.ops.softmax.torch import TORCH_CONVERTERS

SOFTMAX = OperatorDefinition(
    op_type="SOFTMAX",
    reference=softmax_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_softmax,
    c_kernels=("opbridge_softmax_s8.c", "opbridge_softmax_s16.c", "opbridge_softmax_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=SOFTMAX_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SOFTMAX_OUTPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SOFTMAX,)
