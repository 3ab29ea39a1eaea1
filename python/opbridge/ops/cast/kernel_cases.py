# SPDX-License-Identifier: Apache-2.0
"""CAST: the nodes of its per-kernel golden test (//cc/kernels:cast_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import DTypePath, KernelCases, NodeSpec, TensorSpec, attributes, draw_shape


def cast(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = draw_shape(rng, 1, 4, 6)
    return NodeSpec([TensorSpec("input", path.source, shape)], attributes("CAST", out_data_type=path.target))


CASES = {
    "CAST": KernelCases(cast),
}
