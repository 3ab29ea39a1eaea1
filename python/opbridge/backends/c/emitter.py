# SPDX-License-Identifier: Apache-2.0
"""Writes a Graph as a stand-alone C module.

    DIR/includes-api/<prefix>.h        the API: context, tensor ids, descriptors, init/run
    DIR/src/<prefix>.c                 arena, init (tensor pointers), run (the schedule)
    DIR/src/<prefix>_constants.{c,h}   weights and biases, `const` (flash)
    DIR/includes-api/<prefix>_common.h what operator sources include (context type, tensor names)
    DIR/src/<prefix>_node_<i>_<op>.{c,h}   one node's _run (and _init), written by its AotOperator
    DIR/kernels/cc/kernels/*.{c,h}     opbridge's kernels (unless bundle_kernels=False)
    DIR/CMakeLists.txt                 the module as a CMake library (backends/c/cmake.py)

so the folder builds on its own (docs/emitted_c_api.md shows the command)
(the converter adds DIR/plan.json, the memory plan).

The module has no heap and no mutable statics besides the optional
built-in arena; kernels come from cc/kernels. Files are written into a
temporary folder and moved into place at the end, so a failed conversion
leaves nothing half-written behind.
"""

import dataclasses
import math
import os
import pathlib
import re
import shutil
import tempfile
from collections.abc import Sequence

import numpy as np

from opbridge.aot.operators import AotOperator, NodeCodeOperator
from opbridge.backends.c.cmake import CMAKE_LISTS, cmake_lists, is_opbridge_cmake_lists
from opbridge.backends.c.emit_context import (
    C_TYPES,
    GENERATED_NOTICE,
    WORD_ALIGNED,
    EmitContext,
    c_comment,
    c_int_list,
    c_string,
    constants_placement,
)
from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.errors import OpbridgeError, OperatorPluginError
from opbridge.ir import Graph, Tensor

# cc/kernels in the source tree or in a Bazel runfiles tree (python/opbridge/backends/c/ is 4 levels down).
KERNEL_SOURCE_DIRECTORY = pathlib.Path(__file__).absolute().parents[4] / "cc" / "kernels"
# A module prefix: a C identifier of at most PREFIX_MAX_LENGTH characters.
PREFIX_MAX_LENGTH = 32
PREFIX_PATTERN = re.compile(rf"^[A-Za-z_][A-Za-z0-9_]{{0,{PREFIX_MAX_LENGTH - 1}}}$")
MAX_RANK = 6
# Status codes of an emitted module (module errors stay below 1000).
MODULE_STATUSES = {
    "OK": 0,
    "INVALID_ARGUMENT": 1,
    "UNSUPPORTED": 2,
    "ARENA_TOO_SMALL": 3,
    "NOT_INITIALIZED": 4,
    "CUSTOM_FIRST": 1000,
    "CUSTOM_LAST": 1999,
}


@dataclasses.dataclass(frozen=True)
class EmittedModule:
    directory: pathlib.Path
    files: tuple[str, ...]  # relative to directory


def check_prefix(prefix: str) -> None:
    if not PREFIX_PATTERN.match(prefix):
        raise OpbridgeError(
            f"prefix {prefix!r} is not a C identifier of at most 32 characters",
            hint="use letters, digits and '_', starting with a letter, e.g. 'kws'",
        )


def shortened_prefix(prefix: str) -> str:
    """`prefix` cut to the PREFIX_MAX_LENGTH characters check_prefix allows (for prefixes made from
    operator names, as the kernel tests make them: test_unidirectional_sequence_lst)."""
    return prefix[:PREFIX_MAX_LENGTH]


# Literal suffixes that give a constant its array's type, so the widest
# values are not "so large that it is unsigned" (a -Werror failure).
_LITERAL_SUFFIXES = {"uint32_t": "u", "uint64_t": "ull", "int64_t": "ll"}
# The signed types whose most negative value has no literal of its own.
_SIGNED_BITS = {"int32_t": 32, "int64_t": 64}


def c_integer_literal(ctype: str, value: int) -> str:
    """`value` as a C constant of `ctype`; the most negative value is written as -MAX - 1."""
    suffix = _LITERAL_SUFFIXES.get(ctype, "")
    bits = _SIGNED_BITS.get(ctype)
    if bits is not None and value == -(1 << (bits - 1)):
        largest = (1 << (bits - 1)) - 1
        return f"(-{largest}{suffix} - 1)"
    return f"{value}{suffix}"


