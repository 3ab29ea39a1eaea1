# SPDX-License-Identifier: Apache-2.0
"""PACK: values_count tensors of one shape stacked along a new axis (float32, int8, int16, int32, int64;
int8 and int16 inputs share the output's quantization)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.pack.emit_c import emit_pack
from opbridge.ops.pack.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.pack.onnx import ONNX_CONVERTERS
from opbridge.ops.pack.reference import pack_reference
from opbridge.ops.pack.schema import PACK_SCHEMA

PACK = OperatorDefinition(
    op_type="PACK",
    reference=pack_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_pack,
    c_kernels=("opbridge_split_pack.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=PACK_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (PACK,)
