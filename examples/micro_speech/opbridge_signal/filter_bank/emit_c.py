# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank's C: one kernel call.

When the five tables are model constants (as in every model TFLM's tools write), the emitter merges
them at conversion time: channel c's rising band (band c + 1, `weights`) and falling band (band c,
`unweights`) become one run of the spectrum with one weight per bin, their sum (the sums are modulo
2**64, so adding the two weights of a bin first gives the same channel). The kernel then reads one
weight table straight through, a dot product per channel (opbridge_signal_filter_bank_merged). Merged
weights must fit uint16 (non-negative: a negative int16 weight wraps modulo 2**64 in TFLM, which the
unsigned loop does not do); tables that do not, or that are computed at run time, take the general
kernel (opbridge_signal_filter_bank), which reads the original tables.
"""

import dataclasses
import math

import numpy as np
from opbridge.backends.c.emit_context import NodeCode, c_int_list
from opbridge.errors import ModelFormatError

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank.attributes import CUSTOM_CODE, FilterBankAttributes

UINT16_MAX = 2**16 - 1


@dataclasses.dataclass(frozen=True)
class MergedBands:
    """Per channel: the first spectrum bin, the count of bins and their weights (concatenated)."""

    starts: list[int]
    widths: list[int]
    weights: list[int]


def _length(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def _band(starts: np.ndarray, offsets: np.ndarray, widths: np.ndarray, table: np.ndarray, band: int,
          spectrum_length: int) -> dict[int, int]:  # fmt: skip
    """Bin -> weight of one band (sign-extended int16), checked against the spectrum and the table."""
    start, offset, width = int(starts[band]), int(offsets[band]), int(widths[band])
    if width <= 0:
        return {}  # TFLM's loop does not run, whatever the starts are
    # A model's tables out of range (TFLM would read past them): the file is damaged.
    if start < 0 or start + width > spectrum_length:
        raise ModelFormatError(
            f"{CUSTOM_CODE}: band {band} [{start}, +{width}) is outside the spectrum of {spectrum_length}",
            hint="the model's filter bank tables are damaged: re-export the model",
        )
    if offset < 0 or offset + width > table.size:
        raise ModelFormatError(
            f"{CUSTOM_CODE}: band {band}'s weights [{offset}, +{width}) are outside a table of {table.size}",
            hint="the model's filter bank tables are damaged: re-export the model",
        )
    return {start + k: int(table[offset + k]) for k in range(width)}


def merged_bands(
    attributes: FilterBankAttributes, tables: list[np.ndarray], spectrum_length: int
) -> MergedBands | None:
    """The channels' merged runs, or None when a merged weight falls outside [0, 65535]."""
    weights, unweights, frequency_starts, weight_starts, widths = (np.ravel(table) for table in tables)
    result = MergedBands([], [], [])
    for channel in range(attributes.num_channels):
        by_bin: dict[int, int] = {}
        for band, table in ((channel + 1, weights), (channel, unweights)):
            for spectrum_bin, weight in _band(frequency_starts, weight_starts, widths, table, band,
                                              spectrum_length).items():  # fmt: skip
                by_bin[spectrum_bin] = by_bin.get(spectrum_bin, 0) + weight
        first = min(by_bin, default=0)
        run = [by_bin.get(first + k, 0) for k in range(max(by_bin, default=-1) + 1 - first)]
        if any(weight < 0 or weight > UINT16_MAX for weight in run):
            return None
        result.starts.append(first)
        result.widths.append(len(run))
        result.weights.extend(run)
    return result


def merged_tables(
    attributes: FilterBankAttributes, input_values: tuple[np.ndarray | None, ...], input_shapes: list[tuple[int, ...]]
) -> MergedBands | None:
    """The node's merged bands when its five tables are constants that merge, else None."""
    tables = [input_values[position] if position < len(input_values) else None for position in range(1, 6)]
    spectrum_length = _length(input_shapes[0])
    if any(table is None for table in tables) or spectrum_length > UINT16_MAX:
        return None
    return merged_bands(attributes, [table for table in tables if table is not None], spectrum_length)


def absorbed_inputs(
    attributes: FilterBankAttributes, input_values: tuple[np.ndarray | None, ...], input_shapes: list[tuple[int, ...]]
) -> tuple[int, ...]:
    """The inputs the emitted C no longer reads (the five tables, when they merge): the module leaves them
    out unless another node reads them."""
    return (1, 2, 3, 4, 5) if merged_tables(attributes, input_values, input_shapes) is not None else ()


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
    merged = merged_tables(attributes, args.input_values, args.input_shapes)
    if merged is None:
        call = (
            f"status = opbridge_signal_filter_bank({spectrum}, {spectrum_length}, {weights}, {weights_length}, "
            f"{unweights}, {unweights_length}, {frequency_starts}, {weight_starts}, {widths}, "
            f"{attributes.num_channels}, {args.outputs[0]});"
        )
        return NodeCode(includes=["opbridge_signal_filter_bank.h"], statements=[call])
    definitions = [
        f"static const uint16_t {args.symbol}_{name}[{max(len(values), 1)}] = {{{c_int_list(values) or '0'}}};"
        for name, values in (("starts", merged.starts), ("widths", merged.widths), ("weights", merged.weights))
    ]
    call = (
        f"status = opbridge_signal_filter_bank_merged({spectrum}, {args.symbol}_starts, {args.symbol}_widths, "
        f"{args.symbol}_weights, {attributes.num_channels}, {args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_filter_bank.h"], definitions=definitions, statements=[call])
