# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction's schema: uint32 [num_channels] -> the output and the noise estimate."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import element_count

from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.filter_bank_spectral_subtraction.attributes import (
    CUSTOM_CODE,
    FilterBankSpectralSubtractionAttributes,
)


def infer_filter_bank_spectral_subtraction(ctx: InferenceContext) -> list[TensorType]:
    signal = ctx.input(0)
    attributes: FilterBankSpectralSubtractionAttributes = ctx.attributes
    count = element_count(signal.shape)
    if count not in (attributes.num_channels, -1):
        raise ctx.fail(f"{CUSTOM_CODE}: the input has {count} values, num_channels is {attributes.num_channels}")
    return [TensorType(signal.dtype, signal.shape), TensorType(signal.dtype, signal.shape)]


FILTER_BANK_SPECTRAL_SUBTRACTION_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalFilterBankSpectralSubtraction",
    since_version=1,
    doc="Each channel minus a running noise estimate, which the node keeps from run to run (stateful).",
    inputs=(FormalParameter("input", "T", "uint32 [num_channels] filter bank channels"),),
    outputs=(
        FormalParameter("output", "T", "uint32 channels with the noise subtracted, the input's shape"),
        FormalParameter("noise_estimate", "T", "uint32 noise estimate after this run, the input's shape"),
    ),
    type_constraints=(TypeConstraint("T", (DType.UINT32,), "uint32"),),
    attributes_class=FilterBankSpectralSubtractionAttributes,
    infer=infer_filter_bank_spectral_subtraction,
)
