# SPDX-License-Identifier: Apache-2.0
import dataclasses


@dataclasses.dataclass(frozen=True)
class SoftmaxAttributes:
    beta: float = 1.0
