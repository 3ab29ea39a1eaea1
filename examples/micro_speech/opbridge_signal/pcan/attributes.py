# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN's attributes (from its custom options): the shift that makes signal * gain a signal-to-noise ratio."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import int32_option, option_map

CUSTOM_CODE = "SignalPCAN"


@dataclasses.dataclass(frozen=True)
class PcanAttributes:
    snr_shift: int  # (signal * gain) >> snr_shift has 12 fractional bits

    def __post_init__(self) -> None:
        if not 0 <= self.snr_shift <= 63:  # a shift of a uint64 product in TFLM
            raise ValueError(f"{CUSTOM_CODE}: snr_shift must be in [0, 63], got {self.snr_shift}")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        values = option_map(CUSTOM_CODE, data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(values) - {"snr_shift"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(snr_shift=int32_option(CUSTOM_CODE, values, "snr_shift"))

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({"snr_shift": self.snr_shift}))