def c_float_literal(value: float) -> str:
    """A float constant; infinities and NaN through GCC/Clang builtins (C99 has no literal for them,
    and INFINITY would need <math.h> in every file that holds a constant)."""
    value = float(value)
    if math.isnan(value):
        return '__builtin_nanf("")'
    if math.isinf(value):
        return "__builtin_inff()" if value > 0 else "(-__builtin_inff())"
    return f"{value!r}f"


def c_literals(ctype: str, flat: np.ndarray) -> list[str]:
    """c_float_literal or c_integer_literal of each value, the same text, in one pass over Python numbers
    (golden programs and weights hold millions of values)."""
    if ctype == "float":
        numbers = flat.astype(np.float64).tolist()
        if np.isfinite(flat).all():
            return [f"{value!r}f" for value in numbers]
        return [c_float_literal(value) for value in numbers]
    suffix = _LITERAL_SUFFIXES.get(ctype, "")
    if flat.dtype.kind not in "iu":
        flat = flat.astype(np.int64)  # bool as 0 and 1, as int() does
    literals = [f"{value}{suffix}" for value in flat.tolist()]
    bits = _SIGNED_BITS.get(ctype)
    if bits is not None:
        for position in np.flatnonzero(flat == -(1 << (bits - 1))).tolist():
            literals[position] = c_integer_literal(ctype, -(1 << (bits - 1)))
    return literals


def c_array(ctype: str, symbol: str, values: np.ndarray, storage: str = "const") -> str:
    """A C array definition of `values`, 16 per line."""
    flat = values.ravel()
    items = c_literals(ctype, flat)
    rows = [", ".join(items[i : i + 16]) for i in range(0, len(items), 16)]
    body = ",\n    ".join(rows)
    return f"{storage} {ctype} {symbol}[{len(flat)}] = {{\n    {body}\n}};\n"


def _placement_macro(macro: str, setting: str, section: str | None) -> str:
    """A macro that places definitions in the linker section the conversion named
    (empty: the toolchain's default); defining it when compiling overrides it."""
    value = f' __attribute__((section("{section}")))' if section else ""
    return (
        f"/* Where these go: ConvertArgs.{setting} ({section or 'the default section'}). "
        f"Define {macro} to override. */\n"
        f"#ifndef {macro}\n#define {macro}{value}\n#endif\n\n"
    )


def _header_guard(name: str) -> str:
    return re.sub(r"[^A-Z0-9]", "_", name.upper()) + "_"


def absorbed_constants(graph: Graph, operators: Sequence[AotOperator]) -> set[int]:
    """Constants every reader of which absorbs them (AotOperator.absorbed_constants): left out."""
    absorbed_by: dict[int, int] = {}
    for operator in operators:
        for index in set(operator.absorbed_constants()):
            absorbed_by[index] = absorbed_by.get(index, 0) + 1
    readers: dict[int, int] = {}
    for node in graph.nodes:
        for index in {i for i in node.inputs if i is not None}:
            readers[index] = readers.get(index, 0) + 1
    outputs = set(graph.outputs)
    return {
        index
        for index, count in absorbed_by.items()
        if graph.tensor(index).is_constant and count == readers.get(index, 0) and index not in outputs
    }


