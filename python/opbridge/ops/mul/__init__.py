# SPDX-License-Identifier: Apache-2.0
"""MUL: element-wise product of two int8 tensors, two plain int32 or two float32 tensors (broadcasting).

int32 is TFLite Micro's unquantized path: the product wraps around on
overflow, then the fused activation clamps the raw value (RELU6 to [0, 6]).
float32: the float32 product, then the fused activation's clamp.
"""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.mul.emit_c import emit_mul
from opbridge.ops.mul.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.mul.onnx import ONNX_CONVERTERS
from opbridge.ops.mul.reference import mul_reference
from opbridge.ops.mul.schema import MUL_SCHEMA
from opbridge.ops.mul.torch import TORCH_CONVERTERS
from opbridge.ops.shared.macs import per_output_element

MUL = OperatorDefinition(
    op_type="MUL",
    reference=mul_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_mul,
    c_kernels=(
        "opbridge_elementwise_s8.c",
        "opbridge_arithmetic_int.c",
        "opbridge_arithmetic_s64.c",
        "opbridge_elementwise_f32.c",
    ),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=MUL_SCHEMA,
    macs=per_output_element(1),
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    fuses_activation=True,  # its attributes' activation clamps the output (passes/activation_fusion.py)
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (MUL,)
