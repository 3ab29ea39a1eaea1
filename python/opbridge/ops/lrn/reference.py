# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION along the last axis, float32, rounded step by step as the C kernel.

Per element x_c of a row of the last axis: sum = 0 + x_i * x_i + ... over the window's channels
i = max(0, c - radius_before) .. min(depth - 1, c + radius_after) in ascending order, then
scale = bias + alpha * sum, factor = scale^-beta and the output x_c * factor; each step one float32
rounding (the C kernel is compiled without fused multiply-adds). The power is taken in float64 and
rounded once to float32: libm's powf is within an ulp or two of it. This is TFLite's
LocalResponseNormalization (input * pow(bias + alpha * sum, -beta)); ONNX's LRN converts onto it
with alpha / size (ops/lrn/onnx.py).
"""

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Graph, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.lrn.attributes import LocalResponseNormalizationAttributes
from opbridge.ops.shared.float32 import require_float32


def check_local_response_normalization(graph: Graph, node: Node) -> LocalResponseNormalizationAttributes:
    """The node's attributes, after the checks the kernel needs; typed errors naming the node."""
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    attributes: LocalResponseNormalizationAttributes = node.attributes or LocalResponseNormalizationAttributes()
    if not input_tensor.shape:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} is a scalar; the window runs along the last axis",
            hint="reshape it to at least [1]",
        )
    if input_tensor.shape[-1] == 0:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has no channels on its last axis, "
            "along which the window runs",
            hint="give the last axis at least one channel",
        )
    if attributes.radius_before < 0 or attributes.radius_after < 0:
        raise UnsupportedTensorError(
            f"{node.describe()}: radius_before {attributes.radius_before} and radius_after "
            f"{attributes.radius_after} must not be negative",
            hint="give the channels before and after each channel in its window",
        )
    return attributes


def window_sums(squares: Array, before: int, after: int) -> Array:
    """Each element's sum of squares over its window, added in ascending channel order from 0.0 (a
    channel outside the axis adds +0.0, which changes no sum of squares)."""
    depth = squares.shape[-1]
    total = np.zeros(squares.shape, np.float32)
    padded = np.concatenate(
        [
            np.zeros((*squares.shape[:-1], before), np.float32),
            squares,
            np.zeros((*squares.shape[:-1], after), np.float32),
        ],
        axis=-1,
    )
    for offset in range(before + after + 1):
        total = total + padded[..., offset : offset + depth]
    return total


@np.errstate(all="ignore")  # overflow to inf and NaN, silently, as in C
def local_response_normalization_float32(values: Array, attributes: LocalResponseNormalizationAttributes) -> Array:
    x = np.asarray(values, np.float32)
    total = window_sums(x * x, attributes.radius_before, attributes.radius_after)
    scale = np.float32(attributes.bias) + np.float32(attributes.alpha) * total
    factor = np.power(scale.astype(np.float64), -np.float64(np.float32(attributes.beta))).astype(np.float32)
    return (x * factor).astype(np.float32)


def local_response_normalization_reference(call: ReferenceCall) -> list[Array]:
    attributes = check_local_response_normalization(call.graph, call.node)
    output = call.outputs[0]
    return [local_response_normalization_float32(call.value(0), attributes).reshape(output.shape)]


def local_response_normalization_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Per output element: the squares of its window's channels (clipped to the axis), alpha times
    their sum, and x times the factor."""
    a: LocalResponseNormalizationAttributes = node.attributes or LocalResponseNormalizationAttributes()
    depth = output_shape[-1]
    rows = int(np.prod(output_shape[:-1], dtype=np.int64))
    per_row = sum(min(depth - 1, c + a.radius_after) - max(0, c - a.radius_before) + 1 + 2 for c in range(depth))
    return rows * per_row
