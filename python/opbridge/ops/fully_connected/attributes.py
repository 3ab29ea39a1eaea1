# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation, Requantization


@dataclasses.dataclass(frozen=True)
class FullyConnectedAttributes:
    activation: Activation = Activation.NONE
    keep_num_dims: bool = False
    # int8 only: TFLite's fixed-point requantization, or ONNX's float32 scale (see Requantization).
    requantization: Requantization = Requantization.TFLITE
