# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE_CONV: the nodes of its per-kernel golden test (//cc/kernels:transpose_conv_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import (
    DTypePath,
    KernelCases,
    NodeSpec,
    TensorSpec,
    attributes,
    draw_activation,
    int32_constant,
    values,
)

from opbridge.ir.attribute_types import Padding


def transpose_conv(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """SAME (variant 0) or VALID padding, strides 1 to 2, a bias on variant 0, a drawn activation. The path's
    source is the output shape's int32, its target the data's dtype."""
    height, width = (int(size) for size in rng.integers(1, 5, size=2, endpoint=True))
    channels, out_channels = (int(size) for size in rng.integers(1, 4, size=2, endpoint=True))
    kernel_h, kernel_w = (int(size) for size in rng.integers(1, 3, size=2, endpoint=True))
    stride_h, stride_w = (int(size) for size in rng.integers(1, 3, size=2, endpoint=True))
    same = variant == 0
    out_h = height * stride_h if same else (height - 1) * stride_h + kernel_h
    out_w = width * stride_w if same else (width - 1) * stride_w + kernel_w
    filter_shape = (out_channels, kernel_h, kernel_w, channels)
    inputs = [
        int32_constant("output_shape", [1, out_h, out_w, out_channels]),
        TensorSpec("filter", path.target, filter_shape, data=values(rng, path.target, filter_shape)),
        TensorSpec("input", path.target, (1, height, width, channels)),
    ]
    if same:
        bias = values(rng, path.target, (out_channels,))
        inputs.append(TensorSpec("bias", path.target, (out_channels,), data=bias))
    node_attributes = attributes(
        "TRANSPOSE_CONV",
        padding=Padding.SAME if same else Padding.VALID,
        stride_height=stride_h,
        stride_width=stride_w,
        activation=draw_activation(rng),
    )
    return NodeSpec(inputs, node_attributes)


CASES = {
    "TRANSPOSE_CONV": KernelCases(transpose_conv),
}
