"""SignalFilterBankSquareRoot's custom options: none (TFLM never reads them; the scale is an input tensor)."""

import dataclasses
from typing import Self

from flatbuffers import flexbuffers

CUSTOM_CODE = "SignalFilterBankSquareRoot"


@dataclasses.dataclass(frozen=True)
class FilterBankSquareRootOptions:
    @classmethod
    def from_flexbuffer(cls, data: bytes) -> Self:
        """Accepts no options or an empty map, as the converter writes; any key would be one TFLM ignores."""
        if not data:
            return cls()
        try:
            root = flexbuffers.Loads(bytes(data))
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise ValueError(f"{CUSTOM_CODE}: custom options are not a flexbuffer: {error}") from error
        if not isinstance(root, dict):
            raise ValueError(f"{CUSTOM_CODE}: custom options must be a flexbuffer map, got {type(root).__name__}")
        if root:
            raise ValueError(f"{CUSTOM_CODE}: takes no options, got key(s) {sorted(root)}")
        return cls()

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({}))
