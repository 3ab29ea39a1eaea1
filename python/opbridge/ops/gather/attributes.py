# SPDX-License-Identifier: Apache-2.0
"""GATHER's attributes (TFLite's GatherOptions; ONNX Gather's axis)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class GatherAttributes:
    axis: int = 0  # the input axis the positions index; negative counts from the last
    batch_dims: int = 0  # only 0 is supported (leading axes shared by input and positions)
