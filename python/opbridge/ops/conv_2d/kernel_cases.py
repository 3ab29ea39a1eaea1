# SPDX-License-Identifier: Apache-2.0
"""CONV_2D: the nodes of its per-kernel golden test (//cc/kernels:conv_2d_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, convolution

CASES = {
    "CONV_2D": KernelCases(convolution("CONV_2D")),
}
