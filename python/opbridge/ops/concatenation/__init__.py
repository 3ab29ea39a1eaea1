# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION: inputs joined along one axis (int8 of the output's quantization, or int16, int32, ...)."""

from opbridge.ops.concatenation.emit_c import concatenation_slices, emit_concatenation
from opbridge.ops.concatenation.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.concatenation.onnx import ONNX_CONVERTERS
from opbridge.ops.concatenation.reference import concatenation_reference
from opbridge.ops.concatenation.schema import CONCATENATION_SCHEMA
from opbridge.ops.concatenation.torch import TORCH_CONVERTERS
from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition

CONCATENATION = OperatorDefinition(
    op_type="CONCATENATION",
    reference=concatenation_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_concatenation,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=CONCATENATION_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    # Along its outermost axis, the producers write straight into the output (docs/memory_planner.md).
    memory=NodeMemory(output_slices=concatenation_slices),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (CONCATENATION,)
