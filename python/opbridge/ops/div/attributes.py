import dataclasses

from opbridge.ir.attribute_types import Activation


@dataclasses.dataclass(frozen=True)
class DivAttributes:
    activation: Activation = Activation.NONE
