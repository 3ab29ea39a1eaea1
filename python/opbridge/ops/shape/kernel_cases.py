# SPDX-License-Identifier: Apache-2.0
"""SHAPE: the nodes of its per-kernel golden test (//cc/kernels:shape_kernel_test).

Test-only, like op_test.py (it imports the test helpers; python/opbridge never imports it):
cc/kernels/kernel_tests draws the per-kernel golden test's nodes from CASES.
"""

import numpy as np
from opbridge_testing.kernel_case_builders import DTypePath, KernelCases, NodeSpec, TensorSpec, draw_shape, per_tensor

from opbridge.ir import DType
from opbridge.ops.shape.attributes import ShapeAttributes


def shape(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """The sizes of a drawn tensor of rank 1 to 4, as the path's target type (int32 or int64)."""
    del variant  # one kind of node
    dims = draw_shape(rng, 1, 4)
    quantization = per_tensor(rng) if path.source is DType.INT8 else None
    return NodeSpec([TensorSpec("input", path.source, dims, quantization)], ShapeAttributes(path.target))


CASES = {
    "SHAPE": KernelCases(shape),
}
