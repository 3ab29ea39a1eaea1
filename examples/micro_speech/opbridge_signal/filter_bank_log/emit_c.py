# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog's C: the log2 correction table (computed here, flash only) and one call."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank_log.attributes import CUSTOM_CODE, FilterBankLogAttributes
from opbridge_signal.filter_bank_log.reference import LOG2_CORRECTION


def _table_definition(name: str) -> str:
    rows = [
        "    " + ", ".join(f"{int(value)}u" for value in LOG2_CORRECTION[start : start + 12]) + ","
        for start in range(0, LOG2_CORRECTION.size, 12)
    ]
    header = (
        f"/* (log2(1 + k/128) - k/128) * 2^16, k = 0..128 */\nstatic const uint16_t {name}[{LOG2_CORRECTION.size}] = {{"
    )
    return "\n".join([header, *rows, "};"])


def emit_c(attributes: FilterBankLogAttributes, args: SignalEmitArgs) -> NodeCode:
    if len(args.inputs) != 1 or len(args.outputs) != 1:
        raise ValueError(f"{CUSTOM_CODE}: expects 1 input and 1 output, got {len(args.inputs)} and {len(args.outputs)}")
    count = math.prod(args.input_shapes[0])
    if math.prod(args.output_shapes[0]) != count:
        raise ValueError(f"{CUSTOM_CODE}: shapes {args.input_shapes[0]} -> {args.output_shapes[0]} do not fit")
    table = f"{args.symbol}_log2_correction"
    call = (
        f"status = opbridge_signal_filter_bank_log({args.inputs[0]}, {count}, {attributes.input_correction_bits}u, "
        f"UINT32_C({attributes.output_scale & 0xFFFFFFFF}), {table}, {args.outputs[0]});"
    )
    return NodeCode(
        includes=["opbridge_signal_filter_bank_log.h"], definitions=[_table_definition(table)], statements=[call]
    )
