"""TFLM's SignalEnergy: squared magnitude of each spectrum bin in a range."""

from opbridge_signal.energy.c_code import c_code
from opbridge_signal.energy.options import EnergyOptions
from opbridge_signal.energy.reference import reference, scratch_bytes, state_bytes
from opbridge_signal.energy.schema import ENERGY_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalEnergy"

__all__ = ["CUSTOM_CODE", "SCHEMA", "EnergyOptions", "c_code", "reference", "scratch_bytes", "state_bytes"]
