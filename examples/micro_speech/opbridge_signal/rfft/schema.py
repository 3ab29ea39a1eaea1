# SPDX-License-Identifier: Apache-2.0
"""SignalRfft's schema: int16 [..., L] frames -> int16 [..., fft_length + 2], complex interleaved."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

from opbridge_signal.domain import SIGNAL_DOMAIN, checked
from opbridge_signal.rfft.attributes import RfftAttributes
from opbridge_signal.rfft.reference import output_shape


def infer_rfft(ctx: InferenceContext) -> list[TensorType]:
    samples = ctx.input(0)
    if samples.shape and samples.shape[-1] == -1:
        # The frame length only bounds the output: fft_length decides it.
        attributes: RfftAttributes = ctx.attributes
        return [TensorType(samples.dtype, (*samples.shape[:-1], attributes.fft_length + 2))]
    return [TensorType(samples.dtype, checked(ctx, output_shape, ctx.attributes, samples.shape))]


RFFT_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalRfft",
    since_version=1,
    doc="A real FFT of each frame (zero-padded to fft_length) by fixed-point KISS FFT: "
    "fft_length / 2 + 1 complex bins, (re, im) interleaved.",
    inputs=(FormalParameter("input", "T", "int16 [..., L] frames, L <= fft_length"),),
    outputs=(FormalParameter("output", "T", "int16 [..., fft_length + 2]: complex bins, interleaved"),),
    type_constraints=(TypeConstraint("T", (DType.INT16,), "int16 (the only 'T' TFLM's int16 RFFT takes)"),),
    attributes_class=RfftAttributes,
    infer=infer_rfft,
)
