# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH: the nodes of its per-kernel golden test (//cc/kernels:space_to_depth_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, depth_space

CASES = {
    "SPACE_TO_DEPTH": KernelCases(depth_space("SPACE_TO_DEPTH")),
}
