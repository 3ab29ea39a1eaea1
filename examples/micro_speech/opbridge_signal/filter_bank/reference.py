# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank in NumPy: triangular (mel) filters accumulate a power spectrum into channels.

Channel c sums the spectrum over band c + 1 with `weights` (its rising edge) and over band c with
`unweights` (the falling edge, 1 - weight), both in uint64 modulo 2**64 as TFLM does; an int16 weight
converts to uint64 by sign extension, so a negative weight wraps.
"""

import numpy as np

from opbridge_signal.filter_bank.attributes import CUSTOM_CODE, FilterBankAttributes

_UINT64_MASK = 2**64 - 1


def scratch_bytes(attributes: FilterBankAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0  # each channel's sum is written straight to the output


def persistent_bytes(attributes: FilterBankAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def _band_sum(spectrum: np.ndarray, table: np.ndarray, frequency_start: int, weight_start: int, width: int) -> int:
    if width <= 0:
        return 0  # TFLM's loop over the band does not run, whatever the starts are
    if frequency_start < 0 or frequency_start + width > spectrum.size:
        raise ValueError(
            f"{CUSTOM_CODE}: band [{frequency_start}, +{width}) is outside the spectrum of {spectrum.size}"
        )
    if weight_start < 0 or weight_start + width > table.size:
        raise ValueError(f"{CUSTOM_CODE}: band weights [{weight_start}, +{width}) are outside a table of {table.size}")
    products = table[weight_start : weight_start + width] * spectrum[frequency_start : frequency_start + width]
    return int(np.sum(products, dtype=np.uint64))  # uint64 array arithmetic wraps modulo 2**64


def reference(
    attributes: FilterBankAttributes, inputs: list[np.ndarray], state: np.ndarray | None = None
) -> list[np.ndarray]:
    spectrum, weights, unweights, frequency_starts, weight_starts, widths = inputs
    bands = attributes.num_channels + 1
    for name, table in (("channel_frequency_starts", frequency_starts), ("channel_weight_starts", weight_starts),
                        ("channel_widths", widths)):  # fmt: skip
        if table.size < bands:
            raise ValueError(f"{CUSTOM_CODE}: {name} has {table.size} entries, needs num_channels + 1 = {bands}")
    spectrum64 = np.asarray(spectrum, dtype=np.uint32).ravel().astype(np.uint64)
    weights64 = np.asarray(weights, dtype=np.int16).ravel().astype(np.int64).view(np.uint64)
    unweights64 = np.asarray(unweights, dtype=np.int16).ravel().astype(np.int64).view(np.uint64)
    starts = [int(v) for v in np.ravel(frequency_starts)[:bands]]
    weight_offsets = [int(v) for v in np.ravel(weight_starts)[:bands]]
    band_widths = [int(v) for v in np.ravel(widths)[:bands]]

    def band(table: np.ndarray, index: int) -> int:
        return _band_sum(spectrum64, table, starts[index], weight_offsets[index], band_widths[index])

    channels = [(band(weights64, c + 1) + band(unweights64, c)) & _UINT64_MASK for c in range(attributes.num_channels)]
    return [np.array(channels, dtype=np.uint64)]
