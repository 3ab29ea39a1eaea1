# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's SPACE_TO_DEPTH (reference_ops::SpaceToDepth), NHWC, the inverse of DEPTH_TO_SPACE.

[N, H, W, C] -> [N, H / block, W / block, block^2 * C]: output (n, h, w, (y * block + x) * C + c) is input
(n, h * block + y, w * block + x, c). float32 and int8 (equal quantization in and out), block size >= 1
dividing H and W; the checks are DEPTH_TO_SPACE's (ops/depth_to_space/reference.py).
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.depth_to_space.reference import check_depth_space, space_to_depth


def space_to_depth_reference(call: ReferenceCall) -> list[Array]:
    block = check_depth_space(call.graph, call.node)
    output = call.outputs[0]
    moved = space_to_depth(np.asarray(call.value(0), dtype=output.dtype.numpy), block)
    return [np.ascontiguousarray(moved).reshape(output.shape)]
