# SPDX-License-Identifier: Apache-2.0
"""MEAN: reference implementation."""

import dataclasses

import numpy as np

from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import INT8_MAX, INT8_MIN, requantize_float_scale, require_quantization
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


@dataclasses.dataclass(frozen=True)
class MeanParameters:
    axes: tuple[int, ...]
    count: int
    multiplier: int
    shift: int


def mean_axes(graph: Graph, node: Node) -> tuple[tuple[int, ...], int]:
    """(the reduced axes, sorted, without repeats; the number of elements averaged into each output)."""
    input_tensor = graph.tensor(node.inputs[0])
    axes_tensor = graph.tensor(node.inputs[1])
    if axes_tensor.data is None:
        raise UnsupportedTensorError(f"{node.describe()}: the axes must be a constant", hint="fold them")
    rank = len(input_tensor.shape)
    axes = tuple(sorted({int(a) % rank for a in axes_tensor.data.ravel()})) if rank else ()
    return axes, int(np.prod([input_tensor.shape[a] for a in axes], dtype=np.int64))


def mean_parameters(graph: Graph, node: Node) -> MeanParameters:
    input_tensor = graph.tensor(node.inputs[0])
    axes, count = mean_axes(graph, node)
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, graph.tensor(node.outputs[0]), "output")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    # Fold 1/count into the multiplier, keeping as many bits as TFLite Micro does.
    bits = min(count.bit_length() - 1, 32, 31 + shift)
    return MeanParameters(axes, count, (multiplier << bits) // count, shift - bits)


def onnx_mean_scale(input_q: Quantization, output_q: Quantization, count: int) -> np.float32:
    """Requantization.ONNX's one float32 scale: input_scale / (output_scale * count), each step in float32,
    in onnxruntime's order (its QLinearGlobalAveragePool)."""
    return np.float32(input_q.scale) / (np.float32(output_q.scale) * np.float32(count))


def float32_mean_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    axes, count = mean_axes(call.graph, call.node)
    values = np.asarray(call.value(0), dtype=np.float32)
    kept = [axis for axis in range(values.ndim) if axis not in axes]
    # One row per output, its reduced elements in row-major order as the kernel visits them.
    rows = np.transpose(values, kept + list(axes)).reshape(-1, count)
    total = np.zeros(rows.shape[0], dtype=np.float32)
    with np.errstate(all="ignore"):
        for column in range(count):
            total = total + rows[:, column]
        return [(total / np.float32(count)).astype(np.float32).reshape(output.shape)]


def mean_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_mean_reference(call)
    p = mean_parameters(call.graph, call.node)
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    sums = call.value(0).astype(np.int64).sum(axis=p.axes)
    centred = sums - input_q.zero_point * p.count
    if call.attributes.requantization is Requantization.ONNX:
        scale = onnx_mean_scale(input_q, output_q, p.count)
        rescaled = requantize_float_scale(centred, np.array([scale], np.float32), output_q.zero_point)
        return [rescaled.astype(np.int8).reshape(output.shape)]
    scaled = multiply_by_quantized_multiplier(centred, p.multiplier, p.shift) + output_q.zero_point
    return [np.clip(scaled, INT8_MIN, INT8_MAX).astype(np.int8).reshape(output.shape)]
