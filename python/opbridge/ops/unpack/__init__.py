# SPDX-License-Identifier: Apache-2.0
"""UNPACK: the input taken apart along an axis into its num slices, the axis removed (float32, int8,
int16, int32; every output keeps the input's quantization)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.unpack.emit_c import emit_unpack
from opbridge.ops.unpack.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.unpack.onnx import ONNX_CONVERTERS
from opbridge.ops.unpack.reference import unpack_reference
from opbridge.ops.unpack.schema import UNPACK_SCHEMA

UNPACK = OperatorDefinition(
    op_type="UNPACK",
    reference=unpack_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_unpack,
    c_kernels=("opbridge_split_pack.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=UNPACK_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (UNPACK,)
