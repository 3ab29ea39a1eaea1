# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation, Padding, Requantization


@dataclasses.dataclass(frozen=True)
class Conv2DAttributes:
    padding: Padding = Padding.SAME
    stride_height: int = 1
    stride_width: int = 1
    dilation_height: int = 1
    dilation_width: int = 1
    activation: Activation = Activation.NONE
    # int8 only: TFLite's fixed-point requantization, or ONNX's float32 scale (see Requantization).
    requantization: Requantization = Requantization.TFLITE
