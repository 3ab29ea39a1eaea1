# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: int8 or int16 -> float32, scale * (q - zero_point)."""

from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition
from opbridge.ops.dequantize.emit_c import emit_dequantize
from opbridge.ops.dequantize.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.dequantize.onnx import ONNX_CONVERTERS
from opbridge.ops.dequantize.reference import dequantize_reference
from opbridge.ops.dequantize.schema import DEQUANTIZE_SCHEMA
from opbridge.ops.dequantize.torch import TORCH_CONVERTERS

DEQUANTIZE = OperatorDefinition(
    op_type="DEQUANTIZE",
    reference=dequantize_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    emit_c=emit_dequantize,
    c_kernels=("opbridge_elementwise_s8.c", "opbridge_quantize_s16.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=DEQUANTIZE_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.ELEMENTWISE_PER_TENSOR,
    quantization=FLOAT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (DEQUANTIZE,)
