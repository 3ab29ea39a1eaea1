# SPDX-License-Identifier: Apache-2.0
"""BATCH_MATMUL: the nodes of its per-kernel golden test (//cc/kernels:batch_matmul_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import (
    DTypePath,
    KernelCases,
    NodeSpec,
    TensorSpec,
    attributes,
    draw_shape,
    per_tensor,
    symmetric_filter,
    values,
)

from opbridge.ir import DType, Quantization


def batch_matmul(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """lhs times a constant rhs (variant 0; int8: symmetric, as TFLite's converter writes weights) or a run-time
    one, with drawn adj_x, adj_y and batch dimensions that each operand keeps or broadcasts."""
    dtype = path.source
    adj_x, adj_y = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
    rows, depth, cols = (int(v) for v in rng.integers(2, 5, size=3, endpoint=True))
    batch = draw_shape(rng, 0, 2, 3)
    lhs_batch = tuple(1 if rng.random() < 0.3 else d for d in batch)
    rhs_batch = tuple(1 if rng.random() < 0.3 else d for d in batch[int(rng.integers(0, len(batch), endpoint=True)) :])
    lhs_shape = (*lhs_batch, *((depth, rows) if adj_x else (rows, depth)))
    rhs_shape = (*rhs_batch, *((cols, depth) if adj_y else (depth, cols)))
    node_attributes = attributes("BATCH_MATMUL", adj_x=adj_x, adj_y=adj_y)
    constant = variant == 0
    if dtype is DType.FLOAT32:
        rhs_data = values(rng, dtype, rhs_shape) if constant else None
        inputs = [TensorSpec("lhs", dtype, lhs_shape), TensorSpec("rhs", dtype, rhs_shape, data=rhs_data)]
        return NodeSpec(inputs, node_attributes)
    lhs_q = per_tensor(rng)
    rhs_q = symmetric_filter(rng, 1, 0, per_channel=False) if constant else per_tensor(rng)
    rhs_data = rng.integers(-127, 127, size=rhs_shape, endpoint=True).astype(np.int8) if constant else None
    output_scale = float(np.float32(lhs_q.scale * rhs_q.scale * depth * rng.uniform(2.0, 40.0)))
    output_q = Quantization((output_scale,), (int(rng.integers(-20, 20, endpoint=True)),))
    inputs = [TensorSpec("lhs", dtype, lhs_shape, lhs_q), TensorSpec("rhs", dtype, rhs_shape, rhs_q, rhs_data)]
    return NodeSpec(inputs, node_attributes, output_q)


CASES = {
    "BATCH_MATMUL": KernelCases(batch_matmul),
}
