# SPDX-License-Identifier: Apache-2.0
"""RELU on int8: rescale to the output's quantization, then clamp below at its zero point; on float32:
x < 0 ? 0 : x (TFLite Micro's ReluFloat; NaN and -0.0 pass through)."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.relu.emit_c import emit_relu
from opbridge.ops.relu.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.relu.onnx import ONNX_CONVERTERS
from opbridge.ops.relu.reference import relu_reference
from opbridge.ops.relu.schema import RELU_SCHEMA
from opbridge.ops.relu.torch import TORCH_CONVERTERS

RELU = OperatorDefinition(
    op_type="RELU",
    reference=relu_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_relu,
    c_kernels=("opbridge_elementwise_s8.c", "opbridge_elementwise_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=RELU_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=SAME_AS_INPUT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RELU,)
