import dataclasses

from opbridge.ops.common import Activation


@dataclasses.dataclass(frozen=True)
class AddAttributes:
    activation: Activation = Activation.NONE
