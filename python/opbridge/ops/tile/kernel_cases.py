# SPDX-License-Identifier: Apache-2.0
"""TILE: the nodes of its per-kernel golden test (//cc/kernels:tile_kernel_test).

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


def tile(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Multiples 1 to 3 per axis, int32 (variant 0) or int64."""
    shape = draw_shape(rng, 1, 4, 4)
    multiples = [int(m) for m in rng.integers(1, 3, size=len(shape), endpoint=True)]
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    if variant == 1:
        array = np.array(multiples, np.int64)
        spec = TensorSpec("multiples", DType.INT64, array.shape, data=array)
    else:
        spec = int32_constant("multiples", multiples)
    return NodeSpec([TensorSpec("input", path.source, shape, quantization), spec], None, quantization)


CASES = {
    "TILE": KernelCases(tile),
}
