# SPDX-License-Identifier: Apache-2.0
"""TFLM's SignalRfft (int16): real FFT by fixed-point KISS FFT, complex interleaved output."""

from opbridge_signal.rfft.attributes import RfftAttributes
from opbridge_signal.rfft.emit_c import emit_c
from opbridge_signal.rfft.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.rfft.schema import RFFT_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalRfft"

__all__ = ["CUSTOM_CODE", "SCHEMA", "RfftAttributes", "emit_c", "persistent_bytes", "reference", "scratch_bytes"]
