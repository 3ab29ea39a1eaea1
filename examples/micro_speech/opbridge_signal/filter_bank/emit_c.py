# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank's C: one call of opbridge_signal_filter_bank; the tables stay model constants."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank.attributes import CUSTOM_CODE, FilterBankAttributes


def _length(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def emit_c(attributes: FilterBankAttributes, args: SignalEmitArgs) -> NodeCode:
    if len(args.inputs) != 6 or len(args.outputs) != 1:
        raise ValueError(
            f"{CUSTOM_CODE}: expects 6 inputs and 1 output, got {len(args.inputs)} and {len(args.outputs)}"
        )
    bands = attributes.num_channels + 1
    for position in (3, 4, 5):
        if _length(args.input_shapes[position]) < bands:
            raise ValueError(f"{CUSTOM_CODE}: input {position} needs num_channels + 1 = {bands} entries")
    if _length(args.output_shapes[0]) != attributes.num_channels:
        raise ValueError(
            f"{CUSTOM_CODE}: output has shape {args.output_shapes[0]}, num_channels is {attributes.num_channels}"
        )
    spectrum, weights, unweights, frequency_starts, weight_starts, widths = args.inputs
    spectrum_length, weights_length, unweights_length = (_length(args.input_shapes[i]) for i in range(3))
    call = (
        f"status = opbridge_signal_filter_bank({spectrum}, {spectrum_length}, {weights}, {weights_length}, "
        f"{unweights}, {unweights_length}, {frequency_starts}, {weight_starts}, {widths}, "
        f"{attributes.num_channels}, {args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_filter_bank.h"], statements=[call])
