# SPDX-License-Identifier: Apache-2.0
"""RSQRT: 1 / sqrt(x). float32: 1.0f / sqrtf(x) (two correctly rounded operations, so the C kernel equals the
reference bit for bit); int8: TFLite Micro's fixed point (gemmlowp's Newton-Raphson inverse square root of the
centred input, rescaled to the output), tabulated over the 256 stored values; a stored input below the zero point is
an error, as in TFLite Micro."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.rsqrt.emit_c import emit_rsqrt
from opbridge.ops.rsqrt.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.rsqrt.onnx import ONNX_CONVERTERS
from opbridge.ops.rsqrt.reference import rsqrt_input_ranges, rsqrt_reference
from opbridge.ops.rsqrt.schema import RSQRT_SCHEMA

RSQRT = OperatorDefinition(
    op_type="RSQRT",
    reference=rsqrt_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_rsqrt,
    c_kernels=("opbridge_rsqrt.c",),
    onnx_converters=ONNX_CONVERTERS,
    doc=__doc__ or "",
    schema=RSQRT_SCHEMA,
    input_ranges=rsqrt_input_ranges,  # int8 golden data stays at or above the input's zero point
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RSQRT,)
