# SPDX-License-Identifier: Apache-2.0
"""SPLIT: the nodes of its per-kernel golden test (//cc/kernels:split_kernel_test).

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


def split(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SPLIT into 1 to 3 equal parts along a drawn axis (negative on variant 1)."""
    parts = int(rng.integers(1, 3, endpoint=True))
    shape = list(draw_shape(rng, 1, 4, 3))
    position = int(rng.integers(len(shape)))
    shape[position] *= parts
    axis = position - (len(shape) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [int32_constant("axis", [axis]), TensorSpec("input", path.source, tuple(shape), quantization)]
    return NodeSpec(inputs, attributes("SPLIT", num_splits=parts), quantization)


CASES = {
    "SPLIT": KernelCases(split, data_input=1),
}
