"""SignalWindow's custom options: the flexbuffer map TFLM's WindowInit reads."""

import dataclasses

from flatbuffers import flexbuffers


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
        _reject_unexpected_keys(values, {"shift"})
        if "shift" not in values:
            raise ValueError("SignalWindow options lack the key 'shift'")
        shift = values["shift"]
        if not isinstance(shift, int) or isinstance(shift, bool):
            raise ValueError(f"SignalWindow option 'shift' must be an integer, got {type(shift).__name__}")
        return cls(shift=shift)

    def to_flexbuffer(self) -> bytes:
        # TFLM reads 'shift' by position: index 0 of the key-sorted map.
        return bytes(flexbuffers.Dumps({"shift": self.shift}))


def _reject_unexpected_keys(values: dict[str, object], expected: set[str]) -> None:
    # TFLM reads these options by position in the key-sorted map, so an extra
    # key would shift what TFLM sees while opbridge reads by name.
    unexpected = sorted(set(values) - expected)
    if unexpected:
        raise ValueError(f"SignalWindow options have unexpected key(s) {unexpected}; expected {sorted(expected)}")
