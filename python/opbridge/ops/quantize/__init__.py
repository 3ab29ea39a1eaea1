# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: float32 -> int8 or int16 (halves away from zero, or to even for ONNX models), or an integer type to
another (requantize): the pairs TFLite Micro's QUANTIZE runs (schema.QUANTIZE_PAIRS), int32 and uint8 included."""

from opbridge.ops.definition import OWN, Layout, NodeMemory, OperatorDefinition
from opbridge.ops.quantize.emit_c import emit_quantize
from opbridge.ops.quantize.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.quantize.onnx import ONNX_CONVERTERS
from opbridge.ops.quantize.reference import quantize_reference
from opbridge.ops.quantize.schema import QUANTIZE_SCHEMA
from opbridge.ops.quantize.torch import TORCH_CONVERTERS

QUANTIZE = OperatorDefinition(
    op_type="QUANTIZE",
    reference=quantize_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_quantize,
    c_kernels=("opbridge_elementwise_s8.c", "opbridge_quantize_s16.c", "opbridge_quantize.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=QUANTIZE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE_PER_TENSOR,
    quantization=OWN,
    # element by element: each output after its inputs (docs/memory_planner.md)
    memory=NodeMemory(in_place=True),
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (QUANTIZE,)
