"""SignalWindow's custom options: the flexbuffer map TFLM's WindowInit reads."""

import dataclasses

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import reject_unexpected_keys


@dataclasses.dataclass(frozen=True)
class WindowOptions:
    """Options of TFLM's SignalWindow."""

    # Right shift applied to each int32 product input * weight (weights are Q`shift`).
    shift: int

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "WindowOptions":
        try:
            values = flexbuffers.Loads(bytes(data))
        except Exception as error:  # flexbuffers raises assorted errors on malformed bytes
            raise ValueError(f"SignalWindow options are not a flexbuffer: {error}") from error
        if not isinstance(values, dict):
            raise ValueError("SignalWindow options must be a flexbuffer map")
        reject_unexpected_keys("SignalWindow", values, {"shift"})
        if "shift" not in values:
            raise ValueError("SignalWindow options lack the key 'shift'")
        shift = values["shift"]
        if not isinstance(shift, int) or isinstance(shift, bool):
            raise ValueError(f"SignalWindow option 'shift' must be an integer, got {type(shift).__name__}")
        return cls(shift=shift)

    def to_flexbuffer(self) -> bytes:
        # TFLM reads 'shift' by position: index 0 of the key-sorted map.
        return bytes(flexbuffers.Dumps({"shift": self.shift}))
