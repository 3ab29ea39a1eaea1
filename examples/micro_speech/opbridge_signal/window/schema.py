# SPDX-License-Identifier: Apache-2.0
"""SignalWindow's schema: int16 samples times int16 window weights -> int16 of the samples' shape."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

from opbridge_signal.domain import SIGNAL_DOMAIN, checked, known
from opbridge_signal.window.attributes import WindowAttributes
from opbridge_signal.window.reference import check_shapes


def infer_window(ctx: InferenceContext) -> list[TensorType]:
    samples, weights = ctx.input(0), ctx.input(1)
    if known(samples.shape, weights.shape):
        checked(ctx, check_shapes, ctx.attributes, samples.shape, weights.shape)
    return [TensorType(samples.dtype, samples.shape)]


WINDOW_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalWindow",
    since_version=1,
    doc="Each run of len(weights) samples times the weights (Q`shift`), shifted right by `shift`, saturated.",
    inputs=(
        FormalParameter("input", "T", "int16 samples, any shape whose size is a multiple of the window length"),
        FormalParameter("weights", "T", "int16 [window length] in Q`shift`"),
    ),
    outputs=(FormalParameter("output", "T", "int16 windowed samples, the input's shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT16,), "int16"),),
    attributes_class=WindowAttributes,
    infer=infer_window,
)
