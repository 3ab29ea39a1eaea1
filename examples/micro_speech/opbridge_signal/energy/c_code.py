"""SignalEnergy's C: one kernel call per run."""

from opbridge_signal.c_code import CArgs, CCode
from opbridge_signal.energy.options import EnergyOptions
from opbridge_signal.energy.reference import bin_count, check_shapes


def c_code(options: EnergyOptions, args: CArgs) -> CCode:
    (input_shape,) = args.input_shapes
    check_shapes(options, input_shape)
    bins = bin_count(input_shape)
    if tuple(args.output_shapes[0]) != (bins,):
        raise ValueError(f"SignalEnergy: output shape {args.output_shapes[0]} should be ({bins},)")
    run = (
        f"status = opbridge_signal_energy({args.inputs[0]}, {options.start_index}, {options.end_index}, {bins}, "
        f"{args.outputs[0]});"
    )
    return CCode(headers=["opbridge_signal_energy.h"], run_statements=[run])
