"""SignalFftAutoScale's custom options: TFLM reads none (the model stores an empty map)."""

import dataclasses

from flatbuffers import flexbuffers


@dataclasses.dataclass(frozen=True)
class FftAutoScaleOptions:
    """Options of TFLM's SignalFftAutoScale: there are none."""

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "FftAutoScaleOptions":
        if not data:
            return cls()
        try:
            values = flexbuffers.Loads(bytes(data))
        except Exception as error:  # flexbuffers raises assorted errors on malformed bytes
            raise ValueError(f"SignalFftAutoScale options are not a flexbuffer: {error}") from error
        if not isinstance(values, dict):
            raise ValueError("SignalFftAutoScale options must be a flexbuffer map")
        return cls()

    def to_flexbuffer(self) -> bytes:
        return bytes(flexbuffers.Dumps({}))
