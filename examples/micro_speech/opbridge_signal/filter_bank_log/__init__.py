"""SignalFilterBankLog: filter bank channels (uint32) to a scaled natural log (int16)."""

from opbridge_signal.filter_bank_log.c_code import c_code
from opbridge_signal.filter_bank_log.options import CUSTOM_CODE, FilterBankLogOptions
from opbridge_signal.filter_bank_log.reference import reference, scratch_bytes, state_bytes

__all__ = ["CUSTOM_CODE", "FilterBankLogOptions", "c_code", "reference", "scratch_bytes", "state_bytes"]
