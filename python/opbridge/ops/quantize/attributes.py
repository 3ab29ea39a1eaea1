# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir import DType
from opbridge.ir.attribute_types import Requantization


@dataclasses.dataclass(frozen=True)
class QuantizeAttributes:
    # float32 input: TFLITE divides and rounds halves away from zero (TFLite Micro's
    # AffineQuantize); ONNX divides, saturates and rounds halves to even (QuantizeLinear).
    # An int8 or int16 input is always requantized with TFLite's fixed-point multiplier.
    requantization: Requantization = Requantization.TFLITE
    # The output's type, int8 or int16 (TFLite's 16x8 quantization). In a LiteRT model it is
    # the output tensor's own type, which the LiteRT parser copies here (QuantizeOptions has
    # no field for it), so that the schema can infer the output dtype from the node alone.
    output_dtype: DType = DType.INT8
