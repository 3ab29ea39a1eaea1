# SPDX-License-Identifier: Apache-2.0
"""DEPTH_TO_SPACE: the nodes of its per-kernel golden test (//cc/kernels:depth_to_space_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, depth_space

CASES = {
    "DEPTH_TO_SPACE": KernelCases(depth_space("DEPTH_TO_SPACE")),
}
