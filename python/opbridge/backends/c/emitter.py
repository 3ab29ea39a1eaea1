"""Writes a Graph as a stand-alone C module.

    DIR/includes-api/<prefix>.h        the API: context, tensor ids, descriptors, init/run
    DIR/src/<prefix>.c                 arena, init (tensor pointers), run (the schedule)
    DIR/src/<prefix>_constants.{c,h}   weights and biases, `const` (flash)
    DIR/src/<prefix>_node_<i>_<op>.{c,h}   one function per node, calling one kernel
    DIR/kernels/cc/kernels/*.{c,h}     opbridge's kernels (unless bundle_kernels=False)

so the folder builds on its own (docs/emitted_c_api.md shows the command)
(the converter adds DIR/plan.json, the memory plan).

The module has no heap and no mutable statics besides the optional
built-in arena; kernels come from cc/kernels. Files are written into a
temporary folder and moved into place at the end, so a failed conversion
leaves nothing half-written behind.
"""

import dataclasses
import os
import pathlib
import re
import shutil
import tempfile

import numpy as np

from opbridge.backends.c.lowering import C_TYPES, LoweringContext, NodeCode, c_comment, c_int_list
from opbridge.backends.c.memory_plan import MemoryPlan
from opbridge.errors import OpbridgeError, UnsupportedOperatorError
from opbridge.ir import Graph, Tensor
from opbridge.ops.registry import OperatorRegistry

# cc/kernels in the source tree or in a Bazel runfiles tree (python/opbridge/backends/c/ is 4 levels down).
KERNEL_SOURCE_DIRECTORY = pathlib.Path(__file__).absolute().parents[4] / "cc" / "kernels"
PREFIX_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,31}$")
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


def c_array(ctype: str, symbol: str, values: np.ndarray, storage: str = "const") -> str:
    """A C array definition of `values`, 16 per line."""
    flat = values.ravel()
    items = [f"{float(v)!r}f" for v in flat] if ctype == "float" else [str(int(v)) for v in flat]
    rows = [", ".join(items[i : i + 16]) for i in range(0, len(items), 16)]
    body = ",\n    ".join(rows)
    return f"{storage} {ctype} {symbol}[{len(flat)}] = {{\n    {body}\n}};\n"


def _header_guard(name: str) -> str:
    return re.sub(r"[^A-Z0-9]", "_", name.upper()) + "_"


class _ModuleWriter:
    def __init__(self, graph: Graph, registry: OperatorRegistry, plan: MemoryPlan, prefix: str) -> None:
        self.graph = graph
        self.registry = registry
        self.plan = plan
        self.prefix = prefix
        self.context = LoweringContext(prefix, graph, plan)
        self.files: dict[str, str] = {}

    def lower_all(self) -> list[NodeCode]:
        missing = [
            node.describe()
            for node in self.graph.nodes
            if (definition := self.registry.get(node.op_type)) is None or definition.lower_c is None
        ]
        if missing:
            raise UnsupportedOperatorError(
                f"no C lowering for: {', '.join(missing)}", hint="these operators run only on the host backends"
            )
        return [self.registry.get(node.op_type).lower_c(self.context, node) for node in self.graph.nodes]

    def write(self) -> dict[str, str]:
        node_code = self.lower_all()
        self.files[f"includes-api/{self.prefix}.h"] = self.api_header()
        self.files[f"src/{self.prefix}_constants.h"], self.files[f"src/{self.prefix}_constants.c"] = self.constants()
        for node, code in zip(self.graph.nodes, node_code, strict=True):
            symbol = self.context.node_symbol(node)
            self.files[f"src/{symbol}.h"], self.files[f"src/{symbol}.c"] = self.node_files(node, code)
        self.files[f"src/{self.prefix}.c"] = self.module_source()
        return self.files

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
        return f"""/* Generated by opbridge from graph "{c_comment(graph.name)}". Do not edit. */
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
            if not tensor.is_constant:
                continue
            ctype = C_TYPES[tensor.dtype]
            symbol = self.context.constant_symbol(tensor.index)
            declarations.append(
                f"extern const {ctype} {symbol}[{tensor.element_count}]; /* {c_comment(tensor.name)} */"
            )
            definitions.append(c_array(ctype, symbol, tensor.data))
        header = (
            "/* Generated by opbridge. Do not edit. */\n"
            f"#ifndef {guard}H_\n#define {guard}H_\n\n#include <stdint.h>\n\n"
            + "\n".join(declarations)
            + f"\n\n#endif /* {guard}H_ */\n"
        )
        source = f'/* Generated by opbridge. Do not edit. */\n#include "{p}_constants.h"\n\n' + "\n".join(definitions)
        return header, source

    def node_files(self, node, code: NodeCode) -> tuple[str, str]:
        p = self.prefix
        symbol = self.context.node_symbol(node)
        guard = _header_guard(symbol)
        header = f"""/* Generated by opbridge. Do not edit. */
