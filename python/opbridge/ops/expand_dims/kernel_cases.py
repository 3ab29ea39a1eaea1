# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: the nodes of its per-kernel golden test (//cc/kernels:expand_dims_kernel_test).

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


def expand_dims(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """A 1 inserted at a drawn axis, counted from the front (variant 0) or from the end (negative)."""
    shape = draw_shape(rng, 1, 4)
    rank = len(shape)
    axis = int(rng.integers(0, rank + 1)) - ((rank + 1) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("axis", [axis])]
    return NodeSpec(inputs, None, quantization)


CASES = {
    "EXPAND_DIMS": KernelCases(expand_dims, int16=True),
}
