# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale's schema: int16 [N] -> int16 [N] scaled up, and the int32 scalar shift applied."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

from opbridge_signal.domain import SIGNAL_DOMAIN, checked
from opbridge_signal.fft_auto_scale.attributes import FftAutoScaleAttributes
from opbridge_signal.fft_auto_scale.reference import check_shapes


def infer_fft_auto_scale(ctx: InferenceContext) -> list[TensorType]:
    samples = ctx.input(0)
    checked(ctx, check_shapes, samples.shape)
    return [TensorType(samples.dtype, samples.shape), TensorType(DType.INT32, ())]


FFT_AUTO_SCALE_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalFftAutoScale",
    since_version=1,
    doc="The samples times the largest power of two that keeps their peak within int16, and that power.",
    inputs=(FormalParameter("input", "T", "int16 [N] samples"),),
    outputs=(
        FormalParameter("output", "T", "int16 [N]: input * 2^scale_bits (wrapping)"),
        FormalParameter("scale_bits", "TShift", "int32 scalar: the shift applied"),
    ),
    type_constraints=(
        TypeConstraint("T", (DType.INT16,), "int16"),
        TypeConstraint("TShift", (DType.INT32,), "int32"),
    ),
    attributes_class=FftAutoScaleAttributes,
    infer=infer_fft_auto_scale,
)
