# SPDX-License-Identifier: Apache-2.0
"""SUB: element-wise difference of two int8 tensors with their own scales, or of two float32 tensors (broadcasting)."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.shared.folded import FOLDED_KERNEL_FILES
from opbridge.ops.sub.emit_c import emit_sub
from opbridge.ops.sub.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.sub.onnx import ONNX_CONVERTERS
from opbridge.ops.sub.reference import sub_reference
from opbridge.ops.sub.schema import SUB_SCHEMA
from opbridge.ops.sub.torch import TORCH_CONVERTERS

SUB = OperatorDefinition(
    op_type="SUB",
    reference=sub_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_sub,
    c_kernels=("opbridge_add_s8.c", "opbridge_arithmetic_s64.c", "opbridge_elementwise_f32.c", *FOLDED_KERNEL_FILES),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=SUB_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (SUB,)
