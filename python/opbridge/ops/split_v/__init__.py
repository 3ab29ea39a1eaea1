# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V: the input cut into parts of constant sizes (size_splits, int32 or int64; one may be -1)
along a constant int32 axis (float32, int8, int16, int32; every output keeps the input's quantization)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.split.reference import constant_inputs
from opbridge.ops.split_v.emit_c import emit_split_v
from opbridge.ops.split_v.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.split_v.onnx import ONNX_CONVERTERS
from opbridge.ops.split_v.reference import split_v_reference
from opbridge.ops.split_v.schema import SPLIT_V_SCHEMA

SPLIT_V = OperatorDefinition(
    op_type="SPLIT_V",
    reference=split_v_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_split_v,
    c_kernels=("opbridge_split_pack.c",),
    absorbed_constants=constant_inputs(1, 2),  # size_splits and the axis: the parameters carry them
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SPLIT_V_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SPLIT_V,)
