# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog's attributes (custom options): the input's pre-shift and the scale of the natural log."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import INT32_MAX, INT32_MIN, int32_option, option_map

CUSTOM_CODE = "SignalFilterBankLog"
_KEYS = ("input_correction_bits", "output_scale")


@dataclasses.dataclass(frozen=True)
class FilterBankLogAttributes:
    input_correction_bits: int  # the input is shifted left by this (as uint32) before the log
    output_scale: int  # output = ln(input) * output_scale; TFLM uses it as uint32 (a negative value wraps)

    def __post_init__(self) -> None:
        if not 0 <= self.input_correction_bits <= 31:  # a shift of a uint32 in TFLM
            raise ValueError(
                f"{CUSTOM_CODE}: input_correction_bits must be in [0, 31], got {self.input_correction_bits}"
            )
        if not INT32_MIN <= self.output_scale <= INT32_MAX:
            raise ValueError(f"{CUSTOM_CODE}: output_scale = {self.output_scale} does not fit in int32")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        values = option_map(CUSTOM_CODE, data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(values) - set(_KEYS))
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(
            input_correction_bits=int32_option(CUSTOM_CODE, values, "input_correction_bits"),
            output_scale=int32_option(CUSTOM_CODE, values, "output_scale"),
        )

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps(dataclasses.asdict(self)))
