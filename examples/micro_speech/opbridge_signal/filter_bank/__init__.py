# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank: a power spectrum (uint32) into num_channels triangular filter bank energies (uint64)."""

from opbridge_signal.filter_bank.attributes import CUSTOM_CODE, FilterBankAttributes
from opbridge_signal.filter_bank.emit_c import absorbed_inputs, emit_c
from opbridge_signal.filter_bank.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.filter_bank.schema import FILTER_BANK_SCHEMA as SCHEMA

__all__ = [
    "CUSTOM_CODE",
    "SCHEMA",
    "FilterBankAttributes",
    "absorbed_inputs",
    "emit_c",
    "persistent_bytes",
    "reference",
    "scratch_bytes",
]