class _ModuleWriter:
    """The module-level files; each node's files come from its AotOperator."""

    def __init__(self, graph: Graph, operators: Sequence[AotOperator], plan: MemoryPlan, prefix: str) -> None:
        self.graph = graph
        self.operators = list(operators)
        self.plan = plan
        self.prefix = prefix
        self.context = EmitContext(prefix, graph, plan)
        self.files: dict[str, str] = {}
        self.absorbed = absorbed_constants(graph, self.operators)

    def write(self) -> dict[str, str]:
        self.files[f"includes-api/{self.prefix}.h"] = self.api_header()
        self.files[f"includes-api/{self.prefix}_common.h"] = self.common_header()
        self.files[f"src/{self.prefix}_constants.h"], self.files[f"src/{self.prefix}_constants.c"] = self.constants()
        self.files[f"src/{self.prefix}.c"] = self.module_source()
        return self.files

    def common_header(self) -> str:
        """What operator sources include: the API, C names for the tensor ids, the status range."""
        p, m = self.prefix, self.prefix.upper()
        guard = _header_guard(f"{p}_common")
        tensor_names = "\n".join(
            f"  {p}_tensor_{t.index} = {self.context.tensor_enum(t.index)}," for t in self.graph.tensors
        )
        return f"""/* {GENERATED_NOTICE} */
#ifndef {guard}H_
#define {guard}H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "{p}.h"

#ifdef __cplusplus
extern "C" {{
#endif

/* The context every operator function takes. */
typedef {p}_context {p}_model_context_t;

/* Operators return 0, or a code of their own in this range, which
 * {p}_run passes on to its caller unchanged. */
#define {p}_status_ok {m}_STATUS_OK
#define {p}_status_custom_first {m}_STATUS_CUSTOM_FIRST
#define {p}_status_custom_last {m}_STATUS_CUSTOM_LAST

/* ctx->tensor_ptrs[{p}_tensor_<index>]: the tensor ids by their operator-facing names. */
enum {{
{tensor_names}
  {p}_tensor_name_count
}};

#ifdef __cplusplus
}}
#endif

#endif /* {guard}H_ */
"""

    def tensor_descriptor(self, tensor: Tensor) -> str:
        if len(tensor.shape) > MAX_RANK:
            raise OpbridgeError(f"{tensor.describe()} has rank {len(tensor.shape)} > {MAX_RANK}")
        shape = list(tensor.shape) + [0] * (MAX_RANK - len(tensor.shape))
        scale = tensor.quantization.scales[0] if tensor.quantization else 0.0
        zero_point = tensor.quantization.zero_points[0] if tensor.quantization else 0
        return (
            f"{{NULL, {tensor.bytes}u, {len(tensor.shape)}, {{{c_int_list(shape)}}}, {float(scale)!r}f, {zero_point}}}"
        )

    def api_header(self) -> str:
        p, m = self.prefix, self.prefix.upper()
        graph = self.graph
        enum_lines = "\n".join(
            f"  {self.context.tensor_enum(t.index)} = {t.index}, /* {c_comment(t.describe())} */" for t in graph.tensors
        )
        statuses = "\n".join(f"#define {m}_STATUS_{name} {value}" for name, value in MODULE_STATUSES.items())
        return f"""/* {GENERATED_NOTICE} */
/* The module of graph "{c_comment(graph.name)}". */
#ifndef {_header_guard(p)}H_
#define {_header_guard(p)}H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {{
#endif

/* Bytes of the arena that holds every activation, planned ahead of time. */
#define {m}_ARENA_BYTES {self.plan.arena_bytes}u
/* The arena's alignment, in bytes. */
#define {m}_ARENA_ALIGNMENT {max(self.plan.alignment, 8)}u
#define {m}_INPUT_COUNT {len(graph.inputs)}
#define {m}_OUTPUT_COUNT {len(graph.outputs)}
#define {m}_MAX_RANK {MAX_RANK}

/* Status of {p}_init and {p}_run: 0 is success, module errors are below
 * 1000, and {m}_STATUS_CUSTOM_FIRST..{m}_STATUS_CUSTOM_LAST are what custom
 * operators return. */
{statuses}

/* Every tensor of the model; ctx->tensor_ptrs[id] points at its data. */
typedef enum {{
{enum_lines}
  {m}_TENSOR_COUNT = {len(graph.tensors)}
}} {p}_tensor_id;

/* An input or output: where its data is, and how to read it. */
typedef struct {{
  void *data;             /* set by {p}_init */
  size_t bytes;
  int32_t rank;
  int32_t shape[{m}_MAX_RANK];
  float scale;            /* real = scale * (q - zero_point); 0 if not quantized */
  int32_t zero_point;
}} {p}_tensor_descriptor;

typedef struct {{
  uint8_t *arena;
  void *tensor_ptrs[{m}_TENSOR_COUNT];
  {p}_tensor_descriptor inputs[{m}_INPUT_COUNT];
  {p}_tensor_descriptor outputs[{m}_OUTPUT_COUNT];
  int32_t initialized;
}} {p}_context;

/* Prepares ctx. `arena` is a caller-supplied buffer of at least
 * {m}_ARENA_BYTES bytes aligned to {m}_ARENA_ALIGNMENT, or NULL for the
 * module's own static arena (left out when {m}_NO_STATIC_ARENA is defined). */
int32_t {p}_init({p}_context *ctx, uint8_t *arena, size_t arena_bytes);

/* Runs the model once: write ctx->inputs[i].data first, read
 * ctx->outputs[i].data after. */
int32_t {p}_run({p}_context *ctx);

#ifdef __cplusplus
}}
#endif

#endif /* {_header_guard(p)}H_ */
"""

    def constants(self) -> tuple[str, str]:
        p = self.prefix
        guard = _header_guard(f"{p}_constants")
        declarations = []
        definitions = []
        for tensor in self.graph.tensors:
            if not tensor.is_constant or tensor.index in self.absorbed:
                continue
            ctype = C_TYPES[tensor.dtype]
            symbol = self.context.constant_symbol(tensor.index)
            declarations.append(
                f"extern const {ctype} {symbol}[{tensor.element_count}]; /* {c_comment(tensor.name)} */"
            )
            aligned = f"{WORD_ALIGNED} " if np.dtype(tensor.data.dtype).itemsize < 4 else ""
            definitions.append(c_array(ctype, symbol, tensor.data, f"{constants_placement(p)} {aligned}const"))
        header = (
            f"/* {GENERATED_NOTICE} */\n"
            f"#ifndef {guard}H_\n#define {guard}H_\n\n#include <stdint.h>\n\n"
            + _placement_macro(constants_placement(p), "constants_section", self.plan.constants_section)
            + "\n".join(declarations)
            + f"\n\n#endif /* {guard}H_ */\n"
        )
        source = f'/* {GENERATED_NOTICE} */\n#include "{p}_constants.h"\n\n' + "\n".join(definitions)
        return header, source

    def module_source(self) -> str:
        p, m = self.prefix, self.prefix.upper()
        arena_placement = _placement_macro(f"{m}_ARENA_PLACEMENT", "arena_section", self.plan.arena_section)
        graph = self.graph
        prototypes = []
        for operator in self.operators:
            if operator.has_init:
                prototypes.append(f"int32_t {operator.init_symbol}({p}_context *ctx);")
            prototypes.append(f"int32_t {operator.run_symbol}({p}_context *ctx);")
        node_prototypes = "\n".join(prototypes)
        pointer_lines = []
        for tensor in graph.tensors:
            enum = self.context.tensor_enum(tensor.index)
            if tensor.index in self.absorbed:
                pointer_lines.append(f"  ctx->tensor_ptrs[{enum}] = NULL; /* folded into its readers' constants */")
            elif tensor.is_variable:
                pointer_lines.append(
                    f"  ctx->tensor_ptrs[{enum}] = NULL; /* a variable tensor: kept in its reader's persistent state */"
                )
            elif tensor.is_constant:
                pointer_lines.append(
                    f"  ctx->tensor_ptrs[{enum}] = (void *){self.context.constant_symbol(tensor.index)};"
                )
            else:
                try:
                    offset = self.plan.offset_of(tensor.index)
                except KeyError:
                    pointer_lines.append(f"  ctx->tensor_ptrs[{enum}] = NULL; /* unused */")
                    continue
                pointer_lines.append(f"  ctx->tensor_ptrs[{enum}] = arena + {offset};")
        descriptor_lines = []
        for kind, indices in (("inputs", graph.inputs), ("outputs", graph.outputs)):
            for position, index in enumerate(indices):
                tensor = graph.tensor(index)
                descriptor_lines.append(
                    f"  static const {p}_tensor_descriptor {kind}_{position} = {self.tensor_descriptor(tensor)};"
                )
                descriptor_lines.append(f"  ctx->{kind}[{position}] = {kind}_{position};")
                descriptor_lines.append(
                    f"  ctx->{kind}[{position}].data = ctx->tensor_ptrs[{self.context.tensor_enum(index)}];"
                )
        run_lines = "\n".join(
            f"  OPBRIDGE_NODE_BEGIN({operator.node.index}, {c_string(operator.node.op_type)});\n"
            f"  status = {operator.run_symbol}(ctx);\n"
            f"  OPBRIDGE_NODE_END({operator.node.index}, {c_string(operator.node.op_type)});\n"
            f"  if (status != {m}_STATUS_OK) {{\n    return status;\n  }}"
            for operator in self.operators
        )
        init_lines = "\n".join(
            f"  status = {operator.init_symbol}(ctx);\n  if (status != {m}_STATUS_OK) {{\n    return status;\n  }}"
            for operator in self.operators
            if operator.has_init
        )
        return f"""/* {GENERATED_NOTICE} */
#include "{p}.h"

#include <stddef.h>
#include <stdint.h>

#include "{p}_constants.h"

/* The operators' functions (src/{p}_node_*.c and plugin sources). */
{node_prototypes}

/* Per-node timing, for benchmark builds (tests/benchmarks/cycles_main.c): compiled with
 * OPBRIDGE_TIME_NODES, {p}_run calls opbridge_node_timer(node, op_type, 0) before each node
 * and (..., 1) after it; the program that links the module defines it. */
#ifdef OPBRIDGE_TIME_NODES
void opbridge_node_timer(int32_t node, const char *op_type, int32_t end);
#define OPBRIDGE_NODE_BEGIN(node, op_type) opbridge_node_timer((node), (op_type), 0)
#define OPBRIDGE_NODE_END(node, op_type) opbridge_node_timer((node), (op_type), 1)
#else
#define OPBRIDGE_NODE_BEGIN(node, op_type) ((void)0)
#define OPBRIDGE_NODE_END(node, op_type) ((void)0)
#endif

#ifndef {m}_NO_STATIC_ARENA
{arena_placement}/* The module's own arena, used when {p}_init gets no arena. */
{m}_ARENA_PLACEMENT static uint8_t {p}_static_arena[{m}_ARENA_BYTES > 0 ? {m}_ARENA_BYTES : 1]
    __attribute__((aligned({m}_ARENA_ALIGNMENT)));
#endif

int32_t {p}_init({p}_context *ctx, uint8_t *arena, size_t arena_bytes) {{
  int32_t status = {m}_STATUS_OK;
  if (ctx == NULL) {{
    return {m}_STATUS_INVALID_ARGUMENT;
  }}
  ctx->initialized = 0;
  if (arena == NULL) {{
#ifdef {m}_NO_STATIC_ARENA
    return {m}_STATUS_INVALID_ARGUMENT;
#else
    arena = {p}_static_arena;
    arena_bytes = sizeof({p}_static_arena);
#endif
  }}
  if (arena_bytes < {m}_ARENA_BYTES) {{
    return {m}_STATUS_ARENA_TOO_SMALL;
  }}
  if (((uintptr_t)arena % {m}_ARENA_ALIGNMENT) != 0) {{
    return {m}_STATUS_INVALID_ARGUMENT;
  }}
  ctx->arena = arena;
{chr(10).join(pointer_lines)}
{chr(10).join(descriptor_lines)}
  /* Operators with persistent state reset it here. */
{init_lines}
  ctx->initialized = 1;
  return status;
}}

int32_t {p}_run({p}_context *ctx) {{
  int32_t status;
  if (ctx == NULL) {{
    return {m}_STATUS_INVALID_ARGUMENT;
  }}
  if (!ctx->initialized) {{
    return {m}_STATUS_NOT_INITIALIZED;
  }}
{run_lines}
  return {m}_STATUS_OK;
}}
"""


