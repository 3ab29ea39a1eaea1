# SPDX-License-Identifier: Apache-2.0
"""STRIDED_SLICE: the nodes of its per-kernel golden test (//cc/kernels:strided_slice_kernel_test).

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


def strided_slice(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Begins, ends and strides of both signs, masks, and (variant 1) a shrunk axis."""
    shape = draw_shape(rng, 1, 4, 6)
    begins, ends, strides = [], [], []
    begin_mask = end_mask = shrink_mask = 0
    shrunk = int(rng.integers(len(shape))) if variant == 1 else -1
    for axis, size in enumerate(shape):
        if axis == shrunk:
            shrink_mask |= 1 << axis
            begins.append(int(rng.integers(-size, size)))
            ends.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
            strides.append(int(rng.integers(1, 3, endpoint=True)))
            continue
        begins.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
        ends.append(int(rng.integers(-size - 2, size + 2, endpoint=True)))
        strides.append(int(rng.choice([-3, -2, -1, 1, 2, 3])))
        begin_mask |= int(rng.random() < 0.3) << axis
        end_mask |= int(rng.random() < 0.3) << axis
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, shape, quantization),
        int32_constant("begin", begins),
        int32_constant("end", ends),
        int32_constant("strides", strides),
    ]
    node_attributes = attributes(
        "STRIDED_SLICE", begin_mask=begin_mask, end_mask=end_mask, shrink_axis_mask=shrink_mask
    )
    return NodeSpec(inputs, node_attributes, quantization)


CASES = {
    "STRIDED_SLICE": KernelCases(strided_slice),
}
