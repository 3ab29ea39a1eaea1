# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale in NumPy, bit-exact with TFLM.

TFLM scales the input up by the largest power of two that keeps its peak
within int16 and returns that shift:

- the peak comes from TFLM's MaxAbs16, a running maximum kept in an int16:
  negating -32768 wraps back to -32768, after which any larger sample (even
  a negative one) becomes the "maximum". Inputs without -32768 give
  max(|x|); with it the scan is reproduced sample by sample.
- the shift is 15 - bit_length(peak), 0 if that is negative; a zero or
  negative peak counts as 32 bits (TFLM's GCC path: MostSignificantBit32(0)
  is 32, and a negative int16 converts to a huge uint32), so the shift is 0.
- each output is input * 2^shift, stored into int16 (wrapping).
"""

import numpy as np

from opbridge_signal.fft_auto_scale.attributes import FftAutoScaleAttributes


def _peak(samples: np.ndarray) -> int:
    """TFLM's MaxAbs16, including its int16 wrap on -32768."""
    if not (samples == -32768).any():
        return int(np.abs(samples.astype(np.int32)).max(initial=0))
    peak = 0
    for value in samples.tolist():
        if value > peak:
            peak = value
        elif -value > peak:
            peak = int(np.int16(np.int32(-value)))  # -(-32768) stored into int16 is -32768
    return peak


def scale_bits(samples: np.ndarray) -> int:
    peak = _peak(samples.ravel())
    bits = 15 - peak.bit_length() if peak > 0 else 0
    return max(bits, 0)


def check_shapes(input_shape: tuple[int, ...]) -> None:
    if len(input_shape) != 1:
        raise ValueError(f"SignalFftAutoScale: the input must have one dimension, got shape {input_shape}")


def reference(
    attributes: FftAutoScaleAttributes, inputs: list[np.ndarray], state: np.ndarray | None
) -> list[np.ndarray]:
    """int16 [N] -> int16 [N] (scaled up), int32 [] (the shift applied)."""
    (samples,) = inputs
    check_shapes(samples.shape)
    bits = scale_bits(samples)
    scaled = (samples.astype(np.int32) << bits).astype(np.int16)  # the int16 store wraps
    return [scaled, np.array(bits, dtype=np.int32)]


def scratch_bytes(attributes: FftAutoScaleAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0


def persistent_bytes(attributes: FftAutoScaleAttributes, input_shapes: list[tuple[int, ...]]) -> int:
    return 0
