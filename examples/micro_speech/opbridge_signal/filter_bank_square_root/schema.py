# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot's schema: uint64 energies and an int32 shift -> uint32 of their shape."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint
from opbridge.schemas.shapes import element_count

from opbridge_signal.domain import SIGNAL_DOMAIN
from opbridge_signal.filter_bank_square_root.attributes import CUSTOM_CODE, FilterBankSquareRootAttributes


def infer_filter_bank_square_root(ctx: InferenceContext) -> list[TensorType]:
    energies, scale_bits = ctx.input(0), ctx.input(1)
    if element_count(scale_bits.shape) == 0:
        raise ctx.fail(f"{CUSTOM_CODE}: the scale shift input is empty", hint="it holds one int32 shift")
    return [TensorType(DType.UINT32, energies.shape)]


FILTER_BANK_SQUARE_ROOT_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalFilterBankSquareRoot",
    since_version=1,
    doc="Each channel's square root, rounded to nearest, shifted right by the FFT's scale shift.",
    inputs=(
        FormalParameter("input", "TIn", "uint64 channel energies"),
        FormalParameter("scale_bits", "TShift", "int32 scalar: the shift SignalFftAutoScale applied"),
    ),
    outputs=(FormalParameter("output", "TOut", "uint32 roots, the input's shape"),),
    type_constraints=(
        TypeConstraint("TIn", (DType.UINT64,), "uint64"),
        TypeConstraint("TShift", (DType.INT32,), "int32"),
        TypeConstraint("TOut", (DType.UINT32,), "uint32"),
    ),
    attributes_class=FilterBankSquareRootAttributes,
    infer=infer_filter_bank_square_root,
)
