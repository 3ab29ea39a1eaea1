# SPDX-License-Identifier: Apache-2.0
"""L2_NORMALIZATION: the nodes of its per-kernel golden test (//cc/kernels:l2_normalization_kernel_test).

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

from opbridge.ir import DType, Quantization


def l2_normalization(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Rank 1 to 4; int8 writes TFLite's fixed output quantization (scale 1/128, zero point 0)."""
    shape = draw_shape(rng, 1, 4, 6)
    node_attributes = attributes("L2_NORMALIZATION")
    if path.source is DType.FLOAT32:
        return NodeSpec([TensorSpec("input", path.source, shape)], node_attributes)
    inputs = [TensorSpec("input", path.source, shape, per_tensor(rng))]
    return NodeSpec(inputs, node_attributes, Quantization((1.0 / 128.0,), (0,)))


CASES = {
    "L2_NORMALIZATION": KernelCases(l2_normalization),
}
