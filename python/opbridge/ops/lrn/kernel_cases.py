# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION: the nodes of its per-kernel golden test
(//cc/kernels:local_response_normalization_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import DTypePath, KernelCases, NodeSpec, TensorSpec, attributes, draw_shape


def local_response_normalization(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Rank 1 to 4, windows of up to 4 channels on each side (wider than the axis included), AlexNet's
    coefficients or drawn ones."""
    shape = (*draw_shape(rng, 0, 3, 4), int(rng.integers(1, 16, endpoint=True)))
    node_attributes = attributes(
        "LOCAL_RESPONSE_NORMALIZATION",
        radius_before=int(rng.integers(0, 4, endpoint=True)),
        radius_after=int(rng.integers(0, 4, endpoint=True)),
        bias=float(np.float32(rng.choice([1.0, 2.0, 0.5]))),
        alpha=float(np.float32(rng.choice([1e-4 / 5, 1e-2, 0.5]))),
        beta=float(np.float32(rng.choice([0.75, 0.5, 1.0]))),
    )
    return NodeSpec([TensorSpec("input", path.source, shape)], node_attributes)


CASES = {
    "LOCAL_RESPONSE_NORMALIZATION": KernelCases(local_response_normalization),
}
