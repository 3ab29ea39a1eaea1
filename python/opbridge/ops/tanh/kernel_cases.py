# SPDX-License-Identifier: Apache-2.0
"""TANH: the nodes of its per-kernel golden test (//cc/kernels:tanh_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

from opbridge_testing.kernel_case_builders import KernelCases, saturating

from opbridge.ir import Quantization

# int8 TANH writes a fixed output quantization (TFLite's).
TANH_OUTPUT = Quantization((1.0 / 128.0,), (0,))


CASES = {
    "TANH": KernelCases(saturating("TANH", TANH_OUTPUT)),
}
