# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy's schema: an int16 [2 * B] complex spectrum -> uint32 [B] energies."""

from opbridge.ir import DType
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

from opbridge_signal.domain import SIGNAL_DOMAIN, checked, known
from opbridge_signal.energy.attributes import EnergyAttributes
from opbridge_signal.energy.reference import bin_count, check_shapes


def infer_energy(ctx: InferenceContext) -> list[TensorType]:
    spectrum = ctx.input(0)
    if not known(spectrum.shape):
        return [TensorType(DType.UINT32, (-1,))]
    checked(ctx, check_shapes, ctx.attributes, spectrum.shape)
    return [TensorType(DType.UINT32, (bin_count(spectrum.shape),))]


ENERGY_SCHEMA = OpSchema(
    domain=SIGNAL_DOMAIN,
    name="SignalEnergy",
    since_version=1,
    doc="re^2 + im^2 of each bin in [start_index, end_index); the other bins are 0.",
    inputs=(FormalParameter("input", "TIn", "int16 [2 * B]: complex bins, (re, im) interleaved"),),
    outputs=(FormalParameter("output", "TOut", "uint32 [B] energies"),),
    type_constraints=(
        TypeConstraint("TIn", (DType.INT16,), "int16"),
        TypeConstraint("TOut", (DType.UINT32,), "uint32"),
    ),
    attributes_class=EnergyAttributes,
    infer=infer_energy,
)
