# SPDX-License-Identifier: Apache-2.0
"""The classes that emit C for operators: AotOperator and its code-generation settings
(OperatorAttributes; `ATTRIBUTES` and `attributes` are heliaAOT's names for them).

One AotOperator instance serves one node of one conversion:

1. resolve: the converter builds it with the node's code-generation settings
   (`settings`, an instance of the class's `ATTRIBUTES`, filled from the
   config's `operators` rules) and calls
   `on_resolve()`, where the class rejects what its C cannot serve, then
   asks `scratch_bytes()` and `persistent_bytes()` so the planner can place
   them (scratch lives while the node runs; persistent state lives for the
   whole module, in a region nothing else shares, and is reset by `_init`).
2. emit: after planning, `emit(save_path)` writes the operator's header and
   source into the module tree. The module calls
   `<prefix>_<name>_init(ctx)` once from `<prefix>_init` when `has_init`,
   and `<prefix>_<name>_run(ctx)` from `<prefix>_run`; both return an
   int32_t status (0, or a code in <prefix>_status_custom_first..last).

Emitted code reaches tensors through `ctx->tensor_ptrs[<prefix>_<tensor
name>]` (see AotTensor.name), never through symbols of its own, so the
planner decides where every buffer lives; state is never a C static.

Built-in operators are NodeCodeOperator classes made from their
OperatorDefinition (`builtin_aot_operator_class`): subclass one to change how a
built-in is emitted while keeping its checks and scratch sizing.
"""

import dataclasses
import pathlib
import re
from typing import Any, ClassVar

from pydantic.dataclasses import dataclass as pydantic_dataclass

from opbridge.backends.c.emit_context import C_TYPES, GENERATED_NOTICE, EmitContext, NodeCode
from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.errors import OpbridgeError, UnsupportedOperatorError
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.definition import NO_MEMORY, NodeMemory, OperatorDefinition, multiply_accumulates, node_memory

# Included as <...>; every other header an emitter names is the project's or a plugin's ("...").
STANDARD_C_HEADERS = frozenset(
    {
        "assert.h",
        "float.h",
        "limits.h",
        "math.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "string.h",
    }
)
SECTION_NAME = re.compile(r"^\.?[A-Za-z_][A-Za-z0-9_.$]{0,63}$")


@pydantic_dataclass
class OperatorAttributes:
    """The code-generation settings every operator takes (config: operators[].attributes).

    Not the op's attributes (node.attributes, what the model says the op
    computes): settings say how opbridge emits a node's C. The class and
    the config key keep heliaAOT's names (docs/architecture.md, Glossary).

    code_placement: the linker section for the operator's functions, e.g.
    ".itcm_text" to run a hot operator from tightly coupled memory (the
    target's linker script must place that section); None keeps the
    toolchain's default (.text).
    """

    code_placement: str | None = None

    def __post_init__(self) -> None:
        if self.code_placement is not None and not SECTION_NAME.match(self.code_placement):
            raise ValueError(f"code_placement {self.code_placement!r} is not a linker section name (e.g. '.itcm_text')")


@dataclasses.dataclass(frozen=True)
class AotTensor:
    """A tensor as emitted code sees it. `name` is its C name: `<prefix>_<name>` is its tensor id."""

    index: int
    name: str
    model_name: str
    dtype: DType
    shape: tuple[int, ...]
    nbytes: int
    is_constant: bool
    quantization: Quantization | None

    @property
    def ctype(self) -> str:
        return C_TYPES[self.dtype]

    @property
    def element_count(self) -> int:
        return self.nbytes // self.dtype.itemsize if self.dtype.itemsize else 0

    @classmethod
    def of(cls, tensor: Tensor) -> "AotTensor":
        return cls(
            index=tensor.index,
            name=f"tensor_{tensor.index}",
            model_name=tensor.name,
            dtype=tensor.dtype,
            shape=tuple(tensor.shape),
            nbytes=tensor.bytes,
            is_constant=tensor.is_constant,
            quantization=tensor.quantization,
        )


