# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN (per-channel amplitude normalisation) in NumPy.

Each channel's gain comes from its noise estimate n through a piecewise quadratic table:
n <= 2 reads lut[n] directly; otherwise n's bit length L picks coefficients c0, c1, c2 at
lut[4L - 6 :], and the 10 bits below n's leading one, m, give
    gain = int16(c0 + round((floor(c2 * m / 32) + 32 * c1) * m / 2**15))
(the int16 wraps, then TFLM widens it to uint32 by sign extension). Then
    snr    = uint32((signal * gain) >> snr_shift)        (12 fractional bits)
    output = snr**2 / 4 if snr < 2 else snr - 1           (6 fractional bits; the shrink)
"""

import numpy as np

from opbridge_signal.pcan.attributes import CUSTOM_CODE, PcanAttributes

SNR_FRACTION_BITS = 12
OUTPUT_FRACTION_BITS = 6


def scratch_bytes(attributes: PcanAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: PcanAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def _bit_length(values: np.ndarray) -> np.ndarray:
    """Bit length of each uint32 value (0 for 0); exact, since float64 holds every uint32."""
    return np.frexp(values.astype(np.float64))[1].astype(np.int64)


def gains(noise_estimate: np.ndarray, gain_lut: np.ndarray) -> np.ndarray:
    """The uint32 gain TFLM applies for each noise estimate."""
    noise = noise_estimate.astype(np.int64)
    lut = gain_lut.astype(np.int64)
    bits = _bit_length(noise_estimate)
    needed = int(np.max(np.where(noise <= 2, noise, 4 * bits - 4), initial=0)) + 1
    if lut.size < needed:
        raise ValueError(f"{CUSTOM_CODE}: a noise estimate needs gain LUT entry {needed - 1}, the LUT has {lut.size}")
    base = np.maximum(4 * bits - 6, 0)
    c0, c1, c2 = (lut[np.minimum(base + k, lut.size - 1)] for k in range(3))
    # The 10 bits below the leading one (n < 2**L, so the left shift cannot overflow uint32).
    mantissa = np.where(bits < 11, noise << np.maximum(11 - bits, 0), noise >> np.maximum(bits - 11, 0)) & 0x3FF
    quadratic = ((c2 * mantissa) >> 5) + 32 * c1  # int64 >> floors, like the C arithmetic shift
    value = ((quadratic * mantissa + (1 << 14)) >> 15) + c0
    value = np.where(noise <= 2, lut[np.minimum(noise, lut.size - 1)], value)
    as_int16 = ((value + 2**15) & 0xFFFF) - 2**15
    return (as_int16 & 0xFFFFFFFF).astype(np.uint64)


def shrink(snr: np.ndarray) -> np.ndarray:
    """x**2 / 4 below x = 2, x - 1 above; from 12 to 6 fractional bits."""
    small = (snr * snr) >> (2 + 2 * SNR_FRACTION_BITS - OUTPUT_FRACTION_BITS)
    large = (snr >> (SNR_FRACTION_BITS - OUTPUT_FRACTION_BITS)) - (1 << OUTPUT_FRACTION_BITS)
    return np.where(snr < (2 << SNR_FRACTION_BITS), small, large)


def reference(
    attributes: PcanAttributes, inputs: list[np.ndarray], state: np.ndarray | None = None
) -> list[np.ndarray]:
    signal, noise_estimate, gain_lut = inputs
    if np.size(noise_estimate) < np.size(signal):
        raise ValueError(f"{CUSTOM_CODE}: {np.size(noise_estimate)} noise estimates for {np.size(signal)} channels")
    noise = np.asarray(noise_estimate, dtype=np.uint32).ravel()[: np.size(signal)]
    gain = gains(noise, np.asarray(gain_lut, dtype=np.int16).ravel())
    wide_signal = np.asarray(signal, dtype=np.uint32).ravel().astype(np.uint64)
    # uint32 * uint32 fits in uint64; the shifted ratio is kept as uint32.
    snr = ((wide_signal * gain) >> np.uint64(attributes.snr_shift)) & np.uint64(0xFFFFFFFF)
    return [shrink(snr).astype(np.uint32).reshape(np.shape(signal))]
