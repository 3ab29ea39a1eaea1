"""What an operator's C emitter returns, and the names it can use.

An operator folder's `emit_c.py` turns one node into a NodeCode: the
headers it needs, file-scope definitions (a const parameter struct, const
multiplier arrays) and the statements of the node's function, which set
`status` from one kernel call. It refers to tensors only through
EmitContext, which knows the module's names and memory plan.
"""

import dataclasses
import re
from collections.abc import Iterable, Sequence

import numpy as np

from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.ir import DType, Graph, Node, Tensor

C_TYPES = {
    DType.BOOL: "uint8_t",
    DType.INT8: "int8_t",
    DType.UINT8: "uint8_t",
    DType.INT16: "int16_t",
    DType.INT32: "int32_t",
    DType.INT64: "int64_t",
    DType.UINT32: "uint32_t",
    DType.UINT64: "uint64_t",
    DType.FLOAT32: "float",
}
KERNELS_HEADER = "cc/kernels/opbridge_kernels_s8.h"


@dataclasses.dataclass
class NodeCode:
    includes: list[str] = dataclasses.field(default_factory=list)
    definitions: list[str] = dataclasses.field(default_factory=list)
    statements: list[str] = dataclasses.field(default_factory=list)
    # Run once from the module's init (the operator class sets has_init): resets persistent state.
    init_statements: list[str] = dataclasses.field(default_factory=list)


def c_identifier(text: str) -> str:
    """A C identifier fragment from any name: non-alphanumerics become '_'."""
    cleaned = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_")
    return cleaned or "unnamed"


def c_comment(text: str) -> str:
    """Text safe inside a /* */ comment."""
    return text.replace("*/", "* /").replace("/*", "/ *")


def c_int_list(values: Iterable[int]) -> str:
    return ", ".join(str(int(v)) for v in values)


class EmitContext:
    """Names in the emitted module: tensors, constants and per-node definitions."""

    def __init__(self, prefix: str, graph: Graph, plan: MemoryPlan) -> None:
        self.prefix = prefix
        self.graph = graph
        self.plan = plan

    def tensor_enum(self, index: int) -> str:
        name = c_identifier(self.graph.tensor(index).name).upper()[:48]
        return f"{self.prefix.upper()}_TENSOR_{index}_{name}"

    def constant_symbol(self, index: int) -> str:
        return f"{self.prefix}_constant_{index}"

    def pointer(self, index: int) -> str:
        """A typed pointer expression to a tensor's data (const arrays for constants)."""
        tensor = self.graph.tensor(index)
        if tensor.is_constant:
            return self.constant_symbol(index)
        return f"(({C_TYPES[tensor.dtype]} *)ctx->tensor_ptrs[{self.tensor_enum(index)}])"

    def optional_pointer(self, index: int | None) -> str:
        return "NULL" if index is None else self.pointer(index)

    def scratch_pointer(self, node: Node, ctype: str) -> str:
        """The node's planned scratch in the arena (see OperatorDefinition.scratch_bytes)."""
        return f"(({ctype} *)(ctx->arena + {self.plan.scratch_offset(node.index)}))"

    def persistent_pointer(self, node: Node, ctype: str) -> str:
        """The node's planned persistent state in the arena (kept from run to run)."""
        return f"(({ctype} *)(ctx->arena + {self.plan.persistent_offset(node.index)}))"

    def node_symbol(self, node: Node) -> str:
        return f"{self.prefix}_node_{node.index}_{node.op_type.lower()}"

    def local_symbol(self, node: Node, name: str) -> str:
        """A name for one of `node`'s file-scope definitions, prefixed so that
        symbol tables (and flash accounting) can tell whose it is."""
        return f"{self.node_symbol(node)}_{name}"

    def int32_array(self, node: Node, name: str, values: Sequence[int] | np.ndarray) -> tuple[str, str]:
        """(definition, symbol) of a static const int32_t array for `node`."""
        symbol = self.local_symbol(node, name)
        values = [int(v) for v in np.asarray(values).ravel()]
        return f"static const int32_t {symbol}[{len(values)}] = {{{c_int_list(values)}}};", symbol

    def float32_array(self, node: Node, name: str, values: Sequence[float] | np.ndarray) -> tuple[str, str]:
        """(definition, symbol) of a static const float array of finite float32 values for `node`."""
        symbol = self.local_symbol(node, name)
        singles = np.asarray(values, np.float32).ravel()
        if not np.isfinite(singles).all():
            raise ValueError(f"{node.describe()}: {name} has values that are not finite float32")
        literals = ", ".join(f"{float(v)!r}f" for v in singles)
        return f"static const float {symbol}[{len(singles)}] = {{{literals}}};", symbol


def nhwc_dims(tensor: Tensor) -> str:
    """An opbridge_dims initializer; lower ranks are padded on the left with 1."""
    shape = (1,) * (4 - len(tensor.shape)) + tuple(tensor.shape)
    if len(shape) != 4:
        raise ValueError(f"{tensor.describe()} has rank {len(tensor.shape)}; expected at most 4")
    return "{" + c_int_list(shape) + "}"
