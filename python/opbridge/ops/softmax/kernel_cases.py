# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX: the nodes of its per-kernel golden test (//cc/kernels:softmax_kernel_test).

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

from opbridge.ir import DType, Quantization

# int8 SOFTMAX's fixed output quantization (TFLite's); int16 SOFTMAX's, and int8 -> int16 SOFTMAX's
# (TFLite Micro requires them).
INT8_SOFTMAX_OUTPUT = Quantization((1.0 / 256.0,), (-128,))
INT16_SOFTMAX_OUTPUT = Quantization((1.0 / 32768.0,), (0,))
INT8_TO_INT16_SOFTMAX_OUTPUT = Quantization((1.0 / 65536.0,), (-32768,))


# Rows longer than the int8 kernel keeps exps for (OPBRIDGE_SOFTMAX_KEPT_EXPS in cc/kernels/opbridge_softmax_s8.c):
# variant 1 of the int8 paths computes them again for the outputs.
INT8_KEPT_EXPS = 128


def softmax(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    shape = (*draw_shape(rng, 0, 2, 3), int(rng.integers(1, 24, endpoint=True)))
    if path.source is DType.INT8 and variant == 1:
        shape = (2, int(rng.integers(INT8_KEPT_EXPS + 1, 2 * INT8_KEPT_EXPS, endpoint=True)))
    beta = float(rng.choice([1.0, 0.5, 2.0, 0.125]))
    if path.source is DType.FLOAT32:
        return NodeSpec([TensorSpec("input", path.source, shape)], attributes("SOFTMAX", beta=beta))
    if path.source is DType.INT16:
        input_q = int16_symmetric(rng, 1e-5, 3e-3)
        return NodeSpec(
            [TensorSpec("input", path.source, shape, input_q)], attributes("SOFTMAX", beta=beta), INT16_SOFTMAX_OUTPUT
        )
    input_q = per_tensor(rng, 0.01, 0.5)
    if path.target is DType.INT16:
        return NodeSpec(
            [TensorSpec("input", path.source, shape, input_q)],
            attributes("SOFTMAX", beta=beta, int16_output=True),
            INT8_TO_INT16_SOFTMAX_OUTPUT,
        )
    return NodeSpec(
        [TensorSpec("input", path.source, shape, input_q)], attributes("SOFTMAX", beta=beta), INT8_SOFTMAX_OUTPUT
    )


CASES = {
    "SOFTMAX": KernelCases(softmax, int16=True, mixed_paths=frozenset({(DType.INT8, DType.INT16)})),
}
