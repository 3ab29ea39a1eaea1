"""SignalPCAN's custom options: the shift that turns signal * gain into a signal-to-noise ratio."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

CUSTOM_CODE = "SignalPCAN"
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _option_map(data: bytes) -> dict[str, object]:
    try:
        root = flexbuffers.Loads(bytes(data))
    except (ValueError, KeyError, IndexError, TypeError) as error:
        raise ValueError(f"{CUSTOM_CODE}: custom options are not a flexbuffer: {error}") from error
    if not isinstance(root, dict):
        raise ValueError(f"{CUSTOM_CODE}: custom options must be a flexbuffer map, got {type(root).__name__}")
    return root


def _int32_option(options: dict[str, object], key: str) -> int:
    if key not in options:
        raise ValueError(f"{CUSTOM_CODE}: option '{key}' is missing")
    value = options[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{CUSTOM_CODE}: option '{key}' must be an integer, got {type(value).__name__}")
    if not _INT32_MIN <= value <= _INT32_MAX:
        raise ValueError(f"{CUSTOM_CODE}: option '{key}' = {value} does not fit in int32")
    return value


@dataclasses.dataclass(frozen=True)
class PcanOptions:
    snr_shift: int  # (signal * gain) >> snr_shift has 12 fractional bits

    def __post_init__(self) -> None:
        if not 0 <= self.snr_shift <= 63:  # a shift of a uint64 product in TFLM
            raise ValueError(f"{CUSTOM_CODE}: snr_shift must be in [0, 63], got {self.snr_shift}")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        options = _option_map(data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(options) - {"snr_shift"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(snr_shift=_int32_option(options, "snr_shift"))

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({"snr_shift": self.snr_shift}))
