# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC on int8: gemmlowp's fixed-point sigmoid; output scale 1/256, zero point -128.

On float32, TFLite's reference Logistic: 1 / (1 + exp(-x)) in float32, with
its cut-offs (x > 16.619047 gives 1, x < -9 gives exp(x)). The C kernel calls
expf; the reference rounds a float64 exp once (they may differ by an ulp).
"""

from opbridge.ops.definition import SOFTMAX_OUTPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.logistic.emit_c import emit_logistic
from opbridge.ops.logistic.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.logistic.onnx import ONNX_CONVERTERS
from opbridge.ops.logistic.reference import logistic_reference
from opbridge.ops.logistic.schema import LOGISTIC_SCHEMA
from opbridge.ops.logistic.torch import TORCH_CONVERTERS

LOGISTIC = OperatorDefinition(
    op_type="LOGISTIC",
    reference=logistic_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_logistic,
    c_kernels=("opbridge_activations_s8.c", "opbridge_elementwise_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=LOGISTIC_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=SOFTMAX_OUTPUT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (LOGISTIC,)
