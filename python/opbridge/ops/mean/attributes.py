# SPDX-License-Identifier: Apache-2.0
import dataclasses


@dataclasses.dataclass(frozen=True)
class MeanAttributes:
    keep_dims: bool = False  # reduced axes stay, with size 1
