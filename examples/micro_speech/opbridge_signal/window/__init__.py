# SPDX-License-Identifier: Apache-2.0
"""TFLM's SignalWindow: samples times Q`shift` window weights, saturated to int16."""

from opbridge_signal.window.attributes import WindowAttributes
from opbridge_signal.window.emit_c import emit_c
from opbridge_signal.window.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.window.schema import WINDOW_SCHEMA as SCHEMA

CUSTOM_CODE = "SignalWindow"

__all__ = ["CUSTOM_CODE", "SCHEMA", "WindowAttributes", "emit_c", "persistent_bytes", "reference", "scratch_bytes"]
