# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot's attributes: none; TFLM never reads its custom options (the scale is an input)."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import option_map

CUSTOM_CODE = "SignalFilterBankSquareRoot"


@dataclasses.dataclass(frozen=True)
class FilterBankSquareRootAttributes:
    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        """Accepts no options or an empty map, as the converter writes; any key would be one TFLM ignores."""
        if not data:
            return cls()
        root = option_map(CUSTOM_CODE, data)
        if root:
            raise ValueError(f"{CUSTOM_CODE}: takes no options, got key(s) {sorted(root)}")
        return cls()

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({}))
