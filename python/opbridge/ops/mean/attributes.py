# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Requantization


@dataclasses.dataclass(frozen=True)
class MeanAttributes:
    keep_dims: bool = False  # reduced axes stay, with size 1
    # int8 only: TFLite's fixed-point rescaling (1/count folded into the multiplier), or ONNX's: the centred
    # sum times one float32 scale, input_scale / (output_scale * count), as onnxruntime's
    # QLinearGlobalAveragePool computes it (see Requantization). SUM reuses this class (ops/sum) but takes
    # float32 only (its schema refuses int8), so the field has no effect there.
    requantization: Requantization = Requantization.TFLITE
