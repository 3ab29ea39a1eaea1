# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION: the nodes of its per-kernel golden test (//cc/kernels:concatenation_kernel_test).

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
    draw_shape,
    per_tensor,
    values,
)

from opbridge.ir import DType


def concatenation(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    dtype = path.source
    shape = draw_shape(rng, 1, 4, 4)
    axis = int(rng.integers(-len(shape), len(shape)))
    quantization = per_tensor(rng) if dtype is DType.INT8 else None  # TFLite: one quantization for all
    inputs = []
    for position in range(int(rng.integers(1, 4, endpoint=True))):
        input_shape = list(shape)
        input_shape[axis] = int(rng.integers(1, 5, endpoint=True))
        constant = position > 0 and variant == 1 and rng.random() < 0.5
        data = values(rng, dtype, tuple(input_shape)) if constant else None
        inputs.append(TensorSpec(f"input_{position}", dtype, tuple(input_shape), quantization, data))
    return NodeSpec(inputs, attributes("CONCATENATION", axis=axis), quantization)


CASES = {
    "CONCATENATION": KernelCases(concatenation),
}
