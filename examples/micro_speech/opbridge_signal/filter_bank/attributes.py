# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank's attributes (from its custom options): the number of filter bank (mel) channels."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import INT32_MAX, int32_option, option_map

CUSTOM_CODE = "SignalFilterBank"


@dataclasses.dataclass(frozen=True)
class FilterBankAttributes:
    num_channels: int  # output channels; the channel tables hold num_channels + 1 entries

    def __post_init__(self) -> None:
        if not 1 <= self.num_channels <= INT32_MAX - 1:
            raise ValueError(f"{CUSTOM_CODE}: num_channels must be positive, got {self.num_channels}")

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        values = option_map(CUSTOM_CODE, data)
        # TFLM reads the map's values by position (keys sorted), so an extra key would shift them.
        unexpected = sorted(set(values) - {"num_channels"})
        if unexpected:
            raise ValueError(f"{CUSTOM_CODE}: unexpected option key(s) {unexpected}")
        return cls(num_channels=int32_option(CUSTOM_CODE, values, "num_channels"))

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({"num_channels": self.num_channels}))
