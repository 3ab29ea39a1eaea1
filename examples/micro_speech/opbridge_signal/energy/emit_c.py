# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy's C: one kernel call per run."""

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.energy.attributes import EnergyAttributes
from opbridge_signal.energy.reference import bin_count, check_shapes


def emit_c(attributes: EnergyAttributes, args: SignalEmitArgs) -> NodeCode:
    (input_shape,) = args.input_shapes
    check_shapes(attributes, input_shape)
    bins = bin_count(input_shape)
    if tuple(args.output_shapes[0]) != (bins,):
        raise ValueError(f"SignalEnergy: output shape {args.output_shapes[0]} should be ({bins},)")
    run = (
        f"status = opbridge_signal_energy({args.inputs[0]}, {attributes.start_index}, {attributes.end_index}, {bins}, "
        f"{args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_energy.h"], statements=[run])
