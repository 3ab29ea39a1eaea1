# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot: filter bank energies (uint64) to rounded square roots (uint32), scaled down."""

from opbridge_signal.filter_bank_square_root.attributes import CUSTOM_CODE, FilterBankSquareRootAttributes
from opbridge_signal.filter_bank_square_root.emit_c import emit_c
from opbridge_signal.filter_bank_square_root.reference import persistent_bytes, reference, scratch_bytes
from opbridge_signal.filter_bank_square_root.schema import FILTER_BANK_SQUARE_ROOT_SCHEMA as SCHEMA

__all__ = [
    "CUSTOM_CODE",
    "SCHEMA",
    "FilterBankSquareRootAttributes",
    "emit_c",
    "persistent_bytes",
    "reference",
    "scratch_bytes",
]
