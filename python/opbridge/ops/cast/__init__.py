# SPDX-License-Identifier: Apache-2.0
"""CAST: each element converted to the output's type.

From bool, int8, int16, int32 or uint32 to int8, int16, int32, uint32 or float32.
"""

from opbridge.ops.cast.emit_c import emit_cast
from opbridge.ops.cast.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.cast.onnx import ONNX_CONVERTERS
from opbridge.ops.cast.reference import cast_reference
from opbridge.ops.cast.schema import CAST_SCHEMA
from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition

# TFLite Micro reads no CastOptions: the tensors' types say what to convert. The
# parser copies the output tensor's type into CastAttributes, for the schema.
CAST = OperatorDefinition(
    op_type="CAST",
    reference=cast_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_cast,
    c_kernels=("opbridge_cast.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=CAST_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (CAST,)
