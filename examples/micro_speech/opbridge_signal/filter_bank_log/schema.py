# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog's schema: uint32 channels -> int16 scaled natural logs of their shape."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.filter_bank_log.attributes import FilterBankLogAttributes


def infer_filter_bank_log(ctx: InferenceContext) -> list[TensorType]:
    return [TensorType(DType.INT16, ctx.input(0).shape)]


FILTER_BANK_LOG_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalFilterBankLog",
    since_version=1,
    doc="ln(input << input_correction_bits) * output_scale in fixed point, saturated to int16 (0 for inputs <= 1).",
    inputs=(FormalParameter("input", "TIn", "uint32 channels"),),
    outputs=(FormalParameter("output", "TOut", "int16 scaled logs, the input's shape"),),
    type_constraints=(
        TypeConstraint("TIn", (DType.UINT32,), "uint32"),
        TypeConstraint("TOut", (DType.INT16,), "int16"),
    ),
    attributes_class=FilterBankLogAttributes,
    infer=infer_filter_bank_log,
)
