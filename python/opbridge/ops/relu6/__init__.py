# SPDX-License-Identifier: Apache-2.0
"""RELU6 on int8: clamp to [input zero point, quantized 6] (TFLite Micro does not rescale); on float32:
x > 6 ? 6 : (x < 0 ? 0 : x) (TFLite Micro's Relu6Float; NaN passes through)."""

from opbridge.ops.definition import SAME_AS_INPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.relu6.emit_c import emit_relu6
from opbridge.ops.relu6.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.relu6.reference import relu6_reference
from opbridge.ops.relu6.schema import RELU6_SCHEMA
from opbridge.ops.relu6.torch import TORCH_CONVERTERS

RELU6 = OperatorDefinition(
    op_type="RELU6",
    reference=relu6_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_relu6,
    c_kernels=("opbridge_elementwise_s8.c", "opbridge_elementwise_f32.c"),
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=RELU6_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=SAME_AS_INPUT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (RELU6,)
