# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX's schema: an int8, int16 or float32 tensor to a tensor of its dtype and shape, or an int8 tensor to an
int16 one (int16_output), normalised over the last axis."""

from opbridge.ir import DType
from opbridge.ops.softmax.attributes import SoftmaxAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_softmax(ctx: InferenceContext) -> list[TensorType]:
    info = ctx.input(0)
    if not info.shape:
        raise ctx.fail("SOFTMAX normalises over the last axis; a scalar input has none", hint="reshape it to [1]")
    attributes = ctx.attributes if ctx.attributes is not None else SoftmaxAttributes()
    if attributes.int16_output:
        if info.dtype is not DType.INT8:
            raise ctx.fail(
                f"SOFTMAX writes int16 from an int8 input only, not from {info.dtype.value}",
                hint="drop int16_output (int16 and float32 inputs give outputs of their own dtype)",
            )
        return [TensorType(DType.INT16, info.shape)]
    return [TensorType(info.dtype, info.shape)]


SOFTMAX_DTYPES = (DType.INT8, DType.INT16, DType.FLOAT32)

SOFTMAX_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SOFTMAX",
    since_version=1,
    doc="exp(beta * (x - max)) / sum over the last axis; an int8 input by gemmlowp's fixed-point exp and "
    "reciprocal (to int8, or to int16 with int16_output), int16 by TFLite's interpolated exp and reciprocal tables.",
    inputs=(FormalParameter("input", "T1", "int8, int16 or float32 logits"),),
    outputs=(
        FormalParameter(
            "output",
            "T2",
            "probabilities of the input's shape and, but for int16_output, its dtype (int8: scale 1/256, zero point "
            "-128; int8 to int16: scale 1/65536, zero point -32768; int16: scale 1/32768, zero point 0)",
        ),
    ),
    type_constraints=(
        TypeConstraint("T1", SOFTMAX_DTYPES, "quantized int8 or int16 (16x8), or float32"),
        TypeConstraint("T2", SOFTMAX_DTYPES, "the input's dtype, or int16 from int8 (int16_output)"),
    ),
    attributes_class=SoftmaxAttributes,
    infer=infer_softmax,
)
