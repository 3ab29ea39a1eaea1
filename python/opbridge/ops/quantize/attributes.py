# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir import DType
from opbridge.ir.attribute_types import Requantization


@dataclasses.dataclass(frozen=True)
class QuantizeAttributes:
    # float32 input: TFLITE divides and rounds halves away from zero (TFLite Micro's
    # AffineQuantize); ONNX divides, saturates and rounds halves to even (QuantizeLinear).
    # An integer input is always requantized with TFLite's fixed-point multiplier.
    requantization: Requantization = Requantization.TFLITE
    # The output's type (int8, int16, int32 or uint8: schema.QUANTIZE_PAIRS). In a LiteRT model it is
    # the output tensor's own type, which the LiteRT parser copies here (QuantizeOptions has
    # no field for it), so that the schema can infer the output dtype from the node alone.
    output_dtype: DType = DType.INT8
