"""TFLM's SignalRfft (int16): real FFT by fixed-point KISS FFT, complex interleaved output."""

from opbridge_signal.rfft.c_code import c_code
from opbridge_signal.rfft.options import RfftOptions
from opbridge_signal.rfft.reference import reference, scratch_bytes, state_bytes

CUSTOM_CODE = "SignalRfft"

__all__ = ["CUSTOM_CODE", "RfftOptions", "c_code", "reference", "scratch_bytes", "state_bytes"]
