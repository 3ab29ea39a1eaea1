# SPDX-License-Identifier: Apache-2.0
"""The operators that get a per-kernel golden test (//cc/kernels:<name>_kernel_test).

Generated from opbridge's registry by
    bazel run //cc/kernels:kernel_golden_generator -- --write-operator-list cc/kernels/kernel_tests/operators.bzl
Do not edit; //cc/kernels:kernel_cases_test fails while this list differs from the registry.
"""

KERNEL_TEST_OPERATORS = [
    "add",
    "average_pool_2d",
    "cast",
    "concatenation",
    "conv_2d",
    "depthwise_conv_2d",
    "dequantize",
    "div",
    "fully_connected",
    "leaky_relu",
    "logistic",
    "max_pool_2d",
    "maximum",
    "mean",
    "minimum",
    "mul",
    "pad",
    "padv2",
    "quantize",
    "relu",
    "relu6",
    "reshape",
    "softmax",
    "squeeze",
    "strided_slice",
    "sub",
    "tanh",
    "transpose",
]
