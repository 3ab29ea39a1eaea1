# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot's C: one call; the scale shift is read from its int32 scalar input at run time."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank_square_root.attributes import CUSTOM_CODE, FilterBankSquareRootAttributes


def emit_c(attributes: FilterBankSquareRootAttributes, args: SignalEmitArgs) -> NodeCode:
    if len(args.inputs) != 2 or len(args.outputs) != 1:
        raise ValueError(
            f"{CUSTOM_CODE}: expects 2 inputs and 1 output, got {len(args.inputs)} and {len(args.outputs)}"
        )
    count = math.prod(args.input_shapes[0])
    if math.prod(args.output_shapes[0]) != count or math.prod(args.input_shapes[1]) != 1:
        raise ValueError(f"{CUSTOM_CODE}: shapes {args.input_shapes} -> {args.output_shapes} do not fit")
    energies, scale_down_bits = args.inputs
    call = (
        f"status = opbridge_signal_filter_bank_square_root({energies}, {count}, ({scale_down_bits})[0], "
        f"{args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_filter_bank_square_root.h"], statements=[call])
