# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: reference implementation."""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.shared.quantized import require_quantization
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier

# The range of each output type.
OUTPUT_RANGES = {DType.INT8: (-128, 127), DType.INT16: (-32768, 32767)}


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


@np.errstate(over="ignore", invalid="ignore")  # huge inputs overflow to inf and saturate, as in C
def quantize_reference(call: ReferenceCall) -> list[Array]:
    input_tensor, output = call.input_tensor(0), call.outputs[0]
    output_q = output_quantization(call.node, output)
    dtype = output.dtype
    low, high = OUTPUT_RANGES[dtype]
    values = call.value(0)
    if input_tensor.dtype is DType.FLOAT32:
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
    # TFLite Micro's Requantize: (q - input zero point) rescaled by input scale / output scale
    # (QuantizeMultiplier of the double quotient), plus the output zero point, saturated.
    input_q = require_quantization(call.node, input_tensor, "input")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    centred = values.astype(np.int64) - input_q.zero_point
    scaled = multiply_by_quantized_multiplier(centred, multiplier, shift) + output_q.zero_point
    return [np.clip(scaled, low, high).astype(dtype.numpy)]
