# SPDX-License-Identifier: Apache-2.0
import dataclasses

from opbridge.ir.attribute_types import Activation, AxisPadding, Padding


@dataclasses.dataclass(frozen=True)
class Pool2DAttributes:
    padding: Padding = Padding.VALID
    stride_height: int = 1
    stride_width: int = 1
    filter_height: int = 1
    filter_width: int = 1
    activation: Activation = Activation.NONE
    # Explicit (top, bottom, left, right) padding, which the windows neither read nor count (ONNX's
    # pads with count_include_pad=0); empty: `padding` (SAME or VALID). Not named explicit_padding:
    # a PAD folds into a convolution's explicit_padding (passes/pad_folding.py), never into a pool's.
    pads: tuple[int, ...] = ()


def pool_axis_padding(attributes: Pool2DAttributes, axis: int) -> AxisPadding:
    """The pool's padding along NHWC axis 1 (rows) or 2 (columns): its `pads` when set, else `padding`."""
    pads = tuple(attributes.pads)
    if pads:
        return (pads[0], pads[1]) if axis == 1 else (pads[2], pads[3])
    return attributes.padding
