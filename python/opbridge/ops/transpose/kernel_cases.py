# SPDX-License-Identifier: Apache-2.0
"""TRANSPOSE: the nodes of its per-kernel golden test (//cc/kernels:transpose_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import (
    DTypePath,
    KernelCases,
    NodeSpec,
    TensorSpec,
    draw_shape,
    int32_constant,
    per_tensor,
)

from opbridge.ir import DType


def transpose(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Variant 0: a drawn permutation of a drawn shape; variant 1: channels first to channels last of
    1-4 channels (an ONNX or PyTorch model's input), whose short innermost axis takes the kernel's
    block loop for bytes."""
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    if variant == 0:
        shape = draw_shape(rng, 2, 4, 4)
        perm = [int(axis) for axis in rng.permutation(len(shape))]
    else:
        shape = (1, int(rng.integers(1, 5)), int(rng.integers(5, 9)), int(rng.integers(5, 9)))
        perm = [0, 2, 3, 1]
    inputs = [TensorSpec("input", path.source, shape, quantization), int32_constant("perm", perm)]
    return NodeSpec(inputs, None, quantization)


CASES = {
    "TRANSPOSE": KernelCases(transpose),
}
