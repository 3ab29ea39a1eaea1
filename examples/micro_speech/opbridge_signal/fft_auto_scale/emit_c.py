# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale's C: one kernel call per run."""

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.fft_auto_scale.attributes import FftAutoScaleAttributes
from opbridge_signal.fft_auto_scale.reference import check_shapes


def emit_c(attributes: FftAutoScaleAttributes, args: SignalEmitArgs) -> NodeCode:
    (input_shape,) = args.input_shapes
    check_shapes(input_shape)
    if tuple(args.output_shapes[0]) != tuple(input_shape) or len(args.output_shapes) != 2:
        raise ValueError(f"SignalFftAutoScale: outputs {args.output_shapes} should be {input_shape} and a scalar")
    scaled, shift = args.outputs
    run = f"status = opbridge_signal_fft_auto_scale({args.inputs[0]}, {input_shape[0]}, {scaled}, {shift});"
    return NodeCode(includes=["opbridge_signal_fft_auto_scale.h"], statements=[run])
