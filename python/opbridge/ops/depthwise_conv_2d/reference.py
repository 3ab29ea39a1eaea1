# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference DEPTHWISE_CONV_2D: int8 per-channel (DepthwiseConvPerChannel) and float32."""

import numpy as np

from opbridge.ir import DType
from opbridge.ops.conv_2d.reference import convolution_float32, extract_patches, requantize_convolution
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.quantized import activation_range, require_quantization


def depthwise_conv_2d_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return convolution_float32(call, depthwise=True)
    input_tensor = call.input_tensor(0)
    filter_tensor = call.input_tensor(1)
    bias_tensor = call.optional_input_tensor(2)
    output = call.outputs[0]
    input_q = require_quantization(call.node, input_tensor, "input")
    filter_q = require_quantization(call.node, filter_tensor, "filter")
    output_q = require_quantization(call.node, output, "output")

    _, filter_height, filter_width, out_channels = filter_tensor.shape
    in_channels = input_tensor.shape[3]
    # The model's depth_multiplier option is advisory; the shapes decide (as in TFLite Micro).
    multiplier = out_channels // in_channels
    values = call.value(0).astype(np.int64)
    patches, _, _ = extract_patches(values, filter_height, filter_width, call.attributes, input_q.zero_point)
    # Output channel c = input channel c // multiplier, filter column c.
    patches = np.repeat(patches - input_q.zero_point, multiplier, axis=-1)  # [..., f_h, f_w, out_channels]
    weights = call.value(1).astype(np.int64).reshape(filter_height, filter_width, out_channels)
    accumulators = np.einsum("byxhwc,hwc->byxc", patches, weights)
    if bias_tensor is not None:
        accumulators = accumulators + call.value(2).astype(np.int64)
    scaled = requantize_convolution(accumulators, call.attributes, input_q, filter_q, output_q, out_channels)
    low, high = activation_range(call.attributes.activation, output_q)
    return [np.clip(scaled, low, high).astype(np.int8).reshape(output.shape)]
