# SPDX-License-Identifier: Apache-2.0
"""Value types of operator attributes (fused activations, padding, requantization modes) and TFLite's
window arithmetic, which the schemas' shape rules and the references share."""

import dataclasses
import enum
from typing import Any


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


# Padding along one axis: TFLite's SAME or VALID, or explicit (before, after) amounts (a PAD folded into a
# convolution, passes/pad_folding.py).
AxisPadding = Padding | tuple[int, int]


def window(padding: AxisPadding, input_size: int, filter_size: int, stride: int, dilation: int = 1) -> Window:
    """TFLite's ComputePaddingHeightWidth for one dimension; explicit (before, after) padding reads
    `before` positions of padding ahead of the input and as many windows as fit in the padded input."""
    effective_filter = (filter_size - 1) * dilation + 1
    if isinstance(padding, tuple):
        before, after = padding
        return Window(output_size=(input_size + before + after - effective_filter) // stride + 1, padding_before=before)
    if padding is Padding.SAME:
        output_size = (input_size + stride - 1) // stride
    else:
        output_size = (input_size - effective_filter + stride) // stride
    total_padding = max(0, (output_size - 1) * stride + effective_filter - input_size)
    return Window(output_size=output_size, padding_before=total_padding // 2)


def axis_padding(attributes: object, axis: int) -> AxisPadding:
    """The padding of a windowed op along NHWC axis 1 (rows) or 2 (columns): its `explicit_padding`
    (top, bottom, left, right) when set, else its `padding`."""
    explicit = tuple(getattr(attributes, "explicit_padding", ()))
    if explicit:
        return (explicit[0], explicit[1]) if axis == 1 else (explicit[2], explicit[3])
    return attributes.padding  # type: ignore[attr-defined,no-any-return]


def padding_name(padding: AxisPadding) -> str:
    """SAME, VALID, or the explicit amounts, for messages."""
    return padding.name if isinstance(padding, Padding) else f"explicit {padding[0]}+{padding[1]}"


def spatial_windows(
    attributes: object, height: int, width: int, filter_height: int, filter_width: int
) -> tuple[Window, Window]:
    """The row and column windows of a convolution (attributes with padding, explicit_padding, strides and
    dilations) over an input of `height` x `width`."""
    a: Any = attributes
    rows = window(axis_padding(a, 1), height, filter_height, a.stride_height, a.dilation_height)
    return rows, window(axis_padding(a, 2), width, filter_width, a.stride_width, a.dilation_width)