#ifndef {guard}H_
#define {guard}H_

#include <stdint.h>

#include "{p}.h"

/* {c_comment(node.describe())} */
int32_t {symbol}({p}_context *ctx);

#endif /* {guard}H_ */
"""
        system_includes = sorted({i for i in code.includes if "/" not in i})
        project_includes = sorted({i for i in code.includes if "/" in i})
        includes = [f"#include <{i}>" for i in ["stddef.h", "stdint.h", *system_includes]]
        includes += [f'#include "{i}"' for i in project_includes]
        includes += [f'#include "{symbol}.h"', f'#include "{p}_constants.h"']
        definitions = "\n\n".join(code.definitions)
        statements = "\n".join(f"  {line}" for line in code.statements)
        uses_ctx = any("ctx" in line for line in code.statements)
        source = f"""/* Generated by opbridge. Do not edit. */
/* {c_comment(node.describe())} */
{chr(10).join(includes)}

{definitions}

int32_t {symbol}({p}_context *ctx) {{
{"" if uses_ctx else "  (void)ctx;" + chr(10)}  int32_t status;
{statements}
  return status;
}}
"""
        return header, source

    def module_source(self) -> str:
        p, m = self.prefix, self.prefix.upper()
        graph = self.graph
        node_includes = "\n".join(f'#include "{self.context.node_symbol(n)}.h"' for n in graph.nodes)
        pointer_lines = []
        for tensor in graph.tensors:
            enum = self.context.tensor_enum(tensor.index)
            if tensor.is_constant:
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
            f"  status = {self.context.node_symbol(n)}(ctx);\n"
            f"  if (status != {m}_STATUS_OK) {{\n    return status;\n  }}"
            for n in graph.nodes
        )
        return f"""/* Generated by opbridge. Do not edit. */
#include "{p}.h"

#include <stddef.h>
#include <stdint.h>

#include "{p}_constants.h"
{node_includes}

#ifndef {m}_NO_STATIC_ARENA
/* The module's own arena, used when {p}_init gets no arena. */
static uint8_t {p}_static_arena[{m}_ARENA_BYTES > 0 ? {m}_ARENA_BYTES : 1]
    __attribute__((aligned({m}_ARENA_ALIGNMENT)));
#endif

int32_t {p}_init({p}_context *ctx, uint8_t *arena, size_t arena_bytes) {{
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
  ctx->initialized = 1;
  return {m}_STATUS_OK;
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


def kernel_sources() -> dict[str, str]:
    """opbridge's kernel sources by their path in the module, for a self-contained module."""
    sources = sorted(KERNEL_SOURCE_DIRECTORY.glob("opbridge_*.[ch]"))
    if not sources:
        raise OpbridgeError(
            f"opbridge's kernel sources are not in {KERNEL_SOURCE_DIRECTORY}",
            hint="run opbridge from its checkout or through bazel run, or pass bundle_kernels=False",
        )
    return {
        f"kernels/cc/kernels/{path.name}": path.read_text() for path in sources if not path.name.endswith("_test.c")
    }


def emit_module(
    graph: Graph,
    registry: OperatorRegistry,
    plan: MemoryPlan,
    prefix: str,
    directory: pathlib.Path | str,
    bundle_kernels: bool = True,
) -> EmittedModule:
    """Writes the module into `directory` (replacing what an earlier conversion wrote there)."""
    check_prefix(prefix)
    files = _ModuleWriter(graph, registry, plan, prefix).write()
    if bundle_kernels:
        files.update(kernel_sources())
    directory = pathlib.Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    try:
        for relative, text in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        if directory.exists():
            for relative in ("includes-api", "src", "kernels"):
                old = directory / relative
                if old.is_dir():
                    shutil.rmtree(old)
                elif old.exists():
                    old.unlink()
        directory.mkdir(exist_ok=True)
        for entry in staging.iterdir():
            os.replace(entry, directory / entry.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return EmittedModule(directory=directory, files=tuple(sorted(files)))
