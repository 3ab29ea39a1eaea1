# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX: x - max - log(sum(exp(x - max))) over the last axis, float32 (TFLite Micro's float reference).

int8 is not converted yet: the schema takes float32 only, so an int8 LOG_SOFTMAX is refused when the model
is read. ONNX LogSoftmax over another axis is transposed to the last axis and back.
"""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.log_softmax.emit_c import emit_log_softmax
from opbridge.ops.log_softmax.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.log_softmax.onnx import ONNX_CONVERTERS
from opbridge.ops.log_softmax.reference import log_softmax_reference
from opbridge.ops.log_softmax.schema import LOG_SOFTMAX_SCHEMA
from opbridge.ops.log_softmax.torch import TORCH_CONVERTERS

LOG_SOFTMAX = OperatorDefinition(
    op_type="LOG_SOFTMAX",
    reference=log_softmax_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_log_softmax,
    c_kernels=("opbridge_log_softmax_f32.c",),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=LOG_SOFTMAX_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (LOG_SOFTMAX,)
