# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN's C: one call; the gain LUT stays a model constant (an input)."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.pcan.attributes import CUSTOM_CODE, PcanAttributes


def emit_c(attributes: PcanAttributes, args: SignalEmitArgs) -> NodeCode:
    if len(args.inputs) != 3 or len(args.outputs) != 1:
        raise ValueError(
            f"{CUSTOM_CODE}: expects 3 inputs and 1 output, got {len(args.inputs)} and {len(args.outputs)}"
        )
    channels = math.prod(args.input_shapes[0])
    if math.prod(args.output_shapes[0]) != channels or math.prod(args.input_shapes[1]) < channels:
        raise ValueError(f"{CUSTOM_CODE}: shapes {args.input_shapes} -> {args.output_shapes} do not fit")
    signal, noise_estimate, gain_lut = args.inputs
    call = (
        f"status = opbridge_signal_pcan({signal}, {noise_estimate}, {gain_lut}, {math.prod(args.input_shapes[2])}, "
        f"{attributes.snr_shift}, {channels}, {args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_pcan.h"], statements=[call])
