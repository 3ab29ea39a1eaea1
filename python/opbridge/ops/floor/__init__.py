# SPDX-License-Identifier: Apache-2.0
"""FLOOR on float32: the largest integer not above x, TFLite Micro's std::floor (-0.0 stays -0.0, infinities and
NaN pass); exact, so the C kernel equals the reference bit for bit."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.floor.emit_c import emit_floor
from opbridge.ops.floor.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.floor.onnx import ONNX_CONVERTERS
from opbridge.ops.floor.reference import floor_reference
from opbridge.ops.floor.schema import FLOOR_SCHEMA

FLOOR = OperatorDefinition(
    op_type="FLOOR",
    reference=floor_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_floor,
    c_kernels=("opbridge_floor.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=FLOOR_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (FLOOR,)
