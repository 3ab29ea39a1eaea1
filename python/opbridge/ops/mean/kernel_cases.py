# SPDX-License-Identifier: Apache-2.0
"""MEAN: the nodes of its per-kernel golden test (//cc/kernels:mean_kernel_test).

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
    int32_constant,
    per_tensor,
)

from opbridge.ir import DType, Quantization
from opbridge.ir.attribute_types import Requantization


def mean(rng: np.random.Generator, path: DTypePath, variant: int) -> NodeSpec:
    """Variant 0: drawn axes of a drawn shape, dims kept. Variant 1: the spatial mean of an NHWC tensor
    (axes 1 and 2, as Keras's GlobalAveragePooling2D converts), dims dropped, with whole blocks of 16
    channels and a partial one of 13 (every lane group of the Helium variant's sums); on the int8 path
    the same over the steps of a [2, steps, channels] tensor (axis 1, Keras's GlobalAveragePooling1D
    after Conv1D, two batches), which takes the same sums batch by batch (the models' golden tests
    cover the NHWC spatial mean and one batch of steps), its output scale then making the rescale a
    left shift. The int8 path's variant 0 takes ONNX's output stage (a float32 scale)."""
    if variant == 1:
        channels = int(rng.choice([29, 45]))
        shape = (int(rng.integers(1, 3)), int(rng.integers(1, 6)), int(rng.integers(1, 6)), channels)
        axes = [1, 2] if rng.random() < 0.5 else [-3, -2]
        if path.source is DType.INT8:
            shape, axes = (2, shape[1] * shape[2] + 1, channels), [axes[0] + 1 if axes[0] < 0 else 1]
    else:
        shape = draw_shape(rng, 1, 4, 6)
        rank = len(shape)
        # Axes sometimes negative, sometimes repeated (TFLite Micro resolves both).
        axes = [int(axis) for axis in rng.integers(-rank, rank, size=int(rng.integers(1, rank, endpoint=True)))]
    quantized = path.source is DType.INT8
    inputs = [
        TensorSpec("input", path.source, shape, per_tensor(rng, 0.01, 0.5) if quantized else None),
        int32_constant("axes", axes),
    ]
    output_q = per_tensor(rng, 0.01, 0.5) if quantized else None
    if quantized and variant == 1:
        # An output scale three times finer than the input's mean: the rescale shifts left (the
        # Helium variant's output stage has a left shift only then).
        count = shape[1]
        input_q = inputs[0].quantization
        assert input_q is not None and output_q is not None
        output_q = Quantization((float(np.float32(input_q.scale / (3 * count))),), output_q.zero_points)
    # int8 variant 0 in ONNX's arithmetic (onnxruntime's QLinearGlobalAveragePool: one float32 scale).
    requantization = Requantization.ONNX if quantized and variant == 0 else Requantization.TFLITE
    return NodeSpec(inputs, attributes("MEAN", keep_dims=variant == 0, requantization=requantization), output_q)


CASES = {
    "MEAN": KernelCases(mean),
}
