# SPDX-License-Identifier: Apache-2.0
"""SignalWindow's attributes, decoded from the custom options flexbuffer map TFLM's WindowInit reads."""

import dataclasses

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import int32_option, option_map, reject_unexpected_keys


@dataclasses.dataclass(frozen=True)
class WindowAttributes:
    """Attributes of TFLM's SignalWindow."""

    # Right shift applied to each int32 product input * weight (weights are Q`shift`).
    shift: int

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "WindowAttributes":
        values = option_map("SignalWindow", data)
        reject_unexpected_keys("SignalWindow", values, {"shift"})
        return cls(shift=int32_option("SignalWindow", values, "shift"))

    def to_flexbuffer(self) -> bytes:
        # TFLM reads 'shift' by position: index 0 of the key-sorted map.
        return bytes(flexbuffers.Dumps({"shift": self.shift}))
