# SPDX-License-Identifier: Apache-2.0
"""UNPACK: the nodes of its per-kernel golden test (//cc/kernels:unpack_kernel_test).

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


def unpack(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """UNPACK along a drawn axis (negative on variant 1) of size 1 to 3."""
    shape = draw_shape(rng, 1, 4, 3)
    position = int(rng.integers(len(shape)))
    axis = position - (len(shape) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec("input", path.source, shape, quantization)]
    return NodeSpec(inputs, attributes("UNPACK", num=shape[position], axis=axis), quantization)


CASES = {
    "UNPACK": KernelCases(unpack),
}
