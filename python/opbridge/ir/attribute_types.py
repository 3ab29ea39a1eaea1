# SPDX-License-Identifier: Apache-2.0
"""Value types of operator attributes (fused activations, padding, requantization modes) and TFLite's
window arithmetic, which the schemas' shape rules and the references share."""

import dataclasses
import enum


class Activation(enum.Enum):
    """Fused activations (TFLite's ActivationFunctionType)."""

    NONE = 0
    RELU = 1
    RELU_N1_TO_1 = 2
    RELU6 = 3


class Padding(enum.Enum):
    SAME = 0
    VALID = 1


class Requantization(enum.Enum):
    """How an int8 kernel scales its int32 accumulator to the int8 output.

    TFLITE: TFLite's fixed-point multiplier and shift (a doubling high
    multiply, then a rounding shift; halves away from zero), bit-exact with
    TFLite Micro. ONNX: one float32 scale per output channel,
    input_scale * filter_scale / output_scale in float32, a float32
    multiply, saturation, then rounding halves to even, as ONNX's QLinearConv
    and QLinearMatMul define it and onnxruntime computes it. Models imported
    from LiteRT use TFLITE, models imported from ONNX use ONNX.
    """

    TFLITE = "tflite"
    ONNX = "onnx"


@dataclasses.dataclass(frozen=True)
class Window:
    """Output size and leading padding of one spatial dimension."""

    output_size: int
    padding_before: int


def window(padding: Padding, input_size: int, filter_size: int, stride: int, dilation: int = 1) -> Window:
    """TFLite's ComputePaddingHeightWidth for one dimension."""
    effective_filter = (filter_size - 1) * dilation + 1
    if padding is Padding.SAME:
        output_size = (input_size + stride - 1) // stride
    else:
        output_size = (input_size - effective_filter + stride) // stride
    total_padding = max(0, (output_size - 1) * stride + effective_filter - input_size)
    return Window(output_size=output_size, padding_before=total_padding // 2)
