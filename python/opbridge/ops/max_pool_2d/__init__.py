# SPDX-License-Identifier: Apache-2.0
"""MAX_POOL_2D: maximum over windows that are clipped to the input, int8 or float32."""

from opbridge.ops.average_pool_2d.litert import parse_litert_options
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.max_pool_2d.emit_c import emit_max_pool_2d
from opbridge.ops.max_pool_2d.litert import LITERT_CODE, LITERT_VERSIONS
from opbridge.ops.max_pool_2d.onnx import ONNX_CONVERTERS
from opbridge.ops.max_pool_2d.reference import max_pool_2d_reference
from opbridge.ops.max_pool_2d.schema import MAX_POOL_2D_SCHEMA
from opbridge.ops.max_pool_2d.torch import TORCH_CONVERTERS

MAX_POOL_2D = OperatorDefinition(
    op_type="MAX_POOL_2D",
    reference=max_pool_2d_reference,
    litert_builtin_code=LITERT_CODE,
    litert_versions=LITERT_VERSIONS,
    parse_litert_options=parse_litert_options,
    emit_c=emit_max_pool_2d,
    c_kernels=("opbridge_pool_2d_s8.c", "opbridge_pool_2d_f32.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=MAX_POOL_2D_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (MAX_POOL_2D,)
