"""The built-in operators, listed explicitly (no discovery by scanning modules)."""

from opbridge.ops.add import ADD
from opbridge.ops.average_pool_2d import AVERAGE_POOL_2D
from opbridge.ops.cast import CAST
from opbridge.ops.concatenation import CONCATENATION
from opbridge.ops.conv_2d import CONV_2D
from opbridge.ops.definition import OperatorDefinition
from opbridge.ops.depthwise_conv_2d import DEPTHWISE_CONV_2D
from opbridge.ops.dequantize import DEQUANTIZE
from opbridge.ops.div import DIV
from opbridge.ops.fully_connected import FULLY_CONNECTED
from opbridge.ops.logistic import LOGISTIC
from opbridge.ops.max_pool_2d import MAX_POOL_2D
from opbridge.ops.maximum import MAXIMUM
from opbridge.ops.mean import MEAN
from opbridge.ops.minimum import MINIMUM
from opbridge.ops.mul import MUL
from opbridge.ops.pad import PAD, PADV2
from opbridge.ops.quantize import QUANTIZE
from opbridge.ops.registry import OperatorRegistry
from opbridge.ops.relu import RELU
from opbridge.ops.relu6 import RELU6
from opbridge.ops.reshape import RESHAPE
from opbridge.ops.softmax import SOFTMAX
from opbridge.ops.squeeze import SQUEEZE
from opbridge.ops.strided_slice import STRIDED_SLICE
from opbridge.ops.sub import SUB
from opbridge.ops.tanh import TANH
from opbridge.ops.transpose import TRANSPOSE

BUILTIN_OPERATORS: tuple[OperatorDefinition, ...] = (
    ADD,
    AVERAGE_POOL_2D,
    CAST,
    CONCATENATION,
    CONV_2D,
    DEPTHWISE_CONV_2D,
    DEQUANTIZE,
    DIV,
    FULLY_CONNECTED,
    LOGISTIC,
    MAX_POOL_2D,
    MAXIMUM,
    MEAN,
    MINIMUM,
    MUL,
    PAD,
    PADV2,
    QUANTIZE,
    RELU,
    RELU6,
    RESHAPE,
    SOFTMAX,
    SQUEEZE,
    STRIDED_SLICE,
    SUB,
    TANH,
    TRANSPOSE,
)


def build_builtin_registry() -> OperatorRegistry:
    """A frozen registry of the built-in operators."""
    return OperatorRegistry(BUILTIN_OPERATORS).freeze()
