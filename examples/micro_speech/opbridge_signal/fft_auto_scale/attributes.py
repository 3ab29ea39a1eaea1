# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale's attributes: none; TFLM reads no custom option (the model stores an empty map)."""

import dataclasses

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import option_map


@dataclasses.dataclass(frozen=True)
class FftAutoScaleAttributes:
    """Attributes of TFLM's SignalFftAutoScale: there are none."""

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "FftAutoScaleAttributes":
        if not data:
            return cls()
        option_map("SignalFftAutoScale", data)  # must still be a map; TFLM reads no key of it
        return cls()

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({}))
