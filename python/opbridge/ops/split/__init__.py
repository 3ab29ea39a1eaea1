# SPDX-License-Identifier: Apache-2.0
"""SPLIT: the input (input 1) cut into num_splits equal parts along a constant int32 axis (input 0)
(float32, int8, int16, int32; every output keeps the input's quantization)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.split.emit_c import emit_split
from opbridge.ops.split.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.split.onnx import ONNX_CONVERTERS
from opbridge.ops.split.reference import constant_inputs, split_reference
from opbridge.ops.split.schema import SPLIT_SCHEMA

SPLIT = OperatorDefinition(
    op_type="SPLIT",
    reference=split_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_split,
    c_kernels=("opbridge_split_pack.c",),
    absorbed_constants=constant_inputs(0),  # the axis: the parameters carry it
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SPLIT_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SPLIT,)
