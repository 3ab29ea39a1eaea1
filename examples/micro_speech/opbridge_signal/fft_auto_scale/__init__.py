# SPDX-License-Identifier: Apache-2.0
"""TFLM's SignalFftAutoScale: scales samples up to use int16's range, reporting the shift."""

from opbridge_signal.fft_auto_scale.attributes import FftAutoScaleAttributes
from opbridge_signal.fft_auto_scale.emit_c import emit_c
from opbridge_signal.fft_auto_scale.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.fft_auto_scale.schema import FFT_AUTO_SCALE_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalFftAutoScale"

__all__ = [
    "CUSTOM_CODE",
    "SCHEMA",
    "FftAutoScaleAttributes",
    "emit_c",
    "persistent_bytes",
    "reference",
    "scratch_bytes",
]
