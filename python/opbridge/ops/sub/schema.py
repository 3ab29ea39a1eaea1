# SPDX-License-Identifier: Apache-2.0
"""SUB's schema: two int8 tensors with their own scales (or two float32 tensors), NumPy broadcasting, an output of
that dtype."""

from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint
from opbridge.schemas.shapes import infer_broadcast_binary

SUB_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SUB",
    since_version=1,
    doc="Element-wise difference with NumPy broadcasting; each int8 tensor carries its own scale.",
    inputs=(FormalParameter("a", "T", "minuend"), FormalParameter("b", "T", "subtrahend")),
    outputs=(FormalParameter("difference", "T", "a - b, rescaled to the output's quantization for int8"),),
    # TFLite Micro also has int16 and int32 SUB; opbridge implements the int8 and float32 paths.
    type_constraints=(
        TypeConstraint(
            "T",
            (DType.INT8, DType.FLOAT32, DType.INT64, DType.FLOAT64),
            "quantized int8, plain int64 (wrapping), or float32; float64 in the host reference only",
        ),
    ),
    attributes_class=AddAttributes,
    infer=infer_broadcast_binary,
)
