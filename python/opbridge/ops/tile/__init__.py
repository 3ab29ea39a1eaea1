# SPDX-License-Identifier: Apache-2.0
"""TILE: repeats a tensor along each axis by a constant int32 or int64 multiples (float32, int8, int32;
ranks up to 6 after the emitter merges untiled axes). An int8 output keeps the input's quantization."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.tile.emit_c import emit_tile, multiples_input
from opbridge.ops.tile.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.tile.onnx import ONNX_CONVERTERS
from opbridge.ops.tile.reference import tile_reference
from opbridge.ops.tile.schema import TILE_SCHEMA

TILE = OperatorDefinition(
    op_type="TILE",
    reference=tile_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_tile,
    c_kernels=("opbridge_tile.c",),
    absorbed_constants=multiples_input,
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=TILE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (TILE,)
