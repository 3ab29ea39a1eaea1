import dataclasses

from opbridge.ops.common import Activation, Padding


@dataclasses.dataclass(frozen=True)
class Conv2DAttributes:
    padding: Padding = Padding.SAME
    stride_height: int = 1
    stride_width: int = 1
    dilation_height: int = 1
    dilation_width: int = 1
    activation: Activation = Activation.NONE
