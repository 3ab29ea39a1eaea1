# SPDX-License-Identifier: Apache-2.0
import dataclasses


@dataclasses.dataclass(frozen=True)
class SqueezeAttributes:
    # The size-1 dimensions to drop (negative ones count from the end); empty: every
    # size-1 dimension (TFLite's SqueezeOptions.squeeze_dims).
    squeeze_dims: tuple[int, ...] = ()
