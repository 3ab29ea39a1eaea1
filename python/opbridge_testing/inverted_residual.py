# SPDX-License-Identifier: Apache-2.0
"""A MobileNet-v2 inverted residual block as an int8 LiteRT model with seeded random weights.

24x24x8 input; a 1x1 convolution expands it to 48 channels, a 3x3 depthwise
convolution filters them, a 1x1 convolution projects back to 8 channels, and
the block's input is added. The expanded activations (27,648 bytes each)
are the largest, and the depthwise convolution holds two of them at once
unless it runs in place: the planner's case for in-place depthwise
(docs/memory_planner.md, "In place").

`//tests/models:test_models` writes it (tests/models/make_models.py).
"""

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from opbridge_testing.mobilenet import Activation, ModelWriter, add, convolution


def inverted_residual(seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    writer = ModelWriter()
    shape = [1, 24, 24, 8]
    image = Activation(writer.tensor("input", shape, schema.TensorType.INT8, [1 / 128], [0]), shape, 1 / 128, 0, 0.577)
    expanded = convolution(writer, rng, "expand", image, 48, 1, 1, depthwise=False)
    filtered = convolution(writer, rng, "depthwise", expanded, 0, 3, 1, depthwise=True)
    projected = convolution(writer, rng, "project", filtered, 8, 1, 1, depthwise=False, relu=False)
    output = add(writer, image, projected, zero_point=0)
    return writer.finish([image.index], [output], f"opbridge inverted residual test model (seed {seed})")
