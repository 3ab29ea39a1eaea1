import dataclasses

from opbridge.ops.common import Activation


@dataclasses.dataclass(frozen=True)
class DivAttributes:
    activation: Activation = Activation.NONE
