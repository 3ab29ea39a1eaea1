"""SQUEEZE's schema: the input without its size-1 dimensions."""

from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import ANY_TYPE, FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_squeeze(ctx: InferenceContext) -> list[TensorType]:
    """Every size-1 dimension dropped: TFLite's rule for a SQUEEZE without squeeze_dims.

    The squeeze_dims of a model live in its SqueezeOptions, which opbridge does
    not read: the node has no attributes, and its reference (like TFLite
    Micro) copies the bytes under the output tensor's own shape. So a SQUEEZE
    that drops only some of its size-1 dimensions does not agree with this
    rule; reading squeeze_dims into attributes would make the rule exact.
    """
    info = ctx.input(0)
    return [TensorType(info.dtype, tuple(size for size in info.shape if size != 1))]


SQUEEZE_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="SQUEEZE",
    since_version=1,
    doc="The input's values under its shape without the size-1 dimensions.",
    inputs=(FormalParameter("input", "T", "any tensor"),),
    outputs=(FormalParameter("output", "T", "the input's values, its size-1 dimensions dropped"),),
    type_constraints=(TypeConstraint("T", ANY_TYPE, "any type (the bytes are copied or aliased)"),),
    infer=infer_squeeze,
)
