# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN's schema: uint32 channels, uint32 noise estimates and an int16 gain LUT -> uint32 channels."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import element_count

from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.pcan.attributes import CUSTOM_CODE, PcanAttributes


def infer_pcan(ctx: InferenceContext) -> list[TensorType]:
    signal, noise_estimate = ctx.input(0), ctx.input(1)
    channels, estimates = element_count(signal.shape), element_count(noise_estimate.shape)
    if -1 not in (channels, estimates) and estimates < channels:
        raise ctx.fail(f"{CUSTOM_CODE}: {estimates} noise estimates for {channels} channels")
    return [TensorType(signal.dtype, signal.shape)]


PCAN_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalPCAN",
    since_version=1,
    doc="Per-channel amplitude normalisation: each channel times a gain its noise estimate reads from the LUT.",
    inputs=(
        FormalParameter("input", "T", "uint32 filter bank channels"),
        FormalParameter("noise_estimate", "T", "uint32, at least one per channel"),
        FormalParameter("gain_lut", "TLut", "int16 piecewise-quadratic gain table"),
    ),
    outputs=(FormalParameter("output", "T", "uint32 normalised channels (6 fractional bits), the input's shape"),),
    type_constraints=(
        TypeConstraint("T", (DType.UINT32,), "uint32"),
        TypeConstraint("TLut", (DType.INT16,), "int16"),
    ),
    attributes_class=PcanAttributes,
    infer=infer_pcan,
)
