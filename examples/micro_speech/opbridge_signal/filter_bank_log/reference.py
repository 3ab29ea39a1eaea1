# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog in NumPy: a fixed-point natural log of each channel, saturated to int16.

With x = uint32(input << input_correction_bits), x <= 1 gives 0. Otherwise, in Q16:
    log2 = (e << 16) + f + correction(f)      e = bit length - 1, f = the bits below the leading one in Q16
    loge = (log2 * round(ln 2 * 2**16) + 2**15) >> 16
    out  = min(uint32(output_scale * loge + 2**15) >> 16, 32767)     (the uint32 product wraps)
correction() interpolates LOG2_CORRECTION = log2(1 + f) - f linearly over 128 segments.
"""

import math

import numpy as np

from opbridge_signal.filter_bank_log.attributes import FilterBankLogAttributes

Q16 = 16
SEGMENT_BITS = 7  # 128 segments of the mantissa
LN2_Q16 = round(math.log(2) * 2**Q16)  # 45426
INT16_MAX = 2**15 - 1
_HALF = 1 << (Q16 - 1)
_UINT32_MASK = 2**32 - 1


def log2_correction_table() -> np.ndarray:
    """(log2(1 + k/128) - k/128) in Q16 for k = 0..128: the table's 129 entries, from the formula."""
    position = np.arange((1 << SEGMENT_BITS) + 1) / (1 << SEGMENT_BITS)
    return np.round((np.log2(1 + position) - position) * 2**Q16).astype(np.uint16)


LOG2_CORRECTION = log2_correction_table()


def scratch_bytes(attributes: FilterBankLogAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: FilterBankLogAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def _log2_q16(values: np.ndarray) -> np.ndarray:
    """log2 of each value >= 2 in Q16 (int64), by the table."""
    exponent = np.frexp(values.astype(np.float64))[1].astype(np.int64) - 1  # exact for uint32
    mantissa = values - (np.int64(1) << exponent)  # the bits below the leading one
    fraction = np.where(
        exponent < Q16, mantissa << np.maximum(Q16 - exponent, 0), mantissa >> np.maximum(exponent - Q16, 0)
    )
    segment = fraction >> (Q16 - SEGMENT_BITS)
    table = LOG2_CORRECTION.astype(np.int64)
    low, high = table[segment], table[segment + 1]
    offset = fraction - (segment << (Q16 - SEGMENT_BITS))
    correction = low + (((high - low) * offset) >> Q16)  # >> floors, like TFLM's arithmetic shift
    return ((exponent << Q16) + fraction + correction) & 0xFFFFFFFF


def reference(
    attributes: FilterBankLogAttributes, inputs: list[np.ndarray], state: np.ndarray | None = None
) -> list[np.ndarray]:
    (energies,) = inputs
    wide = np.asarray(energies, dtype=np.uint32).ravel().astype(np.int64)
    scaled = (wide << attributes.input_correction_bits) & _UINT32_MASK
    has_log = scaled > 1
    log2 = _log2_q16(np.where(has_log, scaled, 2))
    loge = ((log2 * LN2_Q16 + _HALF) >> Q16) & _UINT32_MASK  # below 2**37: exact in int64
    # TFLM multiplies by the scale in uint32: the product wraps before the rounding shift.
    product = (loge * (attributes.output_scale & _UINT32_MASK)) & _UINT32_MASK  # below 2**53: exact in int64
    scaled_log = ((product + _HALF) & _UINT32_MASK) >> Q16
    result = np.where(has_log, np.minimum(scaled_log, INT16_MAX), 0)
    return [result.astype(np.int16).reshape(np.shape(energies))]
