# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: reference implementation."""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node, Quantization, Tensor
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.quantize.attributes import QuantizeAttributes
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, requantize, require_quantization
from opbridge.quantization.fixed_point import quantize_multiplier


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
    values = call.value(0)
    if input_tensor.dtype is DType.FLOAT32:
        scaled = (values.astype(np.float32) / np.float32(output_q.scale)).astype(np.float32)
        if requantization_of(call.node) is Requantization.ONNX:
            # QuantizeLinear: saturate the quotient, round halves to even; NaN -> the zero point.
            low, high = np.float32(INT8_MIN - output_q.zero_point), np.float32(INT8_MAX - output_q.zero_point)
            saturated = np.clip(np.nan_to_num(scaled, nan=0.0, posinf=high, neginf=low), low, high)
            return [(np.rint(saturated).astype(np.int64) + output_q.zero_point).astype(np.int8)]
        # TFLite: std::round (halves away from zero).
        rounded = np.sign(scaled) * np.floor(np.abs(scaled).astype(np.float64) + 0.5)
        rounded = np.clip(np.nan_to_num(rounded), -512, 512).astype(np.int64)
        return [np.clip(rounded + output_q.zero_point, INT8_MIN, INT8_MAX).astype(np.int8)]
    input_q = require_quantization(call.node, input_tensor, "input")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    return [requantize(values, input_q.zero_point, multiplier, shift, output_q.zero_point)]
