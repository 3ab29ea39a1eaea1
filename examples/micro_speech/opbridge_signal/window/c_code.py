"""SignalWindow's C: one kernel call per run; the weights stay a constant input tensor."""

import math

from opbridge_signal.c_code import CArgs, CCode
from opbridge_signal.window.options import WindowOptions
from opbridge_signal.window.reference import check_shapes


def c_code(options: WindowOptions, args: CArgs) -> CCode:
    input_shape, weights_shape = args.input_shapes
    check_shapes(options, input_shape, weights_shape)
    if math.prod(args.output_shapes[0]) != math.prod(input_shape):
        raise ValueError(f"SignalWindow: output shape {args.output_shapes[0]} does not match input {input_shape}")
    samples, weights = args.inputs
    run = (
        f"status = opbridge_signal_window({samples}, {weights}, {weights_shape[0]}, {math.prod(input_shape)}, "
        f"{options.shift}, {args.outputs[0]});"
    )
    return CCode(headers=["opbridge_signal_window.h"], run_statements=[run])
