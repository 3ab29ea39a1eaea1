# SPDX-License-Identifier: Apache-2.0
"""A two-branch int8 LiteRT model whose file order is not the memory-minimal one.

`//tests/models:test_models` writes it (tests/models/make_models.py).

Input 16x16x4; two branches, each a 3x3 convolution to 16x16x16 (4 KB) then a
4x4 max pool to 4x4x16; an ADD joins them. The file lists both convolutions
first, so both 4 KB activations are live at once; finishing one branch before
starting the other needs much less (the converter's schedule search,
docs/memory_planner.md). Written with LiteRT's schema bindings, seeded weights.
"""

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import Activation, ModelWriter, add, convolution


def _max_pool(writer: ModelWriter, name: str, source: Activation, size: int) -> Activation:
    shape = [1, source.shape[1] // size, source.shape[2] // size, source.shape[3]]
    index = writer.tensor(name, shape, schema.TensorType.INT8, [source.scale], [source.zero_point])
    options = schema.Pool2DOptionsT()
    options.padding = schema.Padding.VALID
    options.strideW = options.strideH = options.filterWidth = options.filterHeight = size
    options.fusedActivationFunction = schema.ActivationFunctionType.NONE
    writer.operator(
        schema.BuiltinOperator.MAX_POOL_2D, 2, [source.index], [index], schema.BuiltinOptions.Pool2DOptions, options
    )
    return Activation(index, shape, source.scale, source.zero_point, source.spread)


def two_branches(seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    writer = ModelWriter()
    shape = [1, 16, 16, 4]
    image = Activation(writer.tensor("input", shape, schema.TensorType.INT8, [1 / 128], [0]), shape, 1 / 128, 0, 0.577)
    # Both convolutions first, as a converter may list them.
    left = convolution(writer, rng, "left/conv", image, 16, 3, 1, depthwise=False)
    right = convolution(writer, rng, "right/conv", image, 16, 3, 1, depthwise=False)
    left_pooled = _max_pool(writer, "left/pool", left, 4)
    right_pooled = _max_pool(writer, "right/pool", right, 4)
    output = add(writer, left_pooled, right_pooled, zero_point=-128)
    return writer.finish([image.index], [output], f"opbridge two-branch test model (seed {seed})")
