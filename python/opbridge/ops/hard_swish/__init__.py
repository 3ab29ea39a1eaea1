# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH: x * min(max(x + 3, 0), 6) / 6. int8: TFLite Micro's 16-bit fixed point (the input on a
"hires" int16 scale, a reluish gate in [0, 1] and the output multiplier, both Q0.15, from the scales at
conversion time); float32: TFLite's in * min(6, max(0, in + 3)) / 6 in float32, in that order."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.hard_swish.emit_c import emit_hard_swish
from opbridge.ops.hard_swish.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.hard_swish.onnx import ONNX_CONVERTERS
from opbridge.ops.hard_swish.reference import hard_swish_reference
from opbridge.ops.hard_swish.schema import HARD_SWISH_SCHEMA
from opbridge.ops.hard_swish.torch import TORCH_CONVERTERS
from opbridge.ops.shared.macs import per_output_element

HARD_SWISH = OperatorDefinition(
    op_type="HARD_SWISH",
    reference=hard_swish_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_hard_swish,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    c_kernels=("opbridge_hard_swish.c",),
    doc=__doc__ or "",
    schema=HARD_SWISH_SCHEMA,
    macs=per_output_element(1),
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (HARD_SWISH,)
