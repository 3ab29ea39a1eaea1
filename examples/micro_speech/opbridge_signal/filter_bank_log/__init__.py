"""SignalFilterBankLog: filter bank channels (uint32) to a scaled natural log (int16)."""

from opbridge_signal.filter_bank_log.c_code import c_code
from opbridge_signal.filter_bank_log.options import CUSTOM_CODE, FilterBankLogOptions
from opbridge_signal.filter_bank_log.reference import reference, scratch_bytes, state_bytes
from opbridge_signal.filter_bank_log.schema import FILTER_BANK_LOG_SCHEMA as SCHEMA

__all__ = ["CUSTOM_CODE", "SCHEMA", "FilterBankLogOptions", "c_code", "reference", "scratch_bytes", "state_bytes"]
