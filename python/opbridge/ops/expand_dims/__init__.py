# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: inserts a size-1 dimension at the axis its second input names; the same bytes under the output's
shape (a view, like RESHAPE and SQUEEZE). TensorFlow's converter writes it around every Conv1D and DepthwiseConv1D
(EXPAND_DIMS -> CONV_2D -> RESHAPE)."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.expand_dims.emit_c import emit_expand_dims
from opbridge.ops.expand_dims.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.expand_dims.onnx import ONNX_CONVERTERS
from opbridge.ops.expand_dims.reference import expand_dims_reference
from opbridge.ops.expand_dims.schema import EXPAND_DIMS_SCHEMA

EXPAND_DIMS = OperatorDefinition(
    op_type="EXPAND_DIMS",
    reference=expand_dims_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_expand_dims,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=EXPAND_DIMS_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    # output 0 is input 0's bytes under another shape
    memory=NodeMemory(aliases_input=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (EXPAND_DIMS,)
