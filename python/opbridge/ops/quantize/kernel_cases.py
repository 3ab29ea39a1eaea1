# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: the nodes of its per-kernel golden test (//cc/kernels:quantize_kernel_test).

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
    int16_symmetric,
    per_tensor,
)

from opbridge.ir import DType
from opbridge.ir.attribute_types import Requantization


def quantize(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """float32 to int8 or int16 rounding as TFLite (variant 0) or ONNX (variant 1); int8 or int16 to int8 or int16
    requantizes (int16 quantized as for 16x8 models: zero point 0)."""
    shape = draw_shape(rng, 1, 3, 6)
    input_q = None
    if path.source is DType.INT8:
        input_q = per_tensor(rng, 0.005, 0.5)
    elif path.source is DType.INT16:
        input_q = int16_symmetric(rng)
    requantization = (Requantization.TFLITE, Requantization.ONNX)[variant % 2]
    node_attributes = attributes("QUANTIZE", requantization=requantization, output_dtype=path.target)
    output_q = int16_symmetric(rng) if path.target is DType.INT16 else per_tensor(rng, 0.005, 0.5)
    return NodeSpec([TensorSpec("input", path.source, shape, input_q)], node_attributes, output_q)


CASES = {
    "QUANTIZE": KernelCases(quantize, int16=True),
}
