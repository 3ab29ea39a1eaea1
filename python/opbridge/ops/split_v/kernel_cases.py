# SPDX-License-Identifier: Apache-2.0
"""SPLIT_V: the nodes of its per-kernel golden test (//cc/kernels:split_v_kernel_test).

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


def split_v(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SPLIT_V into 1 to 3 parts of drawn sizes, one written -1 on variant 1."""
    sizes = [int(size) for size in rng.integers(1, 3, size=int(rng.integers(1, 3, endpoint=True)), endpoint=True)]
    shape = list(draw_shape(rng, 1, 4, 3))
    axis = int(rng.integers(-len(shape), len(shape)))
    shape[axis] = sum(sizes)
    if variant == 1:
        sizes[int(rng.integers(len(sizes)))] = -1
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, tuple(shape), quantization),
        int32_constant("size_splits", sizes),
        int32_constant("axis", [axis]),
    ]
    return NodeSpec(inputs, attributes("SPLIT_V", num_splits=len(sizes)), quantization)


CASES = {
    "SPLIT_V": KernelCases(split_v),
}
