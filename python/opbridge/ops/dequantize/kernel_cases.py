# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: the nodes of its per-kernel golden test (//cc/kernels:dequantize_kernel_test).

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
    int16_symmetric,
    per_tensor,
)

from opbridge.ir import DType


def dequantize(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    quantization = int16_symmetric(rng) if path.source is DType.INT16 else per_tensor(rng, 0.005, 0.5)
    return NodeSpec([TensorSpec("input", path.source, draw_shape(rng, 1, 3, 6), quantization)])


CASES = {
    "DEQUANTIZE": KernelCases(dequantize, int16=True),
}
