# SPDX-License-Identifier: Apache-2.0
"""RESHAPE: the same bytes under another shape (the output's, fixed at conversion)."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.reshape.emit_c import emit_reshape
from opbridge.ops.reshape.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.reshape.onnx import ONNX_CONVERTERS
from opbridge.ops.reshape.reference import reshape_reference
from opbridge.ops.reshape.schema import RESHAPE_SCHEMA
from opbridge.ops.reshape.torch import TORCH_CONVERTERS

RESHAPE = OperatorDefinition(
    op_type="RESHAPE",
    reference=reshape_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_reshape,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=RESHAPE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    # output 0 is input 0's bytes under another shape
    memory=NodeMemory(aliases_input=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RESHAPE,)
