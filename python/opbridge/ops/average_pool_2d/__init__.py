# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D: mean over windows that are clipped to the input, int8 or float32."""

from opbridge.ops.average_pool_2d.emit_c import emit_average_pool_2d
from opbridge.ops.average_pool_2d.litert import LITERT_CODE, LITERT_VERSIONS, parse_litert_options
from opbridge.ops.average_pool_2d.onnx import ONNX_CONVERTERS
from opbridge.ops.average_pool_2d.reference import average_pool_2d_reference
from opbridge.ops.average_pool_2d.schema import AVERAGE_POOL_2D_SCHEMA
from opbridge.ops.average_pool_2d.torch import TORCH_CONVERTERS
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition

AVERAGE_POOL_2D = OperatorDefinition(
    op_type="AVERAGE_POOL_2D",
    reference=average_pool_2d_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_average_pool_2d,
    c_kernels=("opbridge_pool_2d_s8.c", "opbridge_pool_2d_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=AVERAGE_POOL_2D_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (AVERAGE_POOL_2D,)
