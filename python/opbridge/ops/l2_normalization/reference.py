# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's L2_NORMALIZATION along the last axis, float32 and int8.

float32: per row, s = sum of x^2 in order (float32 steps), n = max(sqrtf(s), 1e-6f), output x / n.

int8: per row, with v = q - input zero point, s = sum of v^2 in int32; TFLite's GetInvSqrtQuantizedMultiplierExp(s)
(the fixed-point Newton-Raphson of the RSQRT op: opbridge.ops.rsqrt.reference.inv_sqrt_multiplier) gives 1/sqrt(s)
as a multiplier and shift, and each output is MultiplyByQuantizedMultiplier(v, multiplier, shift + 7) clamped to
[-128, 127]: the result is in units of 1/128 whatever the output tensor says. opbridge therefore requires the output
quantization TFLite's converter writes (scale 1/128, zero point 0) and refuses others, as TFLite's own kernel does;
the input scale plays no part. s <= 1 (an all-zero row) gives the multiplier INT32_MAX, shift 0.

TFLite Micro takes ranks up to 4 and the activation NONE only; others are refused naming the node.
"""

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Activation
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.l2_normalization.attributes import L2NormalizationAttributes
from opbridge.ops.rsqrt.reference import inv_sqrt_multiplier
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, wrap_int32

L2_NORMALIZATION_DTYPES = (DType.INT8, DType.FLOAT32)
MAX_RANK = 4
EPSILON = np.float32(1e-6)
OUTPUT_SHIFT = 7  # TFLite Micro's kOutputScale: outputs in units of 2^-7
OUTPUT_SCALE = 1.0 / 128.0


def check_l2_normalization(graph: Graph, node: Node) -> int:
    """The int8 input zero point (0 for float32), after TFLite Micro's checks; typed errors naming the node."""
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    for role, tensor in (("input", input_tensor), ("output", output)):
        if tensor.dtype not in L2_NORMALIZATION_DTYPES or tensor.dtype is not input_tensor.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: L2_NORMALIZATION takes int8 or float32, the same "
                "for input and output",
                hint="TFLite Micro's kernel takes these types only",
            )
    attributes: L2NormalizationAttributes = node.attributes or L2NormalizationAttributes()
    if attributes.activation is not Activation.NONE:
        raise UnsupportedOperatorError(
            f"{node.describe()}: fused activation {attributes.activation.name} is not supported",
            hint="TFLite Micro's L2_NORMALIZATION supports the activation NONE only; apply it as a separate operator",
        )
    if not 1 <= len(input_tensor.shape) <= MAX_RANK:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has rank {len(input_tensor.shape)}",
            hint=f"TFLite Micro's L2_NORMALIZATION takes ranks 1 to {MAX_RANK}",
        )
    if input_tensor.dtype is DType.FLOAT32:
        return 0
    input_q, output_q = input_tensor.quantization, output.quantization
    if input_q is None or input_q.per_channel:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} needs per-tensor quantization, has {input_q}",
            hint="quantize the model to int8",
        )
    if output_q is None or output_q.per_channel or output_q.zero_point != 0 or output_q.scale != OUTPUT_SCALE:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} has quantization {output_q}; int8 L2_NORMALIZATION "
            "writes scale 1/128, zero point 0",
            hint="TFLite Micro writes the result in units of 1/128 whatever the output says; use TFLite's converter's"
            " output quantization (scale 0.0078125, zero point 0)",
        )
    return input_q.zero_point


@np.errstate(all="ignore")  # overflow to inf and 0/0 = NaN, silently, as in C
def l2_normalization_float32(values: Array) -> Array:
    rows = values.reshape(-1, values.shape[-1]).astype(np.float32)
    total = np.zeros(rows.shape[0], np.float32)
    for c in range(rows.shape[1]):
        total = total + rows[:, c] * rows[:, c]
    norm = np.sqrt(total)
    norm = np.where(norm < EPSILON, EPSILON, norm)  # std::max(norm, epsilon): NaN stays NaN
    return (rows / norm[:, None]).reshape(values.shape)


def l2_normalization_int8(values: Array, zero_point: int) -> Array:
    rows = values.reshape(-1, values.shape[-1]).astype(np.int64) - zero_point
    sums = wrap_int32(np.sum(rows * rows, axis=1))
    output = np.empty(rows.shape, np.int8)
    for r, total in enumerate(sums):
        multiplier, shift = inv_sqrt_multiplier(int(total))
        scaled = multiply_by_quantized_multiplier(rows[r], multiplier, shift + OUTPUT_SHIFT)
        output[r] = np.clip(scaled, -128, 127)
    return output.reshape(values.shape)


def l2_normalization_reference(call: ReferenceCall) -> list[Array]:
    zero_point = check_l2_normalization(call.graph, call.node)
    output = call.outputs[0]
    values = np.asarray(call.value(0))
    if output.dtype is DType.FLOAT32:
        return [l2_normalization_float32(values).reshape(output.shape)]
    return [l2_normalization_int8(values, zero_point).reshape(output.shape)]
