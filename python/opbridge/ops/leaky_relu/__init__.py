# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU: x for x > 0, alpha * x otherwise. int8: TFLite Micro's two fixed-point rescales (identity for
inputs at or above the zero point, alpha below); float32: TFLite's x > 0 ? x : x * alpha in float32."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.leaky_relu.emit_c import emit_leaky_relu
from opbridge.ops.leaky_relu.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.leaky_relu.onnx import ONNX_CONVERTERS
from opbridge.ops.leaky_relu.reference import leaky_relu_reference
from opbridge.ops.leaky_relu.schema import LEAKY_RELU_SCHEMA
from opbridge.ops.leaky_relu.torch import TORCH_CONVERTERS
from opbridge.ops.shared.macs import per_output_element

LEAKY_RELU = OperatorDefinition(
    op_type="LEAKY_RELU",
    reference=leaky_relu_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_leaky_relu,
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    c_kernels=("opbridge_leaky_relu.c",),
    doc=__doc__ or "",
    schema=LEAKY_RELU_SCHEMA,
    macs=per_output_element(1),
    layout=Layout.ELEMENTWISE,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (LEAKY_RELU,)
