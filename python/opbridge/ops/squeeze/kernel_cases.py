# SPDX-License-Identifier: Apache-2.0
"""SQUEEZE: the nodes of its per-kernel golden test (//cc/kernels:squeeze_kernel_test).

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
)

from opbridge.ir import DType


def squeeze(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Size-1 dimensions named (variant 0, some negative) or all of them (no dimension named)."""
    base = draw_shape(rng, 1, 3)
    shape = tuple(d for size in base for d in ((size, 1) if rng.random() < 0.5 else (size,)))
    ones = [axis for axis, size in enumerate(shape) if size == 1]
    chosen = [axis for axis in ones if rng.random() < 0.7] if variant == 0 else []
    squeeze_dims = tuple(axis - len(shape) if rng.random() < 0.5 else axis for axis in chosen)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization)]
    return NodeSpec(inputs, attributes("SQUEEZE", squeeze_dims=squeeze_dims), quantization)


CASES = {
    "SQUEEZE": KernelCases(squeeze),
}
