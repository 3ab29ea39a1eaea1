# SPDX-License-Identifier: Apache-2.0
"""RESIZE_NEAREST_NEIGHBOR's and RESIZE_BILINEAR's attributes (TFLite's two options tables hold the same)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class ResizeAttributes:
    # Corner pixels of input and output aligned: the scale is (in - 1) / (out - 1) when out > 1.
    align_corners: bool = False
    # Pixel centres at + 0.5 (TensorFlow 2's resize); RESIZE_BILINEAR refuses it with align_corners.
    half_pixel_centers: bool = False
