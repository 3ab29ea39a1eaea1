# SPDX-License-Identifier: Apache-2.0
"""LOCAL_RESPONSE_NORMALIZATION's attributes: the channel window and the float32 coefficients."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class LocalResponseNormalizationAttributes:
    """Each channel c is divided by (bias + alpha * sum of x_i^2)^beta over the channels i from
    c - radius_before to c + radius_after (clipped to the axis).

    TFLite's options give one `radius` (both sides) and its `alpha` multiplies the sum as it is; ONNX's
    LRN gives a window `size` (floor((size - 1) / 2) channels before, the rest after) and its alpha is
    divided by size, so its converter writes alpha / size here (rounded to float32, as onnxruntime does).
    The defaults are TensorFlow's (depth_radius 5, bias 1, alpha 1, beta 0.5)."""

    radius_before: int = 5
    radius_after: int = 5
    bias: float = 1.0
    alpha: float = 1.0
    beta: float = 0.5
