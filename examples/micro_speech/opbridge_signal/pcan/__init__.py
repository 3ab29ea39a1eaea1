# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN: filter bank channels (uint32) normalised by their noise estimate through a gain LUT (uint32)."""

from opbridge_signal.pcan.attributes import CUSTOM_CODE, PcanAttributes
from opbridge_signal.pcan.emit_c import emit_c
from opbridge_signal.pcan.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.pcan.schema import PCAN_SCHEMA as SCHEMA

__all__ = ["CUSTOM_CODE", "SCHEMA", "PcanAttributes", "emit_c", "persistent_bytes", "reference", "scratch_bytes"]
