# SPDX-License-Identifier: Apache-2.0
"""SHAPE: the input's shape as an int32 (or int64) vector. Conversion folds it (with the shape arithmetic after
it: STRIDED_SLICE, PACK, ...) into constants whenever the input's shape is static, which it always is on an MCU:
Keras 3's Flatten and Reshape keep a free batch size, and TensorFlow's converter writes
SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE for them (frontends/litert/static_shapes.py)."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.shape.emit_c import emit_shape
from opbridge.ops.shape.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.shape.onnx import ONNX_CONVERTERS
from opbridge.ops.shape.reference import shape_reference
from opbridge.ops.shape.schema import SHAPE_SCHEMA

SHAPE = OperatorDefinition(
    op_type="SHAPE",
    reference=shape_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_shape,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=SHAPE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,  # its output holds sizes, not quantized values
    memory=NodeMemory(),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SHAPE,)
