# SPDX-License-Identifier: Apache-2.0
"""RELU6's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

RELU6_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="RELU6",
    since_version=1,
    doc="min(max(input, 0), 6) on the input's quantization (TFLite Micro does not rescale).",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "min(max(input, 0), 6), of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    infer=same_as_input(0),
)