def _kernel_paths() -> list[pathlib.Path]:
    return [p for p in sorted(KERNEL_SOURCE_DIRECTORY.glob("opbridge_*.[ch]")) if not p.name.endswith("_test.c")]


def kernel_sources() -> dict[str, str]:
    """opbridge's kernel sources by their path in the module, for a self-contained module."""
    sources = _kernel_paths()
    if not sources:
        raise OpbridgeError(
            f"opbridge's kernel sources are not in {KERNEL_SOURCE_DIRECTORY}",
            hint="run opbridge from its checkout or through bazel run, or pass bundle_kernels=False",
        )
    return {f"kernels/cc/kernels/{path.name}": path.read_text() for path in sources}


def check_cmake_lists_is_ours(directory: pathlib.Path) -> None:
    """A CMakeLists.txt already in the output folder must be one opbridge wrote: never the user's project."""
    path = directory / CMAKE_LISTS
    if path.is_file() and not is_opbridge_cmake_lists(path):
        raise OpbridgeError(
            f"{path} exists and opbridge did not write it; the module would replace it with its own",
            hint="convert into a folder of its own (e.g. -o path/to/project/models/<prefix>) and add_subdirectory() it",
        )


def _module_cmake_lists(
    staging: pathlib.Path, prefix: str, operators: Sequence[AotOperator], bundle_kernels: bool
) -> str:
    """The CMakeLists.txt of the files in `staging`, written last: plugins' kernels are copied in after write()."""
    module_files = [path.relative_to(staging).as_posix() for path in staging.rglob("*") if path.is_file()]
    if bundle_kernels:
        bundled = staging / "kernels"
        kernel_files: list[str] | None = [p.relative_to(bundled).as_posix() for p in bundled.rglob("*") if p.is_file()]
        plugin_kernels: list[str] = []
    else:
        kernel_files = [f"cc/kernels/{path.name}" for path in _kernel_paths()] or None
        plugin_kernels = sorted({pathlib.Path(s).name for o in operators for s in o.kernel_sources()})
    return cmake_lists(prefix, module_files, kernel_files, bundle_kernels, plugin_kernels)


