# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX's schema: an int8, int16 or float32 tensor to a tensor of its dtype and shape, normalised over the
last axis."""

from opbridge.ir import DType
from opbridge.ops.softmax.attributes import SoftmaxAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_softmax(ctx: InferenceContext) -> list[TensorType]:
    info = ctx.input(0)
    if not info.shape:
        raise ctx.fail("SOFTMAX normalises over the last axis; a scalar input has none", hint="reshape it to [1]")
    return [TensorType(info.dtype, info.shape)]


SOFTMAX_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SOFTMAX",
    since_version=1,
    doc="exp(beta * (x - max)) / sum over the last axis; int8 by gemmlowp's fixed-point exp and reciprocal, "
    "int16 by TFLite's interpolated exp and reciprocal tables.",
    inputs=(FormalParameter("input", "T", "int8, int16 or float32 logits"),),
    outputs=(
        FormalParameter(
            "output",
            "T",
            "probabilities of the input's dtype and shape (int8: scale 1/256, zero point -128; "
            "int16: scale 1/32768, zero point 0)",
        ),
    ),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.INT16, DType.FLOAT32), "quantized int8 or int16 (16x8), or float32"),
    ),
    attributes_class=SoftmaxAttributes,
    infer=infer_softmax,
)
