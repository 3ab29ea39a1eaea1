# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation, Padding, Requantization


@dataclasses.dataclass(frozen=True)
class DepthwiseConv2DAttributes:
    padding: Padding = Padding.SAME
    # (top, bottom, left, right) input positions of padding, replacing `padding` when given: a PAD before
    # the convolution folded into it (passes/pad_folding.py); the kernels take any leading padding.
    explicit_padding: tuple[int, ...] = ()
    stride_height: int = 1
    stride_width: int = 1
    dilation_height: int = 1
    dilation_width: int = 1
    depth_multiplier: int = 1
    activation: Activation = Activation.NONE
    # int8 only: TFLite's fixed-point requantization, or ONNX's float32 scale (see Requantization).
    requantization: Requantization = Requantization.TFLITE
