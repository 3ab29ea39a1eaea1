# SPDX-License-Identifier: Apache-2.0
"""GATHER: input slices along one axis picked by int32 or int64 positions, a graph input or a constant
(float32, int8, int32 data; batch_dims 0 only). A position outside [0, size) is an error, as in TFLite
Micro: the reference raises, the C kernel returns OPBRIDGE_STATUS_INVALID_ARGUMENT. An int8 output keeps
the input's quantization."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.gather.emit_c import emit_gather
from opbridge.ops.gather.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.gather.onnx import ONNX_CONVERTERS
from opbridge.ops.gather.reference import gather_input_ranges, gather_reference
from opbridge.ops.gather.schema import GATHER_SCHEMA

GATHER = OperatorDefinition(
    op_type="GATHER",
    reference=gather_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_gather,
    c_kernels=("opbridge_gather.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=GATHER_SCHEMA,
    input_ranges=gather_input_ranges,  # golden data for graph-input positions stays in range
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (GATHER,)
