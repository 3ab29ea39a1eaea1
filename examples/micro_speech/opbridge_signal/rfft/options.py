"""SignalRfft's custom options: the flexbuffer map TFLM's RfftInit reads."""

import dataclasses
from typing import Any

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import reject_unexpected_keys

# TFLite's TensorType code for int16 (schema TensorType.INT16), TFLM's 'T'.
TENSOR_TYPE_INT16 = 7


def _int_option(values: dict[str, Any], key: str) -> int:
    if key not in values:
        raise ValueError(f"SignalRfft options lack the key {key!r}")
    value = values[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"SignalRfft option {key!r} must be an integer, got {type(value).__name__}")
    return value


@dataclasses.dataclass(frozen=True)
class RfftOptions:
    """Options of TFLM's SignalRfft."""

    # Number of real samples the FFT transforms (input frames are zero-padded to it).
    fft_length: int
    # TFLite TensorType code of the input and output ('T'); only int16 (7) is implemented.
    tensor_type: int = TENSOR_TYPE_INT16

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "RfftOptions":
        try:
            values = flexbuffers.Loads(bytes(data))
        except Exception as error:  # flexbuffers raises assorted errors on malformed bytes
            raise ValueError(f"SignalRfft options are not a flexbuffer: {error}") from error
        if not isinstance(values, dict):
            raise ValueError("SignalRfft options must be a flexbuffer map")
        reject_unexpected_keys("SignalRfft", values, {"fft_length", "T"})
        return cls(fft_length=_int_option(values, "fft_length"), tensor_type=_int_option(values, "T"))

    def to_flexbuffer(self) -> bytes:
        # TFLM reads 'fft_length' by position (index 1 of the key-sorted map), 'T' by key.
        return bytes(flexbuffers.Dumps({"T": self.tensor_type, "fft_length": self.fft_length}))
