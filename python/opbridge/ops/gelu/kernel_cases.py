# SPDX-License-Identifier: Apache-2.0
"""GELU: the nodes of its per-kernel golden test (//cc/kernels:gelu_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, elementwise_unary

CASES = {
    "GELU": KernelCases(elementwise_unary("GELU")),
}
