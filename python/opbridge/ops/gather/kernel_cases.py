# SPDX-License-Identifier: Apache-2.0
"""GATHER: the nodes of its per-kernel golden test (//cc/kernels:gather_kernel_test).

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
)

from opbridge.ir import DType


def gather(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Constant int32 positions (variant 0, a vector) or int64 ones (a 2x3 matrix) along a drawn axis."""
    shape = draw_shape(rng, 1, 4, 5)
    axis = int(rng.integers(-len(shape), len(shape)))
    positions_shape = (int(rng.integers(1, 4, endpoint=True)),) if variant == 0 else (2, 3)
    dtype = DType.INT32 if variant == 0 else DType.INT64
    positions = rng.integers(0, shape[axis], size=positions_shape).astype(dtype.numpy)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [
        TensorSpec("input", path.source, shape, quantization),
        TensorSpec("positions", dtype, positions_shape, data=positions),
    ]
    return NodeSpec(inputs, attributes("GATHER", axis=axis), quantization)


CASES = {
    "GATHER": KernelCases(gather),
}
