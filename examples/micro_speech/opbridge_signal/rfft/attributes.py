# SPDX-License-Identifier: Apache-2.0
"""SignalRfft's attributes, decoded from the custom options flexbuffer map TFLM's RfftInit reads."""

import dataclasses

from flatbuffers import flexbuffers

from opbridge_signal.flexbuffer_options import int32_option, option_map, reject_unexpected_keys

# TFLite's TensorType code for int16 (schema TensorType.INT16), TFLM's 'T'.
TENSOR_TYPE_INT16 = 7


@dataclasses.dataclass(frozen=True)
class RfftAttributes:
    """Attributes of TFLM's SignalRfft."""

    # Number of real samples the FFT transforms (input frames are zero-padded to it).
    fft_length: int
    # TFLite TensorType code of the input and output ('T'); only int16 (7) is implemented.
    tensor_type: int = TENSOR_TYPE_INT16

    @classmethod
    def from_flexbuffer(cls, data: bytes) -> "RfftAttributes":
        values = option_map("SignalRfft", data)
        reject_unexpected_keys("SignalRfft", values, {"fft_length", "T"})
        return cls(
            fft_length=int32_option("SignalRfft", values, "fft_length"),
            tensor_type=int32_option("SignalRfft", values, "T"),
        )

    def to_flexbuffer(self) -> bytes:
        # TFLM reads 'fft_length' by position (index 1 of the key-sorted map), 'T' by key.
        return bytes(flexbuffers.Dumps({"T": self.tensor_type, "fft_length": self.fft_length}))
