# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction's attributes (custom options): the noise tracker's coefficients and scales."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import INT32_MAX, INT32_MIN, bool_option, int32_option, option_map

CUSTOM_CODE = "SignalFilterBankSpectralSubtraction"

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


@dataclasses.dataclass(frozen=True)
class FilterBankSpectralSubtractionAttributes:
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
        if not 1 <= self.num_channels <= INT32_MAX // 4:
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
            if not INT32_MIN <= getattr(self, key) <= INT32_MAX:
                raise ValueError(f"{CUSTOM_CODE}: {key} = {getattr(self, key)} does not fit in int32")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        values = option_map(CUSTOM_CODE, data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(values) - {*_INT_KEYS, "clamping"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        ints = {key: int32_option(CUSTOM_CODE, values, key) for key in _INT_KEYS}
        return cls(
            num_channels=ints["num_channels"],
            smoothing=ints["smoothing"],
            one_minus_smoothing=ints["one_minus_smoothing"],
            alternate_smoothing=ints["alternate_smoothing"],
            alternate_one_minus_smoothing=ints["alternate_one_minus_smoothing"],
            min_signal_remaining=ints["min_signal_remaining"],
            smoothing_bits=ints["smoothing_bits"],
            spectral_subtraction_bits=ints["spectral_subtraction_bits"],
            clamping=bool_option(CUSTOM_CODE, values, "clamping"),
        )

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps(dataclasses.asdict(self)))
