# SPDX-License-Identifier: Apache-2.0
"""TANH on int8: gemmlowp's fixed-point tanh; output scale 1/128, zero point 0. On float32: tanh (C: tanhf;
the reference rounds a float64 tanh once, so they may differ by an ulp or two)."""

from opbridge.ops.definition import TANH_OUTPUT, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.tanh.emit_c import emit_tanh
from opbridge.ops.tanh.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.tanh.onnx import ONNX_CONVERTERS
from opbridge.ops.tanh.reference import tanh_reference
from opbridge.ops.tanh.schema import TANH_SCHEMA
from opbridge.ops.tanh.torch import TORCH_CONVERTERS

TANH = OperatorDefinition(
    op_type="TANH",
    reference=tanh_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_tanh,
    c_kernels=("opbridge_activations_s8.c", "opbridge_elementwise_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=TANH_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE,
    quantization=TANH_OUTPUT,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (TANH,)
