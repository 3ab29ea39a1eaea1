import dataclasses

from opbridge.ops.common import Activation


@dataclasses.dataclass(frozen=True)
class FullyConnectedAttributes:
    activation: Activation = Activation.NONE
    keep_num_dims: bool = False
