# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog: filter bank channels (uint32) to a scaled natural log (int16)."""

from opbridge_signal.filter_bank_log.attributes import CUSTOM_CODE, FilterBankLogAttributes
from opbridge_signal.filter_bank_log.emit_c import emit_c
from opbridge_signal.filter_bank_log.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.filter_bank_log.schema import FILTER_BANK_LOG_SCHEMA as SCHEMA

__all__ = [
    "CUSTOM_CODE",
    "SCHEMA",
    "FilterBankLogAttributes",
    "emit_c",
    "persistent_bytes",
    "reference",
    "scratch_bytes",
]
