# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy's attributes, decoded from the custom options flexbuffer map TFLM's EnergyInit reads."""

import dataclasses

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import int32_option, option_map, reject_unexpected_keys


@dataclasses.dataclass(frozen=True)
class EnergyAttributes:
    """Attributes of TFLM's SignalEnergy: the bins [start_index, end_index) it computes."""

    start_index: int
    end_index: int

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "EnergyAttributes":
        values = option_map("SignalEnergy", data)
        reject_unexpected_keys("SignalEnergy", values, {"start_index", "end_index"})
        return cls(
            start_index=int32_option("SignalEnergy", values, "start_index"),
            end_index=int32_option("SignalEnergy", values, "end_index"),
        )

    def to_flexbuffer(self) -> bytes:
        # TFLM reads both by position in the key-sorted map: 'end_index' is 0, 'start_index' is 1.
        return bytes(flexbuffers.Dumps({"end_index": self.end_index, "start_index": self.start_index}))