def emit_module(
    graph: Graph,
    operators: Sequence[AotOperator],
    plan: MemoryPlan,
    prefix: str,
    directory: pathlib.Path | str,
    bundle_kernels: bool = True,
    cmake_lists: bool = True,
) -> EmittedModule:
    """Writes the module into `directory` (replacing what an earlier conversion wrote there).

    `operators` are the resolved AotOperator instances, one per node in
    schedule order (opbridge.aot.resolve); each writes its own files.
    """
    check_prefix(prefix)
    directory = pathlib.Path(directory)
    if cmake_lists:
        check_cmake_lists_is_ours(directory)
    files = _ModuleWriter(graph, operators, plan, prefix).write()
    if bundle_kernels:
        files.update(kernel_sources())
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    try:
        for relative, text in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        sources = _Sources(staging)
        for operator in operators:
            operator.plan = plan
            written = _emit_operator(operator, staging, sources)
            if not bundle_kernels:
                _guard_plugin_kernel_includes(operator, written)
                sources.refresh(written)
        if bundle_kernels:
            # Plugins' kernels (a kernel several nodes use is copied over itself).
            for operator in operators:
                for source in operator.kernel_sources():
                    if not pathlib.Path(source).is_file():
                        raise OperatorPluginError(
                            f"{operator.node.describe()}: {type(operator).__name__}.kernel_sources() names {source}, "
                            "which is not a file",
                            hint="return the paths of the operator's kernel files (e.g. beside its module)",
                        )
                    shutil.copyfile(source, staging / "src" / pathlib.Path(source).name)
        if cmake_lists:
            (staging / CMAKE_LISTS).write_text(_module_cmake_lists(staging, prefix, operators, bundle_kernels))
        written = tuple(sorted(str(path.relative_to(staging)) for path in staging.rglob("*") if path.is_file()))
        if directory.exists():
            # What an earlier conversion wrote (report.*: `convert --report`'s, now stale); a
            # CMakeLists.txt only if it is opbridge's.
            for relative in ("includes-api", "src", "kernels", CMAKE_LISTS, "report.json", "report.html"):
                old = directory / relative
                if relative == CMAKE_LISTS and old.is_file() and not is_opbridge_cmake_lists(old):
                    continue
                if old.is_dir():
                    shutil.rmtree(old)
                elif old.exists():
                    old.unlink()
        directory.mkdir(exist_ok=True)
        for entry in staging.iterdir():
            os.replace(entry, directory / entry.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return EmittedModule(directory=directory, files=written)


def _guard_plugin_kernel_includes(operator: AotOperator, written: list[pathlib.Path]) -> None:
    """Without bundled kernels the build must supply a plugin's kernel headers: a node source that
    includes one gets a check first, so a build without them says which node needs which header and
    how to link it, instead of the compiler's bare "No such file or directory"."""
    headers = sorted({pathlib.Path(s).name for s in operator.kernel_sources() if str(s).endswith(".h")})
    node = re.sub(r"[^A-Za-z0-9 _.,:()'-]", "_", operator.node.describe().replace('"', "'"))
    cls = re.sub(r"[^A-Za-z0-9_.]", "_", type(operator).__qualname__)
    for path in written:
        text = path.read_text()
        checks = [
            f'#if defined(__has_include)\n#if !__has_include("{header}")\n'
            f'#error "{node} includes {header}, a kernel of its plugin ({cls}.kernel_sources()), which this build '
            "lacks: link the plugin's kernel library (aot_model(kernel_deps = [...])) or convert with its kernels "
            'bundled (no --no-bundle-kernels)"\n#endif\n#endif\n'
            for header in headers
            if f'"{header}"' in text and f'__has_include("{header}")' not in text
        ]
        if checks:
            path.write_text("".join(checks) + text)


class _Sources:
    """The .c files under the staging folder and their bytes, read once each: what tells which files
    an operator's emit() wrote, without reading the whole module again for every node."""

    def __init__(self, staging: pathlib.Path) -> None:
        self.staging = staging
        self.known = {path: path.read_bytes() for path in staging.rglob("*.c")}

    def written_by(self, operator: AotOperator) -> list[pathlib.Path]:
        """The .c files whose bytes `operator`'s emit() (just run) changed or created."""
        if type(operator).emit is NodeCodeOperator.emit:
            # It writes exactly src/<prefix>_<name>.{h,c} (NodeCodeOperator.emit).
            candidates = [self.staging / "src" / f"{operator.prefix}_{operator.name}.c"]
        else:
            candidates = list(self.staging.rglob("*.c"))  # a plugin's emit() may write anything
        written = []
        for path in candidates:
            text = path.read_bytes()
            if self.known.get(path) != text:
                written.append(path)
                self.known[path] = text
        return written

    def refresh(self, paths: Sequence[pathlib.Path]) -> None:
        """Reads `paths` again (rewritten since written_by saw them)."""
        for path in paths:
            self.known[path] = path.read_bytes()


# What follows a function's name in its definition: the parameters, then the body's brace.
_DEFINITION_TAIL = re.compile(r"\s*\([^;{}]*\)\s*\{")
_WORD = re.compile(r"\w")


def _defines(text: str, symbol: str) -> bool:
    """Whether `text` defines the function `symbol`: the regex \\b<symbol>\\s*\\([^;{}]*\\)\\s*\\{ matches,
    found by looking at each occurrence of the name (one compiled pattern for every node)."""
    if not _WORD.fullmatch(symbol[:1]):
        return re.search(rf"\b{re.escape(symbol)}\s*\([^;{{}}]*\)\s*\{{", text) is not None
    start = text.find(symbol)
    while start >= 0:
        if (start == 0 or not _WORD.fullmatch(text[start - 1])) and _DEFINITION_TAIL.match(text, start + len(symbol)):
            return True
        start = text.find(symbol, start + 1)
    return False


def _emit_operator(operator: AotOperator, staging: pathlib.Path, sources: _Sources | None = None) -> list[pathlib.Path]:
    """Runs one operator class's emit(); a plugin's failure names the node and the class.
    Returns the .c files it wrote."""
    sources = sources or _Sources(staging)
    try:
        operator.emit(staging)
    except OpbridgeError:
        raise
    except Exception as error:
        raise OperatorPluginError(
            f"{operator.node.describe()}: {type(operator).__name__}.emit() failed: {type(error).__name__}: {error}",
            hint=f"fix the operator class {type(operator).__module__}.{type(operator).__qualname__}",
        ) from error
    # Only what this emit() wrote counts: the module source already names every symbol.
    written = sources.written_by(operator)
    texts = [path.read_text(errors="replace") for path in written]
    for required in [operator.run_symbol] + ([operator.init_symbol] if operator.has_init else []):
        if not any(_defines(text, required) for text in texts):
            raise OperatorPluginError(
                f"{operator.node.describe()}: {type(operator).__name__}.emit() wrote no definition of {required}",
                hint="emit() must write a .c file under src/ defining <prefix>_<name>_run (and _init when has_init)",
            )
    return written
