# SPDX-License-Identifier: Apache-2.0
"""AVERAGE_POOL_2D: the nodes of its per-kernel golden test (//cc/kernels:average_pool_2d_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, pool_2d

CASES = {
    "AVERAGE_POOL_2D": KernelCases(pool_2d("AVERAGE_POOL_2D")),
}
