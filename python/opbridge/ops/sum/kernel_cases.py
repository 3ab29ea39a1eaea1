# SPDX-License-Identifier: Apache-2.0
"""SUM: the nodes of its per-kernel golden test (//cc/kernels:sum_kernel_test).

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
)


def sum_reduction(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SUM over drawn axes (some negative, some repeated), kept (variant 0) or dropped."""
    shape = draw_shape(rng, 1, 4, 6)
    rank = len(shape)
    axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    inputs = [TensorSpec("input", path.source, shape), int32_constant("axes", axes)]
    return NodeSpec(inputs, attributes("SUM", keep_dims=variant == 0))


CASES = {
    "SUM": KernelCases(sum_reduction),
}
