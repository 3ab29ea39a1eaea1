# SPDX-License-Identifier: Apache-2.0
"""SVDF: a rank-decomposed fully connected layer over time, with an activation state (a variable
tensor) that keeps the last memory_size feature columns between runs: float32, or int8 with an
int16 (or int8) state and time weights."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.svdf.emit_c import emit_svdf, svdf_state_bytes
from opbridge.ops.svdf.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.svdf.reference import svdf_macs, svdf_reference
from opbridge.ops.svdf.schema import SVDF_SCHEMA

SVDF = OperatorDefinition(
    op_type="SVDF",
    reference=svdf_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_svdf,
    c_kernels=("opbridge_svdf.c",),
    doc=__doc__ or "",
    schema=SVDF_SCHEMA,
    stateful=True,
    macs=svdf_macs,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    memory=NodeMemory(persistent=svdf_state_bytes),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SVDF,)
