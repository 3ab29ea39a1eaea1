# SPDX-License-Identifier: Apache-2.0
"""PACK: the nodes of its per-kernel golden test (//cc/kernels:pack_kernel_test).

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


def pack(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """PACK of 1 to 3 inputs of one shape along a drawn new axis (negative on variant 1); one quantization."""
    shape = draw_shape(rng, 1, 3, 4)
    count = int(rng.integers(1, 3, endpoint=True))
    axis = int(rng.integers(0, len(shape) + 1)) - ((len(shape) + 1) if variant == 1 else 0)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    inputs = [TensorSpec(f"value_{position}", path.source, shape, quantization) for position in range(count)]
    return NodeSpec(inputs, attributes("PACK", values_count=count, axis=axis), quantization)


CASES = {
    "PACK": KernelCases(pack),
}
