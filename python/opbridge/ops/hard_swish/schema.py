# SPDX-License-Identifier: Apache-2.0
"""HARD_SWISH's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

HARD_SWISH_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="HARD_SWISH",
    since_version=1,
    doc="x * min(max(x + 3, 0), 6) / 6; rescaled to the output's quantization for int8 (TFLite Micro's 16-bit "
    "fixed point).",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    infer=same_as_input(0),
)
