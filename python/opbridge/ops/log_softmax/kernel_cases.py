# SPDX-License-Identifier: Apache-2.0
"""LOG_SOFTMAX: the nodes of its per-kernel golden test (//cc/kernels:log_softmax_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import DTypePath, KernelCases, NodeSpec, TensorSpec, draw_shape


def log_softmax(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = (*draw_shape(rng, 0, 2, 3), int(rng.integers(1, 24, endpoint=True)))
    return NodeSpec([TensorSpec("input", path.source, shape)])


CASES = {
    "LOG_SOFTMAX": KernelCases(log_softmax),
}
