# SPDX-License-Identifier: Apache-2.0
"""LOG on float32: the natural logarithm (C: libm's logf, as TFLite Micro; -inf at +-0, NaN below 0,
0x7FC00000 in C on every platform; the reference rounds a float64 log once, so the two may differ by an ulp)."""

from opbridge.ops.definition import FLOAT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.log.emit_c import emit_log
from opbridge.ops.log.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.log.onnx import ONNX_CONVERTERS
from opbridge.ops.log.reference import log_reference
from opbridge.ops.log.schema import LOG_SCHEMA
from opbridge.ops.log.torch import TORCH_CONVERTERS

LOG = OperatorDefinition(
    op_type="LOG",
    reference=log_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_log,
    c_kernels=("opbridge_math_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=LOG_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=FLOAT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (LOG,)
