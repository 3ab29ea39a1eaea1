# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION's schema: a float32 tensor to a float32 tensor of its shape, normalized over
a window of the last axis."""

from opbridge.ir import DType
from opbridge.ops.lrn.attributes import LocalResponseNormalizationAttributes
from opbridge.schemas.opsets import BUILTIN_DOMAIN
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint


def infer_local_response_normalization(ctx: InferenceContext) -> list[TensorType]:
    info = ctx.input(0)
    if not info.shape:
        raise ctx.fail("the window runs along the last axis; a scalar input has none", hint="reshape it to [1]")
    if info.shape[-1] == 0:
        raise ctx.fail(
            f"the window runs along the last axis; input shape {list(info.shape)} has no channels on it",
            hint="give the last axis at least one channel",
        )
    a: LocalResponseNormalizationAttributes = ctx.attributes
    if a.radius_before < 0 or a.radius_after < 0:
        raise ctx.fail(
            f"radius_before {a.radius_before} and radius_after {a.radius_after} must not be negative",
            hint="give the channels before and after each channel in its window",
        )
    return [TensorType(info.dtype, info.shape)]


LOCAL_RESPONSE_NORMALIZATION_SCHEMA = OpSchema(
    domain=BUILTIN_DOMAIN,
    name="LOCAL_RESPONSE_NORMALIZATION",
    since_version=1,
    doc="x * (bias + alpha * sum of squares over a window of the last axis)^-beta (TFLite's LRN; ONNX's LRN "
    "with alpha / size).",
    inputs=(FormalParameter("input", "T", "float32 values, channels last"),),
    outputs=(FormalParameter("output", "T", "the input normalized, of its dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32 (int8 is not supported)"),),
    attributes_class=LocalResponseNormalizationAttributes,
    infer=infer_local_response_normalization,
)
