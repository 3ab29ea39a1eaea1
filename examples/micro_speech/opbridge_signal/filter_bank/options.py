"""SignalFilterBank's custom options: the number of filter bank (mel) channels."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

CUSTOM_CODE = "SignalFilterBank"
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
class FilterBankOptions:
    num_channels: int  # output channels; the channel tables hold num_channels + 1 entries

    def __post_init__(self) -> None:
        if not 1 <= self.num_channels <= _INT32_MAX - 1:
            raise ValueError(f"{CUSTOM_CODE}: num_channels must be positive, got {self.num_channels}")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        options = _option_map(data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(options) - {"num_channels"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(num_channels=_int32_option(options, "num_channels"))

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({"num_channels": self.num_channels}))
