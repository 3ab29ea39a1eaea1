# SPDX-License-Identifier: Apache-2.0
import dataclasses


@dataclasses.dataclass(frozen=True)
class StridedSliceAttributes:
    """Bit i of a mask refers to axis i."""

    begin_mask: int = 0  # begin i ignored: the slice starts at the first element (the last for a negative stride)
    end_mask: int = 0  # end i ignored: the slice runs to the last element (the first for a negative stride)
    ellipsis_mask: int = 0  # not supported
    new_axis_mask: int = 0  # not supported
    shrink_axis_mask: int = 0  # axis i takes the one element at begin i and is dropped from the output
    offset: bool = False  # not supported (end i relative to begin i)
