# SPDX-License-Identifier: Apache-2.0
"""LOGISTIC: the nodes of its per-kernel golden test (//cc/kernels:logistic_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, saturating

from opbridge.ir import Quantization

# int8 LOGISTIC writes a fixed output quantization (TFLite's).
LOGISTIC_OUTPUT = Quantization((1.0 / 256.0,), (-128,))


CASES = {
    "LOGISTIC": KernelCases(saturating("LOGISTIC", LOGISTIC_OUTPUT)),
}
