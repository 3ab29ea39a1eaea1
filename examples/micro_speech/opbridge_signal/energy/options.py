"""SignalEnergy's custom options: the flexbuffer map TFLM's EnergyInit reads."""

import dataclasses
from typing import Any

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import reject_unexpected_keys


def _int_option(values: dict[str, Any], key: str) -> int:
    if key not in values:
        raise ValueError(f"SignalEnergy options lack the key {key!r}")
    value = values[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"SignalEnergy option {key!r} must be an integer, got {type(value).__name__}")
    return value


@dataclasses.dataclass(frozen=True)
class EnergyOptions:
    """Options of TFLM's SignalEnergy: the bins [start_index, end_index) it computes."""

    start_index: int
    end_index: int

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "EnergyOptions":
        try:
            values = flexbuffers.Loads(bytes(data))
        except Exception as error:  # flexbuffers raises assorted errors on malformed bytes
            raise ValueError(f"SignalEnergy options are not a flexbuffer: {error}") from error
        if not isinstance(values, dict):
            raise ValueError("SignalEnergy options must be a flexbuffer map")
        reject_unexpected_keys("SignalEnergy", values, {"start_index", "end_index"})
        return cls(start_index=_int_option(values, "start_index"), end_index=_int_option(values, "end_index"))

    def to_flexbuffer(self) -> bytes:
        # TFLM reads both by position in the key-sorted map: 'end_index' is 0, 'start_index' is 1.
        return bytes(flexbuffers.Dumps({"end_index": self.end_index, "start_index": self.start_index}))
