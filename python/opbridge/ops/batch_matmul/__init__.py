# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL: [..., M, K] x [..., K, N] -> [..., M, N] with broadcast batch dimensions (ranks 2 to 5), adj_x and
adj_y reading an operand transposed; float32 (float sums in k order), int8 (int32 sums, TFLite's requantization)
and int16 (zero points 0, int64 sums), bit-exact with TFLite Micro's reference kernel."""

from opbridge.ops.batch_matmul.emit_c import emit_batch_matmul
from opbridge.ops.batch_matmul.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.batch_matmul.onnx import ONNX_CONVERTERS
from opbridge.ops.batch_matmul.reference import batch_matmul_macs, batch_matmul_reference
from opbridge.ops.batch_matmul.schema import BATCH_MATMUL_SCHEMA
from opbridge.ops.definition import NO_MEMORY, OWN, Layout, OperatorDefinition

BATCH_MATMUL = OperatorDefinition(
    op_type="BATCH_MATMUL",
    reference=batch_matmul_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_batch_matmul,
    c_kernels=("opbridge_batch_matmul.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=BATCH_MATMUL_SCHEMA,
    macs=batch_matmul_macs,
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=OWN,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (BATCH_MATMUL,)
