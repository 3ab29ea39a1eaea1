# SPDX-License-Identifier: Apache-2.0
"""ADD: element-wise sum of two int8 or int16 (16x8) tensors with their own scales, two plain int32 or two float32
tensors (broadcasting)."""

from opbridge.ops.add.emit_c import emit_add
from opbridge.ops.add.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.add.onnx import ONNX_CONVERTERS
from opbridge.ops.add.reference import add_reference
from opbridge.ops.add.schema import ADD_SCHEMA
from opbridge.ops.add.torch import TORCH_CONVERTERS
from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.shared.folded import FOLDED_KERNEL_FILES

ADD = OperatorDefinition(
    op_type="ADD",
    reference=add_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_add,
    c_kernels=(
        "opbridge_add_s8.c",
        "opbridge_add_s16.c",
        "opbridge_arithmetic_int.c",
        "opbridge_arithmetic_s64.c",
        "opbridge_elementwise_f32.c",
        *FOLDED_KERNEL_FILES,
    ),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=ADD_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (ADD,)
