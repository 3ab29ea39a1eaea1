# SPDX-License-Identifier: Apache-2.0
"""PAD and PADV2: the nodes of their per-kernel golden test (//cc/kernels:pad_kernel_test, padv2_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, pad

CASES = {
    "PAD": KernelCases(pad("PAD")),
    "PADV2": KernelCases(pad("PADV2")),
}
