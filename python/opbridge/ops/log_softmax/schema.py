# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX's schema: a float32 tensor to a float32 tensor of its shape, normalised over the last axis.

Only float32 is admitted (int8 LOG_SOFTMAX, TFLite's fixed-point path, is not implemented), so a model
with an int8 one is refused when it is read rather than when its C is emitted.
"""

from opbridge.ir import DType
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_log_softmax(ctx: InferenceContext) -> list[TensorType]:
    info = ctx.input(0)
    if not info.shape:
        raise ctx.fail("LOG_SOFTMAX normalises over the last axis; a scalar input has none", hint="reshape it to [1]")
    return [TensorType(info.dtype, info.shape)]


LOG_SOFTMAX_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="LOG_SOFTMAX",
    since_version=1,
    doc="x - max - log(sum(exp(x - max))) over the last axis (TFLite Micro's float reference).",
    inputs=(FormalParameter("input", "T", "float32 logits"),),
    outputs=(FormalParameter("output", "T", "log-probabilities of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32 (int8 is not supported yet)"),),
    infer=infer_log_softmax,
)
