# SPDX-License-Identifier: Apache-2.0
"""The operators that get a per-kernel golden test (//cc/kernels:<name>_kernel_test).

Generated from opbridge's registry by
    bazel run //cc/kernels:kernel_golden_generator -- --write-operator-list cc/kernels/kernel_tests/operators.bzl
Do not edit; //cc/kernels:kernel_cases_test fails while this list differs from the registry.
"""

KERNEL_TEST_OPERATORS = [
    "abs",
    "add",
    "average_pool_2d",
    "cast",
    "concatenation",
    "conv_2d",
    "depthwise_conv_2d",
    "dequantize",
    "div",
    "elu",
    "exp",
    "fully_connected",
    "gather",
    "hard_swish",
    "leaky_relu",
    "log",
    "log_softmax",
    "logistic",
    "max_pool_2d",
    "maximum",
    "mean",
    "minimum",
    "mul",
    "neg",
    "pad",
    "padv2",
    "pow",
    "prelu",
    "quantize",
    "reduce_max",
    "relu",
    "relu6",
    "reshape",
    "softmax",
    "softplus",
    "sqrt",
    "squeeze",
    "strided_slice",
    "sub",
    "sum",
    "tanh",
    "tile",
    "transpose",
    "transpose_conv",
]
