# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: reference implementation."""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.shared.quantized import require_quantization
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier, wrap_int32

# The range of each output type.
OUTPUT_RANGES = {
    DType.INT8: (-128, 127),
    DType.UINT8: (0, 255),
    DType.INT16: (-32768, 32767),
    DType.INT32: (-(2**31), 2**31 - 1),
}


def requantization_of(node: Node) -> Requantization:
    """The node's rounding; a node built without attributes gets the defaults (TFLite's)."""
    attributes = node.attributes if node.attributes is not None else QuantizeAttributes()
    return attributes.requantization


def output_quantization(node: Node, output: Tensor) -> Quantization:
    output_q = require_quantization(node, output, "output")
    if output_q.per_channel:
        raise UnsupportedTensorError(
            f"{node.describe()}: QUANTIZE to per-channel {output.describe()}", hint="TFLite supports one scale here"
        )
    return output_q


@dataclasses.dataclass(frozen=True)
class Requantize:
    """An integer input requantized (TFLite Micro's Requantize): output = clamp((input - input zero point)
    rescaled by multiplier and shift + output zero point, low, high), each sum wrapping in int32 as TFLite's
    int32 arithmetic does. The C emitter writes these fields into the kernel's parameters."""

    input_zero_point: int
    output_zero_point: int
    multiplier: int
    shift: int
    low: int
    high: int


def requantize_parameters(node: Node, input_tensor: Tensor, output: Tensor) -> Requantize:
    """The rescaling of an integer input: input scale / output scale as TFLite's QuantizeMultiplier (of the
    double quotient of the two float32 scales)."""
    input_q = require_quantization(node, input_tensor, "input")
    output_q = output_quantization(node, output)
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    if shift > 31:  # TFLite shifts the int32 input left by `shift` bits first; 32 or more leave nothing
        raise UnsupportedTensorError(
            f"{node.describe()}: the input scale {input_q.scale:g} over the output scale {output_q.scale:g} is "
            f"{input_q.scale / output_q.scale:g}, beyond the 2^31 QUANTIZE can rescale by",
            hint="quantize the output with a scale larger than the input scale / 2^31",
        )
    low, high = OUTPUT_RANGES[output.dtype]
    return Requantize(input_q.zero_point, output_q.zero_point, multiplier, shift, low, high)


def requantize(values: np.ndarray, parameters: Requantize) -> np.ndarray:
    """The requantized values, as int64 in [low, high]."""
    centred = wrap_int32(values.astype(np.int64) - parameters.input_zero_point)
    scaled = multiply_by_quantized_multiplier(centred, parameters.multiplier, parameters.shift)
    return np.clip(wrap_int32(scaled + parameters.output_zero_point), parameters.low, parameters.high)


@np.errstate(over="ignore", invalid="ignore")  # huge inputs overflow to inf and saturate, as in C
def quantize_reference(call: ReferenceCall) -> list[Array]:
    input_tensor, output = call.input_tensor(0), call.outputs[0]
    output_q = output_quantization(call.node, output)
    dtype = output.dtype
    values = call.value(0)
    if input_tensor.dtype is not DType.FLOAT32:
        return [requantize(values, requantize_parameters(call.node, input_tensor, output)).astype(dtype.numpy)]
    low, high = OUTPUT_RANGES[dtype]
    scaled = (values.astype(np.float32) / np.float32(output_q.scale)).astype(np.float32)
    if requantization_of(call.node) is Requantization.ONNX:
        # QuantizeLinear: saturate the quotient, round halves to even; NaN -> the zero point.
        low_f, high_f = np.float32(low - output_q.zero_point), np.float32(high - output_q.zero_point)
        saturated = np.clip(np.nan_to_num(scaled, nan=0.0, posinf=high_f, neginf=low_f), low_f, high_f)
        return [(np.rint(saturated).astype(np.int64) + output_q.zero_point).astype(dtype.numpy)]
    # TFLite: std::round (halves away from zero); anything beyond twice the type's span saturates
    # the same way (the C kernel saturates in float before converting; NaN -> 0).
    span = 4 * (high + 1)
    rounded = np.sign(scaled) * np.floor(np.abs(scaled).astype(np.float64) + 0.5)
    rounded = np.clip(np.nan_to_num(rounded), -span, span).astype(np.int64)
    return [np.clip(rounded + output_q.zero_point, low, high).astype(dtype.numpy)]