class AotOperator:
    """Emits the C of one node. Subclass it, set TYPE (and ATTRIBUTES, the class of its code-generation
    settings, an OperatorAttributes: heliaAOT's names), implement emit()."""

    TYPE: ClassVar[str] = ""
    ATTRIBUTES: ClassVar[type] = OperatorAttributes
    # True when the module must call <prefix>_<name>_init from <prefix>_init.
    has_init: ClassVar[bool] = False

    def __init__(self, node: Node, graph: Graph, prefix: str, settings: Any) -> None:
        self.node = node
        self.graph = graph
        self.prefix = prefix
        self.settings = settings  # an ATTRIBUTES instance, from the config's operators rules
        self.plan: MemoryPlan | None = None  # set after planning, before emit()
        # The node's registered OperatorDefinition, set by resolve_operators (None outside a conversion, or
        # for a key with no definition). The memory methods and macs() below answer with its facts unless
        # a subclass overrides them.
        self.definition: OperatorDefinition | None = None

    # -- what the node is --------------------------------------------------
    @property
    def name(self) -> str:
        """`node_<index>_<type>`: unique in the module, so `<prefix>_<name>_run` is too."""
        return f"node_{self.node.index}_{re.sub(r'[^0-9A-Za-z_]', '_', self.node.op_type).lower()}"

    @property
    def attributes(self) -> Any:
        """heliaAOT's name for `settings` (the node's code-generation settings)."""
        return self.settings

    @property
    def options(self) -> Any:
        """The node's attributes (heliaAOT's name): what its LiteRT parser decoded (air_options), or
        an ONNX node's attributes read into its schema's attributes_class; None when it has none."""
        return self.node.attributes

    @property
    def input_tensors(self) -> list[AotTensor | None]:
        """Inputs in node order; None for an omitted optional input."""
        return [None if t is None else AotTensor.of(t) for t in self.graph.node_inputs(self.node)]

    @property
    def output_tensors(self) -> list[AotTensor]:
        return [AotTensor.of(t) for t in self.graph.node_outputs(self.node)]

    # -- resolve -------------------------------------------------------------
    def on_resolve(self) -> None:
        """Rejects a node the emitted C could not serve (raise with a clear message)."""

    @property
    def memory(self) -> NodeMemory:
        """The definition's memory needs (docs/adding_an_operator.md, "Operator facts"); none without one."""
        return NO_MEMORY if self.definition is None else node_memory(self.definition)

    def scratch_bytes(self) -> int:
        """Working memory for one run, planned in the arena (default: the definition's NodeMemory.scratch)."""
        scratch = self.memory.scratch
        return 0 if scratch is None else scratch(self.graph, self.node)

    def persistent_bytes(self) -> int:
        """State kept from run to run, planned in the arena and reset by <prefix>_<name>_init
        (default: the definition's NodeMemory.persistent)."""
        persistent = self.memory.persistent
        return 0 if persistent is None else persistent(self.graph, self.node)

    def in_place(self) -> bool:
        """True when the C may write output 0 over an input that dies here (element i of
        each input is read before element i of the output is written, and never after);
        default: the definition's NodeMemory.in_place."""
        in_place = self.memory.in_place
        return in_place(self.graph, self.node) if callable(in_place) else in_place

    def in_place_scratch_bytes(self) -> int:
        """Scratch the C needs only when the planner put output 0 over an input (planned only then)."""
        scratch = self.memory.in_place_scratch
        return 0 if scratch is None else scratch(self.graph, self.node)

    def output_slices(self) -> list[int] | None:
        """Byte offsets of the inputs inside output 0 when each is a contiguous slice of it (the planner
        may then place them there, and the C must not copy an input onto itself), else None."""
        slices = self.memory.output_slices
        return None if slices is None else slices(self.graph, self.node)

    def macs(self, output_shape: tuple[int, ...] | None = None) -> int:
        """Multiply-accumulates of one run, for output 0 of `output_shape` (None: its own shape; a patch
        stage asks per tile); default: the definition's macs. What counts: docs/adding_an_operator.md,
        "Operator facts"."""
        return multiply_accumulates(self.definition, self.graph, self.node, output_shape)

    def aliases_input(self) -> bool:
        """True when output 0 is a view of input 0 (the same bytes under another shape: the planner gives
        both one buffer, and the C copies nothing); default: the definition's NodeMemory.aliases_input."""
        return self.memory.aliases_input

    def absorbed_constants(self) -> list[int]:
        """Indices of constant inputs whose data this node's C replaces with its own (the module
        leaves a constant out when every node that reads it absorbs it)."""
        return []

    # -- emit ----------------------------------------------------------------
    def emit(self, save_path: pathlib.Path) -> None:
        """Writes the operator's files under save_path (includes-api/, src/)."""
        raise NotImplementedError(f"{type(self).__name__} must implement emit()")

    def kernel_sources(self) -> list[pathlib.Path]:
        """C files of the operator's own kernels. A self-contained module gets
        a copy of each in src/; when the build links kernels itself
        (aot_model's kernel_deps, --no-bundle-kernels) they are left out."""
        return []

    @property
    def run_symbol(self) -> str:
        return f"{self.prefix}_{self.name}_run"

    @property
    def init_symbol(self) -> str:
        return f"{self.prefix}_{self.name}_init"

    def tensor_pointer(self, tensor: AotTensor, const: bool = False) -> str:
        """A typed pointer expression to a tensor's data."""
        qualifier = "const " if const else ""
        return f"(({qualifier}{tensor.ctype} *)ctx->tensor_ptrs[{self.prefix}_{tensor.name}])"

    def scratch_pointer(self, ctype: str = "uint8_t") -> str:
        """A pointer to this node's planned scratch (valid while it runs)."""
        return f"(({ctype} *)(ctx->arena + {self._plan().scratch_offset(self.node.index)}u))"

    def persistent_pointer(self, ctype: str = "uint8_t") -> str:
        """A pointer to this node's planned persistent state."""
        return f"(({ctype} *)(ctx->arena + {self._plan().persistent_offset(self.node.index)}u))"

    def function_attributes(self) -> str:
        """What goes before the emitted functions' definitions: the code_placement section."""
        placement = getattr(self.settings, "code_placement", None)
        return f'__attribute__((section("{placement}"))) ' if placement else ""

    def _plan(self) -> MemoryPlan:
        if self.plan is None:
            raise OpbridgeError(f"{self.node.describe()}: pointers into the arena exist only after planning")
        return self.plan


