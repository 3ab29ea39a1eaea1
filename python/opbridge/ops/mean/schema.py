# SPDX-License-Identifier: Apache-2.0
"""MEAN's schema: an int8 or float32 tensor averaged over constant int32 axes."""

from opbridge.ir import DType
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import constant_input, normalize_axis


def infer_mean(ctx: InferenceContext) -> list[TensorType]:
    """The input's shape without the reduced axes (size 1 with keep_dims); axes may repeat or be negative."""
    info = ctx.input(0)
    rank = len(info.shape)
    axes = {normalize_axis(ctx, int(a), rank) for a in constant_input(ctx, 1, "axes").ravel()}
    a: MeanAttributes = ctx.attributes
    if a.keep_dims:
        shape = tuple(1 if dimension in axes else size for dimension, size in enumerate(info.shape))
    else:
        shape = tuple(size for dimension, size in enumerate(info.shape) if dimension not in axes)
    return [TensorType(info.dtype, shape)]


MEAN_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="MEAN",
    since_version=1,
    doc="The mean over the given axes (TFLite Micro's sum, then one rescale to the output's quantization for int8, "
    "or one float32 division by the count).",
    inputs=(
        FormalParameter("input", "T", "int8 or float32 values"),
        FormalParameter("axes", "Tind", "the axes to reduce: a constant int32 scalar or vector"),
    ),
    outputs=(FormalParameter("output", "T", "the input's dtype and shape without the axes (size 1 with keep_dims)"),),
    type_constraints=(
        TypeConstraint("T", (DType.INT8, DType.FLOAT32), "quantized int8, or float32"),
        TypeConstraint("Tind", (DType.INT32,), "int32 axes"),
    ),
    attributes_class=MeanAttributes,
    infer=infer_mean,
)
