# SPDX-License-Identifier: Apache-2.0
"""PAD / PADV2: constant padding of int8 tensors (with the output zero point or the given value)
and of float32 tensors (with 0.0 or the given value)."""

from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition
from opbridge.ops.pad.emit_c import emit_pad
from opbridge.ops.pad.litert import PAD_LITERT_CODE, PAD_LITERT_VERSIONS, PADV2_LITERT_CODE, PADV2_LITERT_VERSIONS
from opbridge.ops.pad.onnx import ONNX_CONVERTERS
from opbridge.ops.pad.reference import pad_reference
from opbridge.ops.pad.schema import PAD_SCHEMA, PADV2_SCHEMA
from opbridge.ops.pad.torch import TORCH_CONVERTERS

PAD = OperatorDefinition(
    op_type="PAD",
    reference=pad_reference,
    litert_builtin_code=PAD_LITERT_CODE,
    litert_versions=PAD_LITERT_VERSIONS,
    emit_c=emit_pad,
    c_kernels=("opbridge_pad.c", "opbridge_elementwise_s8.c"),
    onnx_converters=ONNX_CONVERTERS,
    torch_converters=TORCH_CONVERTERS,
    doc=__doc__ or "",
    schema=PAD_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

PADV2 = OperatorDefinition(
    op_type="PADV2",
    reference=pad_reference,
    litert_builtin_code=PADV2_LITERT_CODE,
    litert_versions=PADV2_LITERT_VERSIONS,
    emit_c=emit_pad,
    c_kernels=("opbridge_pad.c", "opbridge_elementwise_s8.c"),
    doc=__doc__ or "",
    schema=PADV2_SCHEMA,
    macs=None,  # multiplies nothing (docs/adding_an_operator.md, "Operator facts")
    layout=Layout.LAYOUT_DEPENDENT,
    quantization=SAME_AS_INPUT,
    memory=NO_MEMORY,
)

# What ops/builtin.py registers from this folder.
DEFINITIONS = (PAD, PADV2)