class NodeCodeOperator(AotOperator):
    """An operator whose C is one NodeCode (includes, definitions, statements).

    emit() writes src/<prefix>_<name>.{h,c} around emit_node_code()'s NodeCode; the
    statements set `status`. Set has_init when emit_node_code() returns init_statements.
    """

    def emit_node_code(self, context: EmitContext) -> NodeCode:
        raise NotImplementedError(f"{type(self).__name__} must implement emit_node_code()")

    def emit_context(self) -> EmitContext:
        return EmitContext(self.prefix, self.graph, self._plan())

    def emit(self, save_path: pathlib.Path) -> None:
        code = self.emit_node_code(self.emit_context())
        if code.init_statements and not self.has_init:
            raise OpbridgeError(f"{type(self).__name__} returned init statements but has_init is False")
        header, source = self.node_files(code)
        for relative, text in (
            (f"src/{self.prefix}_{self.name}.h", header),
            (f"src/{self.prefix}_{self.name}.c", source),
        ):
            path = save_path / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")

    def node_files(self, code: NodeCode) -> tuple[str, str]:
        p = self.prefix
        stem = f"{p}_{self.name}"
        guard = re.sub(r"[^A-Z0-9]", "_", stem.upper()) + "_H_"
        description = self.node.describe().replace("*/", "* /")
        declarations = f"int32_t {self.run_symbol}({p}_context *ctx);"
        if self.has_init:
            declarations = f"int32_t {self.init_symbol}({p}_context *ctx);\n" + declarations
        header = f"""/* {GENERATED_NOTICE} */
#ifndef {guard}
#define {guard}

#include <stdint.h>

#include "{p}.h"

#ifdef __cplusplus
extern "C" {{
#endif

/* {description} */
{declarations}

#ifdef __cplusplus
}}
#endif

#endif /* {guard} */
"""
        system_includes = sorted({i for i in code.includes if i in STANDARD_C_HEADERS})
        project_includes = sorted({i for i in code.includes if i not in STANDARD_C_HEADERS})
        includes = [f"#include <{i}>" for i in ["stddef.h", "stdint.h", *system_includes]]
        includes += [f'#include "{i}"' for i in project_includes]
        includes += [f'#include "{stem}.h"', f'#include "{p}_constants.h"']
        definitions = "\n\n".join(code.all_definitions())
        attributes = self.function_attributes()
        functions = []
        if self.has_init:
            functions.append(self._function(f"{attributes}int32_t {self.init_symbol}", code.init_statements))
        functions.append(self._function(f"{attributes}int32_t {self.run_symbol}", code.all_statements()))
        source = f"""/* {GENERATED_NOTICE} */
/* {description} */
{chr(10).join(dict.fromkeys(includes))}

{definitions}

{chr(10).join(functions)}"""
        return header, source

    def _function(self, signature: str, statements: list[str]) -> str:
        uses_ctx = any("ctx" in line for line in statements)
        body = "\n".join(f"  {line}" for line in statements)
        return f"""{signature}({self.prefix}_context *ctx) {{
{"" if uses_ctx else "  (void)ctx;" + chr(10)}  int32_t status = 0;
{body}
  return status;
}}
"""


