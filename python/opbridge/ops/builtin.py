"""The built-in operators, listed explicitly (no discovery by scanning modules)."""

from opbridge.ops.add import ADD
from opbridge.ops.average_pool_2d import AVERAGE_POOL_2D
from opbridge.ops.conv_2d import CONV_2D
from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.depthwise_conv_2d import DEPTHWISE_CONV_2D
from opbridge.ops.fully_connected import FULLY_CONNECTED
from opbridge.ops.max_pool_2d import MAX_POOL_2D
from opbridge.ops.registry import OperatorRegistry
from opbridge.ops.reshape import RESHAPE
from opbridge.ops.softmax import SOFTMAX
from opbridge.ops.squeeze import SQUEEZE

BUILTIN_OPERATORS: tuple[OperatorDefinition, ...] = (
    ADD,
    AVERAGE_POOL_2D,
    CONV_2D,
    DEPTHWISE_CONV_2D,
    FULLY_CONNECTED,
    MAX_POOL_2D,
    RESHAPE,
    SOFTMAX,
    SQUEEZE,
)


def build_builtin_registry() -> OperatorRegistry:
    """A frozen registry of the built-in operators."""
    return OperatorRegistry(BUILTIN_OPERATORS).freeze()
