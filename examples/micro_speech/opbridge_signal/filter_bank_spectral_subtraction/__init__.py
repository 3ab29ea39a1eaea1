# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction: filter bank channels (uint32) minus a noise estimate kept across invokes."""

from opbridge_signal.filter_bank_spectral_subtraction.attributes import (
    CUSTOM_CODE,
    FilterBankSpectralSubtractionAttributes,
)
from opbridge_signal.filter_bank_spectral_subtraction.emit_c import emit_c
from opbridge_signal.filter_bank_spectral_subtraction.reference import (
    initial_state,
    persistent_bytes,
    reference,
    scratch_bytes,
)
from opbridge_signal.filter_bank_spectral_subtraction.schema import FILTER_BANK_SPECTRAL_SUBTRACTION_SCHEMA as SCHEMA

__all__ = [
    "CUSTOM_CODE",
    "SCHEMA",
    "FilterBankSpectralSubtractionAttributes",
    "emit_c",
    "initial_state",
    "persistent_bytes",
    "reference",
    "scratch_bytes",
]