class BuiltinAotOperator(NodeCodeOperator):
    """A built-in operator: emits its OperatorDefinition's emit_c."""

    DEFINITION: ClassVar[OperatorDefinition]

    def on_resolve(self) -> None:
        if self.DEFINITION.emit_c is None:
            raise UnsupportedOperatorError(
                f"no C emitter for {self.node.describe()}", hint="this operator runs only on the host backends"
            )

    def __init__(self, node: Node, graph: Graph, prefix: str, settings: Any) -> None:
        super().__init__(node, graph, prefix, settings)
        self.definition = self.DEFINITION

    def absorbed_constants(self) -> list[int]:
        if self.DEFINITION.absorbed_constants is None:
            return []
        return self.DEFINITION.absorbed_constants(self.graph, self.node)

    def emit_node_code(self, context: EmitContext) -> NodeCode:
        assert self.DEFINITION.emit_c is not None  # on_resolve checked
        return self.DEFINITION.emit_c(context, self.node)


def builtin_aot_operator_class(definition: OperatorDefinition) -> type[BuiltinAotOperator]:
    """The AotOperator class of a built-in: BuiltinAotOperator bound to its definition, named
    `BuiltinAotOperator[CONV_2D]` (one class per key, since the registry holds classes). Subclass
    BuiltinAotOperator with DEFINITION set to change how a built-in is emitted (docs/custom_ops.md)."""
    name = f"BuiltinAotOperator[{definition.op_type}]"
    # A built-in with persistent state resets it from <prefix>_init (its emitter's init_statements).
    has_init = node_memory(definition).persistent is not None
    namespace = {"TYPE": definition.op_type, "DEFINITION": definition, "has_init": has_init}
    return type(name, (BuiltinAotOperator,), namespace)
