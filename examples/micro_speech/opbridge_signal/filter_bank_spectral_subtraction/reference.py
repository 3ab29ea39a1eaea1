# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction in NumPy: subtract a running noise estimate from each channel.

Per channel, with s = smoothing_bits and b = spectral_subtraction_bits (all uint32 unless noted):
    scaled   = input << s                                   (wraps modulo 2**32)
    estimate = (scaled * smoothing + estimate * (1 - smoothing)) >> b     (uint64 sum, wraps)
    kept     = min(estimate, scaled); with clamping the estimate itself drops to `kept`
    output   = max((scaled - kept) >> s, (input * min_signal_remaining) >> b)
The estimate (uint32[num_channels], zero after init/reset) persists across invokes and is also
the second output.
"""

import numpy as np

from opbridge_signal.filter_bank_spectral_subtraction.attributes import (
    CUSTOM_CODE,
    FilterBankSpectralSubtractionAttributes,
)

_UINT32_MASK = np.uint64(2**32 - 1)


def scratch_bytes(attributes: FilterBankSpectralSubtractionAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: FilterBankSpectralSubtractionAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 4 * attributes.num_channels  # the uint32 noise estimate


def initial_state(
    attributes: FilterBankSpectralSubtractionAttributes, input_shapes: list[tuple[int, ...]]
) -> np.ndarray:
    return np.zeros(persistent_bytes(attributes, input_shapes), dtype=np.uint8)


def _as_uint32(value: int) -> np.uint64:
    """An int32 option as TFLM's config holds it (uint32), widened for the 64-bit products."""
    return np.uint64(value & 0xFFFFFFFF)


def reference(
    attributes: FilterBankSpectralSubtractionAttributes, inputs: list[np.ndarray], state: np.ndarray | None
) -> list[np.ndarray]:
    (signal,) = inputs
    channels = attributes.num_channels
    if signal.size != channels:
        raise ValueError(f"{CUSTOM_CODE}: input has {signal.size} values, num_channels is {channels}")
    if state is None or state.nbytes != 4 * channels:
        raise ValueError(f"{CUSTOM_CODE}: needs a state of {4 * channels} bytes")
    estimate = state.view(np.uint32)  # updated in place: the noise estimate carries to the next invoke

    odd = (np.arange(channels) & 1).astype(bool)  # odd channels use the alternate coefficients
    smoothing = np.where(odd, _as_uint32(attributes.alternate_smoothing), _as_uint32(attributes.smoothing))
    one_minus_smoothing = np.where(
        odd, _as_uint32(attributes.alternate_one_minus_smoothing), _as_uint32(attributes.one_minus_smoothing)
    )
    smoothing_bits = np.uint64(attributes.smoothing_bits)
    fraction_bits = np.uint64(attributes.spectral_subtraction_bits)

    wide_signal = np.asarray(signal, dtype=np.uint32).ravel().astype(np.uint64)
    scaled = (wide_signal << smoothing_bits) & _UINT32_MASK
    # Each product is below 2**64; their sum wraps modulo 2**64 (NumPy uint64 arrays wrap silently).
    smoothed = (scaled * smoothing + estimate.astype(np.uint64) * one_minus_smoothing) >> fraction_bits
    new_estimate = smoothed & _UINT32_MASK
    kept = np.minimum(new_estimate, scaled)
    estimate[:] = kept if attributes.clamping else new_estimate

    floor = ((wide_signal * _as_uint32(attributes.min_signal_remaining)) >> fraction_bits) & _UINT32_MASK
    subtracted = (scaled - kept) >> smoothing_bits
    output = np.maximum(subtracted, floor).astype(np.uint32)
    return [output.reshape(signal.shape), estimate.copy().reshape(signal.shape)]
