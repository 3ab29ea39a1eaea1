# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE: the nodes of its per-kernel golden test (//cc/kernels:transpose_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import (
    DTypePath,
    KernelCases,
    NodeSpec,
    TensorSpec,
    draw_shape,
    int32_constant,
    per_tensor,
)

from opbridge.ir import DType


def transpose(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = draw_shape(rng, 2 if variant == 0 else 1, 4, 4)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    perm = [int(axis) for axis in rng.permutation(len(shape))]
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("perm", perm)]
    return NodeSpec(inputs, None, quantization)


CASES = {
    "TRANSPOSE": KernelCases(transpose),
}
