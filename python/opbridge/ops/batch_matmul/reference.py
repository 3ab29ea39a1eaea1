# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's BATCH_MATMUL (reference_ops::BatchMatMul), float32, int8 and int16.

lhs [..., M, K] (stored [..., K, M] with adj_x) times rhs [..., K, N] (stored [..., N, K] with adj_y) gives
[..., M, N]. Ranks 2 to 5; the batch dimensions broadcast as NumPy's (right-aligned, equal or 1), the output
has the larger rank. Each output sums k = 0, 1, ... in order:

- float32: total = 0, then total += lhs * rhs, each step rounded to float32 (no fused multiply-add).
- int8: sum of (lhs - lhs zero point) * (rhs - rhs zero point) in int32, rescaled by lhs scale * rhs scale
  (a float32 product) / output scale (in double), plus the output zero point, clamped to [-128, 127].
- int16: zero points 0 (TFLite Micro refuses others), the sum in int64 and TFLite's 64-bit
  MultiplyByQuantizedMultiplier (the multiplier reduced to 16 bits), clamped to [-32768, 32767].

TFLite Micro also flattens the batch (ReshapeToFlattenBatchDimsIfPossible) and transposes operands in memory;
neither changes a result. Per-channel quantization is refused: TFLite Micro reads one scale per tensor.
"""

import dataclasses
import math

import numpy as np

from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.quantization.fixed_point import (
    multiply_by_quantized_multiplier,
    multiply_by_quantized_multiplier_int64,
    quantize_multiplier,
    wrap_int32,
)

BATCH_MATMUL_DTYPES = (DType.INT8, DType.INT16, DType.FLOAT32)
MIN_RANK, MAX_RANK = 2, 5
RANGES = {DType.INT8: (-128, 127), DType.INT16: (-32768, 32767)}


def batch_matmul_shape(lhs: tuple[int, ...], rhs: tuple[int, ...], adj_x: bool, adj_y: bool) -> tuple[int, ...]:
    """The output shape, or ValueError saying which dimension (and option) does not fit."""
    for role, shape in (("lhs", lhs), ("rhs", rhs)):
        if not MIN_RANK <= len(shape) <= MAX_RANK:
            raise ValueError(f"the {role} has rank {len(shape)}; TFLite Micro takes ranks {MIN_RANK} to {MAX_RANK}")
    rank = max(len(lhs), len(rhs))
    lhs_batch = (1,) * (rank - len(lhs)) + lhs[:-2]
    rhs_batch = (1,) * (rank - len(rhs)) + rhs[:-2]
    batch = []
    for axis, (a, b) in enumerate(zip(lhs_batch, rhs_batch, strict=True)):
        if a != b and a != 1 and b != 1:
            raise ValueError(f"batch dimension {axis} of the output: lhs {a} and rhs {b} do not broadcast")
        batch.append(b if a == 1 else a)
    rows, lhs_depth = (lhs[-1], lhs[-2]) if adj_x else (lhs[-2], lhs[-1])
    rhs_depth, cols = (rhs[-1], rhs[-2]) if adj_y else (rhs[-2], rhs[-1])
    if lhs_depth != rhs_depth:
        raise ValueError(
            f"the lhs's depth {lhs_depth} (adj_x={adj_x}) differs from the rhs's {rhs_depth} (adj_y={adj_y})"
        )
    return (*batch, rows, cols)


@dataclasses.dataclass(frozen=True)
class QuantizedParameters:
    lhs_zero_point: int
    rhs_zero_point: int
    output_zero_point: int
    multiplier: int
    shift: int


def check_batch_matmul(graph: Graph, node: Node) -> QuantizedParameters | None:
    """Checks what TFLite Micro's Prepare checks (typed errors naming the node); int8 and int16: the rescale."""
    lhs, rhs, output = (graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0]))
    for role, tensor in (("lhs", lhs), ("rhs", rhs), ("output", output)):
        if tensor.dtype not in BATCH_MATMUL_DTYPES or tensor.dtype is not lhs.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()}: BATCH_MATMUL takes float32, int8 or int16, the "
                "same for lhs, rhs and output",
                hint="TFLite Micro has no hybrid (float32 x int8) or int32-output BATCH_MATMUL",
            )
    attributes: BatchMatMulAttributes = node.attributes or BatchMatMulAttributes()
    try:
        shape = batch_matmul_shape(lhs.shape, rhs.shape, attributes.adj_x, attributes.adj_y)
    except ValueError as error:
        raise UnsupportedOperatorError(
            f"{node.describe()}: lhs {lhs.describe()}, rhs {rhs.describe()}: {error}",
            hint="TFLite Micro multiplies [..., M, K] by [..., K, N] with broadcast batch dimensions",
        ) from None
    if tuple(output.shape) != shape:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is not the product's shape {shape}",
            hint="the model's output shape disagrees with its inputs and adj_x/adj_y",
        )
    if lhs.dtype is DType.FLOAT32:
        return None
    quantizations: list[Quantization] = []
    for role, tensor in (("lhs", lhs), ("rhs", rhs), ("output", output)):
        q = tensor.quantization
        if q is None or q.per_channel:
            raise UnsupportedTensorError(
                f"{node.describe()}: {role} {tensor.describe()} needs per-tensor quantization, has {q}",
                hint="TFLite Micro's BATCH_MATMUL reads one scale and zero point per tensor",
            )
        if tensor.dtype is DType.INT16 and q.zero_point != 0:
            raise UnsupportedTensorError(
                f"{node.describe()}: int16 {role} {tensor.describe()} has zero point {q.zero_point}",
                hint="TFLite Micro's int16 BATCH_MATMUL requires zero points 0 (symmetric int16)",
            )
        quantizations.append(q)
    lhs_q, rhs_q, output_q = quantizations
    # GetQuantizedConvolutionMultipler: the scales' product in float32, divided in double.
    product = float(np.float32(lhs_q.scale) * np.float32(rhs_q.scale))
    multiplier, shift = quantize_multiplier(product / float(np.float32(output_q.scale)))
    return QuantizedParameters(lhs_q.zero_point, rhs_q.zero_point, output_q.zero_point, multiplier, shift)


