# SPDX-License-Identifier: Apache-2.0
"""RESHAPE: the nodes of its per-kernel golden test (//cc/kernels:reshape_kernel_test).

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


def reshape(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """A reversed or flattened shape, as written with a -1 to infer (variant 1) or in full."""
    shape = draw_shape(rng, 1, 4)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    target = [int(np.prod(shape))] if rng.random() < 0.5 else list(reversed(shape))
    if variant == 1:
        target[int(rng.integers(len(target)))] = -1
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("shape", target)]
    return NodeSpec(inputs, None, quantization)


CASES = {
    "RESHAPE": KernelCases(reshape),
}
