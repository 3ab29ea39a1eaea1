# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Requantization


@dataclasses.dataclass(frozen=True)
class QuantizeAttributes:
    # float32 input: TFLITE divides and rounds halves away from zero (TFLite Micro's
    # AffineQuantize); ONNX divides, saturates and rounds halves to even (QuantizeLinear).
    # An int8 input is always requantized with TFLite's fixed-point multiplier.
    requantization: Requantization = Requantization.TFLITE
