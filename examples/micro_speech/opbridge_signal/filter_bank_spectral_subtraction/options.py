"""SignalFilterBankSpectralSubtraction's custom options: the noise tracker's coefficients and scales."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

CUSTOM_CODE = "SignalFilterBankSpectralSubtraction"
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1

_INT_KEYS = (
    "alternate_one_minus_smoothing",
    "alternate_smoothing",
    "min_signal_remaining",
    "num_channels",
    "one_minus_smoothing",
    "smoothing",
    "smoothing_bits",
    "spectral_subtraction_bits",
)


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


def _bool_option(options: dict[str, object], key: str) -> bool:
    if key not in options:
        raise ValueError(f"{CUSTOM_CODE}: option '{key}' is missing")
    value = options[key]
    if not isinstance(value, int):  # TFLM reads any integer as a bool (nonzero is true); bool is an int
        raise ValueError(f"{CUSTOM_CODE}: option '{key}' must be a bool, got {type(value).__name__}")
    return bool(value)


@dataclasses.dataclass(frozen=True)
class FilterBankSpectralSubtractionOptions:
    """Coefficients are fixed point with `spectral_subtraction_bits` fractional bits.

    TFLM reads each as int32 and uses it as uint32 (a negative value wraps). Even channels use
    smoothing / one_minus_smoothing, odd channels the alternate pair.
    """

    num_channels: int
    smoothing: int
    one_minus_smoothing: int
    alternate_smoothing: int
    alternate_one_minus_smoothing: int
    min_signal_remaining: int  # the output never drops below input * this
    smoothing_bits: int  # extra fractional bits of the noise estimate
    spectral_subtraction_bits: int
    clamping: bool  # pull the noise estimate down to the signal when the signal falls below it

    def __post_init__(self) -> None:
        if not 1 <= self.num_channels <= _INT32_MAX // 4:
            raise ValueError(f"{CUSTOM_CODE}: num_channels must be positive, got {self.num_channels}")
        # Both are shift counts in TFLM: a uint32 by smoothing_bits, a uint64 by spectral_subtraction_bits.
        if not 0 <= self.smoothing_bits <= 31:
            raise ValueError(f"{CUSTOM_CODE}: smoothing_bits must be in [0, 31], got {self.smoothing_bits}")
        if not 0 <= self.spectral_subtraction_bits <= 63:
            raise ValueError(
                f"{CUSTOM_CODE}: spectral_subtraction_bits must be in [0, 63], got {self.spectral_subtraction_bits}"
            )
        for key in ("smoothing", "one_minus_smoothing", "alternate_smoothing", "alternate_one_minus_smoothing",
                    "min_signal_remaining"):  # fmt: skip
            if not _INT32_MIN <= getattr(self, key) <= _INT32_MAX:
                raise ValueError(f"{CUSTOM_CODE}: {key} = {getattr(self, key)} does not fit in int32")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        options = _option_map(data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(options) - {*_INT_KEYS, "clamping"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        ints = {key: _int32_option(options, key) for key in _INT_KEYS}
        return cls(
            num_channels=ints["num_channels"],
            smoothing=ints["smoothing"],
            one_minus_smoothing=ints["one_minus_smoothing"],
            alternate_smoothing=ints["alternate_smoothing"],
            alternate_one_minus_smoothing=ints["alternate_one_minus_smoothing"],
            min_signal_remaining=ints["min_signal_remaining"],
            smoothing_bits=ints["smoothing_bits"],
            spectral_subtraction_bits=ints["spectral_subtraction_bits"],
            clamping=_bool_option(options, "clamping"),
        )

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps(dataclasses.asdict(self)))
