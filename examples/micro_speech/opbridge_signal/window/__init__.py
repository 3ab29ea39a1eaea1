"""TFLM's SignalWindow: samples times Q`shift` window weights, saturated to int16."""

from opbridge_signal.window.c_code import c_code
from opbridge_signal.window.options import WindowOptions
from opbridge_signal.window.reference import reference, scratch_bytes, state_bytes
from opbridge_signal.window.schema import WINDOW_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalWindow"

__all__ = ["CUSTOM_CODE", "SCHEMA", "WindowOptions", "c_code", "reference", "scratch_bytes", "state_bytes"]
