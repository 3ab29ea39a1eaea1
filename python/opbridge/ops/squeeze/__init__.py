# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: drops size-1 dimensions; the same bytes under the output's shape."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.squeeze.emit_c import emit_squeeze
from opbridge.ops.squeeze.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.squeeze.onnx import ONNX_CONVERTERS
from opbridge.ops.squeeze.reference import squeeze_reference
from opbridge.ops.squeeze.schema import SQUEEZE_SCHEMA

SQUEEZE = OperatorDefinition(
    op_type="SQUEEZE",
    reference=squeeze_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_squeeze,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SQUEEZE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    # output 0 is input 0's bytes under another shape
    memory=NodeMemory(aliases_input=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SQUEEZE,)
