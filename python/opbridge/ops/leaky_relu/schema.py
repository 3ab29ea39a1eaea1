# SPDX-License-Identifier: Apache-2.0
"""LEAKY_RELU's schema: an int8 or float32 tensor to a tensor of its dtype and shape."""

from opbridge.ir import DType
from opbridge.ops.leaky_relu.attributes import LeakyReluAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

LEAKY_RELU_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="LEAKY_RELU",
    since_version=1,
    doc="x for x > 0, alpha * x otherwise; rescaled to the output's quantization for int8.",
    inputs=(FormalParameter("input", "T", "int8 or float32 values"),),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),),
    attributes_class=LeakyReluAttributes,
    infer=same_as_input(0),
)
