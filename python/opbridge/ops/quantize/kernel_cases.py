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
    draw_scale,
    draw_shape,
    int16_symmetric,
    int32_quantization,
    per_tensor,
)

from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.schema import QUANTIZE_PAIRS


def draw_quantization(rng: np.random.Generator, dtype: DType, role: str) -> Quantization:
    """int16 quantized as for 16x8 models (zero point 0); int32 as int32_quantization draws it; int8 per tensor."""
    if dtype is DType.INT16:
        return int16_symmetric(rng)
    if dtype is DType.INT32:
        return int32_quantization(
            role,
            lambda low, high: draw_scale(rng, low, high),
            lambda low, high: int(rng.integers(low, high, endpoint=True)),
        )
    return per_tensor(rng, 0.005, 0.5)


def quantize(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """float32 to int8 or int16 rounding as TFLite (variant 0) or ONNX (variant 1); the integer pairs requantize."""
    shape = draw_shape(rng, 1, 3, 6)
    input_q = None if path.source is DType.FLOAT32 else draw_quantization(rng, path.source, "input")
    requantization = (Requantization.TFLITE, Requantization.ONNX)[variant % 2]
    node_attributes = attributes("QUANTIZE", requantization=requantization, output_dtype=path.target)
    output_q = draw_quantization(rng, path.target, "output")
    return NodeSpec([TensorSpec("input", path.source, shape, input_q)], node_attributes, output_q)


CASES = {
    # uint8 is not among the kernel tests' types: op_test.py tests int8 <-> uint8 against TFLite Micro and in C.
    "QUANTIZE": KernelCases(quantize, int16=True, only_paths=frozenset(QUANTIZE_PAIRS)),
}
