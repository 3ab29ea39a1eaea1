# SPDX-License-Identifier: Apache-2.0
"""TFLM's SignalEnergy: squared magnitude of each spectrum bin in a range."""

from opbridge_signal.energy.attributes import EnergyAttributes
from opbridge_signal.energy.emit_c import emit_c
from opbridge_signal.energy.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.energy.schema import ENERGY_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalEnergy"

__all__ = ["CUSTOM_CODE", "SCHEMA", "EnergyAttributes", "emit_c", "persistent_bytes", "reference", "scratch_bytes"]
