# SPDX-License-Identifier: Apache-2.0
"""REDUCE_MAX: the nodes of its per-kernel golden test (//cc/kernels:reduce_max_kernel_test).

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
    int32_constant,
    per_tensor,
)

from opbridge.ir import DType


def reduce_max(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """REDUCE_MAX over drawn axes (some negative, some repeated), kept (variant 0) or dropped; int8 with one
    quantization on input and output (TFLite Micro refuses any other)."""
    shape = draw_shape(rng, 1, 4, 6)
    rank = len(shape)
    axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    quantization = per_tensor(rng, 0.01, 0.5) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("axes", axes)]
    return NodeSpec(inputs, attributes("REDUCE_MAX", keep_dims=variant == 0), quantization)


CASES = {
    "REDUCE_MAX": KernelCases(reduce_max),
}