def operands(lhs: Array, rhs: Array, attributes: BatchMatMulAttributes) -> tuple[Array, Array]:
    """lhs as [..., M, K] and rhs as [..., K, N], undoing adj_x and adj_y."""
    return (
        np.swapaxes(lhs, -1, -2) if attributes.adj_x else lhs,
        np.swapaxes(rhs, -1, -2) if attributes.adj_y else rhs,
    )


@np.errstate(all="ignore")  # overflow to inf and inf - inf = NaN, silently, as in C
def float32_batch_matmul(lhs: Array, rhs: Array) -> Array:
    """total += lhs[..., i, k] * rhs[..., k, j] for k = 0, 1, ..., each step in float32 (not np.matmul's order)."""
    shape = (*np.broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2]), lhs.shape[-2], rhs.shape[-1])
    total = np.zeros(shape, np.float32)
    for k in range(lhs.shape[-1]):
        total = total + lhs[..., :, k : k + 1] * rhs[..., k : k + 1, :]
    return total


def batch_matmul_reference(call: ReferenceCall) -> list[Array]:
    parameters = check_batch_matmul(call.graph, call.node)
    output = call.outputs[0]
    lhs, rhs = operands(call.value(0), call.value(1), call.attributes or BatchMatMulAttributes())
    if parameters is None:
        return [float32_batch_matmul(lhs.astype(np.float32), rhs.astype(np.float32)).reshape(output.shape)]
    p = parameters
    total = np.matmul(lhs.astype(np.int64) - p.lhs_zero_point, rhs.astype(np.int64) - p.rhs_zero_point)
    if output.dtype is DType.INT8:
        scaled = multiply_by_quantized_multiplier(wrap_int32(total), p.multiplier, p.shift)
    else:
        scaled = multiply_by_quantized_multiplier_int64(total, p.multiplier, p.shift)
    low, high = RANGES[output.dtype]
    return [np.clip(scaled + p.output_zero_point, low, high).astype(output.dtype.numpy).reshape(output.shape)]


def batch_matmul_macs(graph: Graph, node: Node, output_shape: tuple[int, ...]) -> int:
    """Each output element: a dot product over K (the lhs's last axis, its second last with adj_x)."""
    lhs = graph.tensor(node.inputs[0]).shape
    depth = lhs[-2] if node.attributes.adj_x else lhs[-1]
    return math.prod(output_shape) * depth
