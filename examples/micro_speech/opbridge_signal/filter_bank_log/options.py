"""SignalFilterBankLog's custom options: the input's pre-shift and the scale of the natural log."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

CUSTOM_CODE = "SignalFilterBankLog"
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_KEYS = ("input_correction_bits", "output_scale")


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
class FilterBankLogOptions:
    input_correction_bits: int  # the input is shifted left by this (as uint32) before the log
    output_scale: int  # output = ln(input) * output_scale; TFLM uses it as uint32 (a negative value wraps)

    def __post_init__(self) -> None:
        if not 0 <= self.input_correction_bits <= 31:  # a shift of a uint32 in TFLM
            raise ValueError(
                f"{CUSTOM_CODE}: input_correction_bits must be in [0, 31], got {self.input_correction_bits}"
            )
        if not _INT32_MIN <= self.output_scale <= _INT32_MAX:
            raise ValueError(f"{CUSTOM_CODE}: output_scale = {self.output_scale} does not fit in int32")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        options = _option_map(data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(options) - set(_KEYS))
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(
            input_correction_bits=_int32_option(options, "input_correction_bits"),
            output_scale=_int32_option(options, "output_scale"),
        )

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps(dataclasses.asdict(self)))
