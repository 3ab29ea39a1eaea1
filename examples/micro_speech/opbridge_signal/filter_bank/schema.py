# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank's schema: a uint32 power spectrum and int16 tables -> uint64 [num_channels]."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import element_count

from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.filter_bank.attributes import CUSTOM_CODE, FilterBankAttributes

TABLES = ("channel_frequency_starts", "channel_weight_starts", "channel_widths")


def infer_filter_bank(ctx: InferenceContext) -> list[TensorType]:
    attributes: FilterBankAttributes = ctx.attributes
    bands = attributes.num_channels + 1
    for position, name in enumerate(TABLES, start=3):
        count = element_count(ctx.input(position).shape)
        if count != -1 and count < bands:
            raise ctx.fail(f"{CUSTOM_CODE}: {name} has {count} entries, needs num_channels + 1 = {bands}")
    return [TensorType(DType.UINT64, (attributes.num_channels,))]


FILTER_BANK_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalFilterBank",
    since_version=1,
    doc="Triangular (mel) filters: channel c sums band c + 1 times its weights and band c times its unweights.",
    inputs=(
        FormalParameter("input", "TIn", "uint32 power spectrum"),
        FormalParameter("weights", "TTable", "int16 rising-edge weights"),
        FormalParameter("unweights", "TTable", "int16 falling-edge weights (1 - weight)"),
        FormalParameter("channel_frequency_starts", "TTable", "int16 [num_channels + 1]: first bin of each band"),
        FormalParameter("channel_weight_starts", "TTable", "int16 [num_channels + 1]: first weight of each band"),
        FormalParameter("channel_widths", "TTable", "int16 [num_channels + 1]: bins in each band"),
    ),
    outputs=(FormalParameter("output", "TOut", "uint64 [num_channels] channel energies (wrapping)"),),
    type_constraints=(
        TypeConstraint("TIn", (DType.UINT32,), "uint32"),
        TypeConstraint("TTable", (DType.INT16,), "int16"),
        TypeConstraint("TOut", (DType.UINT64,), "uint64"),
    ),
    attributes_class=FilterBankAttributes,
    infer=infer_filter_bank,
)
