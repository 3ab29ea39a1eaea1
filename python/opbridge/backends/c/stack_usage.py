# SPDX-License-Identifier: Apache-2.0
"""The worst-case stack of an emitted module on a Cortex-M core (docs/kernels.md, "Stack").

Every C file of the module (src/) and of the kernels it links (opbridge's
cc/kernels, bundled or the checkout's, and plugin kernels) is compiled with
the pinned arm-none-eabi-gcc and the flags of opbridge's toolchains for the
core (`CPU_FLAGS`, C99, -ffp-contract=off, function sections, `OPTIMIZATION`)
plus `-fstack-usage -fcallgraph-info=su`: GCC writes a call graph per file
with each function's frame (bytes, and whether it is static, dynamic or
dynamic but bounded). The graphs are joined into the program's, and the
bound is the deepest chain of frames from the module's entry points
(`<prefix>_init` and `<prefix>_run`, the functions its API exposes).

Nothing is silently left out:
- an indirect call resolves to the functions whose address the program takes
  (relocations of the object files that are not calls: a function-pointer
  table, a pointer chosen by a test); none to resolve it makes the bound
  unbounded, with the function named;
- recursion (a cycle in the graph) and a dynamic frame that GCC cannot bound
  (alloca, a VLA) make the bound unbounded, naming the function;
- library functions (memcpy, memset, expf, the __aeabi_* helpers: newlib,
  libm and libgcc, which no source here compiles) take the frames of the
  toolchain's own libraries: the functions are linked into a small ELF with
  the core's flags and read back with `arm-none-eabi-objdump -d`, each frame
  the sum of its stack pushes and `sub sp` (`vpush` included; over-estimates
  a function that pushes on two exclusive paths), its callees its `bl` and
  branches to other functions. A library function that moves sp by a
  register or calls through one is unbounded, named.

Each file's result is cached by the SHA-256 of its source, the headers it
can include, the flags and the compiler's version: in this process (a Bazel
persistent worker converts every model in one) and on disk
(`$OPBRIDGE_CACHE_DIR`, else `$XDG_CACHE_HOME/opbridge`, else
`~/.cache/opbridge`; left out when not writable), so converting many models
compiles the kernels once per core.
"""

import concurrent.futures
import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from opbridge.aot.operators import AotOperator
from opbridge.backends.c.cmake import CPU_FLAGS
from opbridge.backends.c.emitter import KERNEL_SOURCE_DIRECTORY, EmittedModule

COMPILER = "arm-none-eabi-gcc"
OBJDUMP = "arm-none-eabi-objdump"
READELF = "arm-none-eabi-readelf"
# The optimisation the bound is for: Bazel's -c opt (the toolchains' flags). The generated CMakeLists
# takes the build type's; another level changes the frames: compute_stack_bounds(optimization=...).
OPTIMIZATION = "-O2"
# The flags of opbridge's toolchains for every C file (toolchains/cc_toolchain_config.bzl), besides the
# core's CPU_FLAGS and the optimisation.
BASE_FLAGS = ("-std=c99", "-ffp-contract=off", "-ffunction-sections", "-fdata-sections")
ANALYSIS_FLAGS = ("-fstack-usage", "-fcallgraph-info=su")
# The cores a module's bound is reported for (cmake.CPU_FLAGS names their flags).
CORES = ("cortex-m55", "cortex-m4")
LIBRARY_FRAMES = (
    "library frames (newlib, libm, libgcc) from arm-none-eabi-objdump -d of the toolchain's libraries linked for "
    "the core: pushes and sub sp of each function and of what it calls"
)
_CACHE_VERSION = "2"
_INDIRECT = "__indirect_call"
LIBRARY_WHERE = "library"  # the `where` of a function read from the toolchain's libraries
# Relocations that are calls or branches: every other one naming a function takes its address.
_CALL_RELOCATIONS = frozenset(
    {"R_ARM_THM_CALL", "R_ARM_THM_JUMP24", "R_ARM_THM_JUMP19", "R_ARM_CALL", "R_ARM_JUMP24", "R_ARM_PC24"}
)

Kind = Literal["exact-static", "unbounded", "unavailable"]


@dataclasses.dataclass(frozen=True)
class Frame:
    """One function on the deepest path and its own frame (bytes); `where` is file:line, or "library"."""

    function: str
    bytes: int
    where: str

    def to_dict(self) -> dict[str, object]:
        return {"function": self.function, "bytes": self.bytes, "where": self.where}


@dataclasses.dataclass(frozen=True)
class StackBound:
    """The worst-case stack of a module's entry points on one core.

    `kind`: "exact-static" (`bytes` is the deepest chain of the frames GCC
    reports, every call resolved), "unbounded" (`reason` names the recursion,
    dynamic frame or unresolved indirect call) or "unavailable" (no compiler:
    `reason` says so). `path` is the deepest chain, entry point first.
    """

    core: str
    kind: Kind
    bytes: int | None
    path: tuple[Frame, ...]
    reason: str
    flags: tuple[str, ...]
    compiler: str
    entry: str = ""
    library_frames: str = LIBRARY_FRAMES

    def to_dict(self) -> dict[str, object]:
        return {
            "core": self.core,
            "kind": self.kind,
            "bytes": self.bytes,
            "entry": self.entry,
            "path": [frame.to_dict() for frame in self.path],
            "reason": self.reason,
            "flags": list(self.flags),
            "compiler": self.compiler,
            "library_frames": self.library_frames,
        }

    def path_text(self) -> str:
        """The deepest path as `f (N) -> g (M) -> ...`."""
        return " -> ".join(f"{frame.function} ({frame.bytes})" for frame in self.path)

    def summary(self) -> str:
        """One line: the bound and its deepest path, or why there is none."""
        if self.kind == "exact-static":
            return f"stack on {self.core}: {self.bytes} bytes ({OPTIMIZATION}), deepest path {self.path_text()}"
        if self.kind == "unbounded":
            path = f"; deepest bounded path {self.path_text()}" if self.path else ""
            return f"stack on {self.core}: unbounded: {self.reason}{path}"
        return f"stack on {self.core}: not computed: {self.reason}"


@dataclasses.dataclass
class _Function:
    frame: int
    dynamic: bool  # a frame GCC could not bound
    where: str
    calls: set[str] = dataclasses.field(default_factory=set)


@dataclasses.dataclass
class _Unit:
    """One compiled file: its functions by graph name, the callees it names but does not define, and the
    functions whose address it takes."""

    functions: dict[str, _Function]
    address_taken: set[str]


def compiler_version(compiler: str = COMPILER) -> str | None:
    """The compiler's first --version line, or None when it is not on PATH."""
    if shutil.which(compiler) is None:
        return None
    result = subprocess.run([compiler, "--version"], capture_output=True, text=True, check=False)
    return result.stdout.splitlines()[0].strip() if result.returncode == 0 and result.stdout else None


def core_flags(core: str, optimization: str = OPTIMIZATION) -> tuple[str, ...]:
    """The flags a module's C is compiled with for `core` (and its bound computed with)."""
    return (*CPU_FLAGS[core], *BASE_FLAGS, optimization)


def cache_directory() -> pathlib.Path:
    """Where per-file results are kept between runs."""
    explicit = os.environ.get("OPBRIDGE_CACHE_DIR")
    if explicit:
        return pathlib.Path(explicit) / "stack_usage"
    base = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(base) / "opbridge" / "stack_usage"


# ---------------------------------------------------------------------------------------------------
# Compiling and reading one file


_CI_NODE = re.compile(r'^node: \{ title: "([^"]*)" label: "([^"]*)"(.*)\}$')
_CI_EDGE = re.compile(r'^edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"')
_FRAME_LABEL = re.compile(r"(\d+) bytes \(([a-z,]+)\)")


def _graph_name(title: str, unit_title: str, unit: str) -> str:
    """A function's name in the program's graph: a global's own name; a file-local one `unit:name`
    (GCC titles it `path/to/file.c:name`; the path is the compile's, so only the file name is kept)."""
    if title.startswith(unit_title + ":"):
        return f"{unit}:{title[len(unit_title) + 1 :]}"
    return title


def _read_callgraph(text: str, unit: str) -> dict[str, _Function]:
    """The functions a .ci file defines (frame, whether dynamic, where) and their callees."""
    lines = text.splitlines()
    unit_title = re.match(r'graph: \{ title: "([^"]*)"', lines[0]).group(1) if lines else ""  # type: ignore[union-attr]
    functions: dict[str, _Function] = {}
    for line in lines[1:]:
        node = _CI_NODE.match(line)
        if node is not None:
            title, label, _ = node.groups()
            frame = _FRAME_LABEL.search(label)
            if frame is None:
                continue  # a callee defined elsewhere (or the indirect-call placeholder)
            parts = label.split("\\n")
            where = pathlib.Path(parts[1]).name.rsplit(":", 1)[0] if len(parts) > 1 else unit
            qualifier = frame.group(2)
            functions[_graph_name(title, unit_title, unit)] = _Function(
                frame=int(frame.group(1)), dynamic=qualifier == "dynamic", where=where
            )
            continue
        edge = _CI_EDGE.match(line)
        if edge is not None:
            source = _graph_name(edge.group(1), unit_title, unit)
            target = edge.group(2)
            target = _INDIRECT if target == _INDIRECT else _graph_name(target, unit_title, unit)
            functions[source].calls.add(target)
    return functions


_RELOCATION_SECTION = re.compile(r"^Relocation section '([^']*)'")


def _address_taken(object_file: pathlib.Path, unit: str, readelf: str, defined: Mapping[str, str]) -> set[str]:
    """The functions whose address `object_file` takes: relocations that are not calls, naming a function.
    `defined` is the file's own functions (_defined_functions: graph name -> symbol)."""
    local_functions = {symbol for name, symbol in defined.items() if name != symbol}
    global_functions = {symbol for name, symbol in defined.items() if name == symbol}
    relocations = subprocess.run([readelf, "-rW", str(object_file)], capture_output=True, text=True, check=True).stdout
    taken = set()
    for line in relocations.splitlines():
        fields = line.split()
        if len(fields) < 5 or not fields[2].startswith("R_ARM_") or fields[2] in _CALL_RELOCATIONS:
            continue
        symbol = fields[4]
        if symbol.startswith(".text."):
            symbol = symbol[len(".text.") :]  # a static function referred to by its section
            taken.add(f"{unit}:{symbol}" if symbol in local_functions else symbol)
        elif symbol in local_functions:
            taken.add(f"{unit}:{symbol}")
        elif symbol in global_functions:
            taken.add(symbol)
        elif not symbol.startswith(("$", ".")):
            # Undefined here: a function of another file whose address this one takes, or data (the
            # caller keeps only the names of the program's functions).
            taken.add(symbol)
    return taken


@dataclasses.dataclass(frozen=True)
class _Compile:
    source: pathlib.Path
    include_dirs: tuple[pathlib.Path, ...]
    flags: tuple[str, ...]


class _UnitCache:
    """Per-file results by content key: in memory, and on disk when the folder is writable."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._memory: dict[str, tuple[_Unit, bytes]] = {}

    def get(self, key: str) -> tuple[_Unit, bytes] | None:
        with self._lock:
            found = self._memory.get(key)
        if found is not None:
            return found
        folder = cache_directory() / key[:2] / key
        try:
            data = json.loads((folder / "unit.json").read_text())
            object_bytes = (folder / "unit.o").read_bytes()
        except (OSError, ValueError):
            return None
        unit = _unit_from_json(data)
        with self._lock:
            self._memory[key] = (unit, object_bytes)
        return unit, object_bytes

    def put(self, key: str, unit: _Unit, object_bytes: bytes) -> None:
        with self._lock:
            self._memory[key] = (unit, object_bytes)
        folder = cache_directory() / key[:2] / key
        try:
            folder.mkdir(parents=True, exist_ok=True)
            staging = pathlib.Path(tempfile.mkdtemp(prefix=".unit.", dir=folder))
            (staging / "unit.json").write_text(json.dumps(_unit_to_json(unit)))
            (staging / "unit.o").write_bytes(object_bytes)
            os.replace(staging / "unit.o", folder / "unit.o")
            os.replace(staging / "unit.json", folder / "unit.json")  # last: its presence means complete
            shutil.rmtree(staging, ignore_errors=True)
        except OSError:
            pass  # a read-only home: the in-memory cache still serves this process


def _unit_to_json(unit: _Unit) -> dict[str, object]:
    return {
        "version": _CACHE_VERSION,
        "functions": {
            name: [function.frame, function.dynamic, function.where, sorted(function.calls)]
            for name, function in unit.functions.items()
        },
        "address_taken": sorted(unit.address_taken),
    }


def _unit_from_json(data: dict[str, object]) -> _Unit:
    if data.get("version") != _CACHE_VERSION:
        raise ValueError("an older cache entry")
    functions = {
        name: _Function(frame=frame, dynamic=dynamic, where=where, calls=set(calls))
        for name, (frame, dynamic, where, calls) in data["functions"].items()  # type: ignore[union-attr]
    }
    return _Unit(functions=functions, address_taken=set(data["address_taken"]))  # type: ignore[arg-type]


_CACHE = _UnitCache()


def _headers_digest(directories: Iterable[pathlib.Path]) -> str:
    """A digest of every header a file may include from `directories` (their .h files, recursively)."""
    digest = hashlib.sha256()
    for directory in directories:
        for header in sorted(directory.rglob("*.h")):
            digest.update(header.relative_to(directory).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(header.read_bytes()).digest())
    return digest.hexdigest()


def _unit_key(job: _Compile, version: str, headers: str) -> str:
    digest = hashlib.sha256()
    for part in (_CACHE_VERSION, version, *job.flags, job.source.name, headers):
        digest.update(part.encode() + b"\0")
    digest.update(hashlib.sha256(job.source.read_bytes()).digest())
    return digest.hexdigest()[:32]


def _compile_unit(job: _Compile, scratch: pathlib.Path, compiler: str, readelf: str) -> tuple[_Unit, bytes]:
    folder = pathlib.Path(tempfile.mkdtemp(dir=scratch))
    output = folder / f"{job.source.stem}.o"
    command = [
        compiler, *job.flags, *ANALYSIS_FLAGS, *(f"-I{d}" for d in job.include_dirs),
        "-c", str(job.source), "-o", str(output),
    ]  # fmt: skip
    compiled = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder)
    if compiled.returncode != 0:
        # The compiler's messages name the file by its folder: left out, so a report is the same wherever the
        # module was written.
        messages = compiled.stderr.replace(f"{job.source.parent}/", "")
        raise StackAnalysisError(f"{job.source.name} does not compile for the stack analysis:\n{messages}")
    unit_name = job.source.name
    functions = _read_callgraph((folder / f"{job.source.stem}.ci").read_text(), unit_name)
    # GCC's frames leave out what inline assembly pushes (a naked function's whole frame) and its graph
    # the calls assembly makes; functions written in top-level asm are not in it at all. So every
    # function's instructions are read too: its frame is the larger of GCC's and the sum of its stack
    # pushes and sub sp, its callees both sets.
    defined = _defined_functions(output, unit_name, readelf)
    local_symbols = {symbol for name, symbol in defined.items() if name != symbol}
    dump = subprocess.run(
        [OBJDUMP, "-dr", "--no-show-raw-insn", str(output)], capture_output=True, text=True, check=True
    ).stdout
    read = _read_disassembly(dump, f"{unit_name} (assembly)")
    for name, symbol in defined.items():
        from_instructions = read.get(symbol)
        if from_instructions is None:
            continue
        calls = {
            callee if callee == _INDIRECT or callee not in local_symbols else f"{unit_name}:{callee}"
            for callee in from_instructions.calls
        }
        known = functions.get(name)
        if known is None:
            functions[name] = dataclasses.replace(from_instructions, calls=calls)
            continue
        known.frame = max(known.frame, from_instructions.frame)
        known.dynamic = known.dynamic or from_instructions.dynamic
        known.calls |= calls
    unit = _Unit(functions=functions, address_taken=_address_taken(output, unit_name, readelf, defined))
    return unit, output.read_bytes()


def _defined_functions(object_file: pathlib.Path, unit: str, readelf: str) -> dict[str, str]:
    """The functions `object_file` defines: graph name -> symbol."""
    symbols = subprocess.run([readelf, "-sW", str(object_file)], capture_output=True, text=True, check=True).stdout
    defined = {}
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[3] == "FUNC" and fields[6] != "UND":
            defined[f"{unit}:{fields[7]}" if fields[4] == "LOCAL" else fields[7]] = fields[7]
    return defined


class StackAnalysisError(Exception):
    """The analysis could not compile or read the module (reported as an unavailable bound, not raised out)."""


# ---------------------------------------------------------------------------------------------------
# Library functions


_OBJDUMP_FUNCTION = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
_OBJDUMP_INSTRUCTION = re.compile(r"^\s*[0-9a-f]+:\s+(\S+)\s*(.*)$")
_OBJDUMP_RELOCATION = re.compile(r"^\s+[0-9a-f]+: (R_ARM_\w+)\s+(\S+)")
_BRANCH_TARGET = re.compile(r"^[0-9a-f]+ <([^>+]+)>")
_REGISTER_LIST = re.compile(r"\{([^}]*)\}")
_LIBRARY_CACHE: dict[str, dict[str, _Function]] = {}


def _register_count(operands: str) -> int:
    """Registers in a {list}: "r4, r5, lr" is 3, "d8-d15" is 8 (each counts its size: a d register 2 words)."""
    found = _REGISTER_LIST.search(operands)
    if found is None:
        return 0
    words = 0
    for item in found.group(1).split(","):
        item = item.strip()
        size = 2 if item.startswith("d") else 1
        if "-" in item:
            first, last = item.split("-")
            words += size * (int(last.strip()[1:]) - int(first[1:]) + 1)
        elif item:
            words += size
    return words


def _library_function(name: str, instructions: Sequence[tuple[str, str, str | None]], where: str) -> _Function:
    frame = 0
    dynamic = False
    calls: set[str] = set()
    for mnemonic, operands, relocated in instructions:
        base = mnemonic.split(".")[0]
        if relocated is not None and base.startswith("b"):
            calls.add(relocated)  # an object file's call: the relocation names the callee
            continue
        if base in ("push", "vpush") or (base in ("stmdb", "stmfd", "vstmdb") and operands.startswith("sp!")):
            frame += 4 * _register_count(operands)
        elif base in ("str", "strd", "vstr") and "[sp, #-" in operands and operands.endswith("]!"):
            frame += int(re.search(r"\[sp, #-(\d+)\]!", operands).group(1))  # type: ignore[union-attr]
        elif base in ("sub", "subw") and re.match(r"sp, (sp, )?#", operands):
            frame += int(re.search(r"#(\d+)", operands).group(1))  # type: ignore[union-attr]
        elif base in ("sub", "subw") and operands.startswith("sp,"):
            dynamic = True  # sp moved by a register
        elif base in ("bl", "blx") and not re.match(r"r\d|lr|ip", operands):
            target = _BRANCH_TARGET.match(operands)
            if target is not None:
                calls.add(target.group(1))
        elif base in ("blx", "bx") and re.match(r"(r\d+|ip)$", operands):
            calls.add(_INDIRECT)
        elif base == "b" or mnemonic.startswith("b.w"):
            target = _BRANCH_TARGET.match(operands)
            if target is not None and target.group(1) != name:
                calls.add(target.group(1))  # a tail call
    return _Function(frame=frame, dynamic=dynamic, where=where, calls=calls)


def _library_functions(names: Sequence[str], flags: Sequence[str], compiler: str, objdump: str) -> dict[str, _Function]:
    """The frames and callees of library functions `names`, and of everything they call, from the
    toolchain's libraries linked with the core's flags."""
    key = hashlib.sha256("\0".join((compiler, *flags, *sorted(names))).encode()).hexdigest()
    if key in _LIBRARY_CACHE:
        return _LIBRARY_CACHE[key]
    with tempfile.TemporaryDirectory(prefix="opbridge-stack-library-") as scratch:
        folder = pathlib.Path(scratch)
        (folder / "empty.c").write_text(
            "void opbridge_stack_library_entry(void);\nvoid opbridge_stack_library_entry(void) {}\n"
        )
        elf = folder / "library.elf"
        command = [
            compiler, *flags, "-nostartfiles", "--specs=nosys.specs", "-Wl,--gc-sections",
            "-Wl,-e,opbridge_stack_library_entry", *(f"-Wl,-u,{name}" for name in sorted(names)),
            str(folder / "empty.c"), "-lm", "-o", str(elf),
        ]  # fmt: skip
        linked = subprocess.run(command, capture_output=True, text=True, check=False)
        if linked.returncode != 0:
            raise StackAnalysisError(f"could not link the library functions {', '.join(names)}:\n{linked.stderr}")
        dump = subprocess.run(
            [objdump, "-d", "--no-show-raw-insn", str(elf)], capture_output=True, text=True, check=True
        ).stdout
    functions = _read_disassembly(dump, LIBRARY_WHERE)
    _LIBRARY_CACHE[key] = functions
    return functions


def _read_disassembly(dump: str, where: str) -> dict[str, _Function]:
    """Each function of an `objdump -d` listing: its frame (pushes and sub sp) and callees."""
    functions: dict[str, _Function] = {}
    current: str | None = None
    instructions: list[tuple[str, str, str | None]] = []
    for line in [*dump.splitlines(), "00000000 <end>:"]:
        header = _OBJDUMP_FUNCTION.match(line)
        if header is not None:
            if current is not None:
                functions[current] = _library_function(current, instructions, where)
            current, instructions = header.group(1), []
            continue
        relocation = _OBJDUMP_RELOCATION.match(line)
        if relocation is not None:
            if instructions and relocation.group(1) in _CALL_RELOCATIONS:
                target = re.sub(r"\+0x[0-9a-f]+$", "", relocation.group(2))
                target = target[len(".text.") :] if target.startswith(".text.") else target
                instructions[-1] = (*instructions[-1][:2], target)
            continue
        instruction = _OBJDUMP_INSTRUCTION.match(line)
        if instruction is not None and current is not None:
            operands = instruction.group(2).split(";")[0].split("@")[0].strip()
            instructions.append((instruction.group(1), operands, None))
    return functions


# ---------------------------------------------------------------------------------------------------
# The program's graph and its deepest path


@dataclasses.dataclass(frozen=True)
class ModuleSources:
    """What a module's program compiles: groups of C files, each with the folders its includes resolve
    in (the kernels' only their own root, so that their cache keys do not change with the module)."""

    groups: tuple[tuple[tuple[pathlib.Path, ...], tuple[pathlib.Path, ...]], ...]

    @property
    def sources(self) -> tuple[pathlib.Path, ...]:
        return tuple(source for sources, _ in self.groups for source in sources)


def module_sources(
    module_dir: pathlib.Path, kernel_root: pathlib.Path, plugin_kernels: Sequence[pathlib.Path] = ()
) -> ModuleSources:
    """The module in `module_dir` (src/*.c) and the kernels under `kernel_root` (the folder holding
    cc/kernels: the module's kernels/ when bundled, else opbridge's checkout), and plugin kernels that
    are not in src/ (a module converted without bundling)."""
    kernels = sorted(p for p in (kernel_root / "cc" / "kernels").glob("opbridge_*.c") if not p.name.endswith("_test.c"))
    plugin_folders = tuple(sorted({p.parent for p in plugin_kernels}))
    plugin_sources = tuple(sorted(p for p in plugin_kernels if p.suffix == ".c"))
    module_includes = (module_dir / "includes-api", module_dir / "src", kernel_root, *plugin_folders)
    return ModuleSources(
        groups=(
            (tuple(sorted((module_dir / "src").glob("*.c"))), module_includes),
            (tuple(kernels), (kernel_root,)),
            (plugin_sources, (*plugin_folders, kernel_root)),
        )
    )


@dataclasses.dataclass(frozen=True)
class CompiledProgram:
    """Each compiled file's object (to link the program the bound is for) and the joined call graph."""

    objects: tuple[pathlib.Path, ...]
    functions: Mapping[str, _Function]
    address_taken: frozenset[str]


def compile_program(
    sources: ModuleSources,
    flags: Sequence[str],
    object_dir: pathlib.Path | None = None,
    compiler: str = COMPILER,
    readelf: str = READELF,
) -> CompiledProgram:
    """Compiles every file (cached by content) and joins their graphs; writes the objects into
    `object_dir` when given."""
    version = compiler_version(compiler) or compiler
    jobs = [_Compile(source, includes, tuple(flags)) for group, includes in sources.groups for source in group]
    digests = {includes: _headers_digest(includes) for _, includes in sources.groups}
    headers = {job.source: digests[job.include_dirs] for job in jobs}
    with tempfile.TemporaryDirectory(prefix="opbridge-stack-") as scratch:

        def one(job: _Compile) -> tuple[_Unit, bytes]:
            key = _unit_key(job, version, headers[job.source])
            cached = _CACHE.get(key)
            if cached is not None:
                return cached
            unit, object_bytes = _compile_unit(job, pathlib.Path(scratch), compiler, readelf)
            _CACHE.put(key, unit, object_bytes)
            return unit, object_bytes

        workers = max(1, min(len(jobs), os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(one, jobs))
    functions: dict[str, _Function] = {}
    taken: set[str] = set()
    objects = []
    defined_in: dict[str, pathlib.Path] = {}
    for position, (job, (unit, object_bytes)) in enumerate(zip(jobs, results, strict=True)):
        # A file-local function is named by its file's name (`kernels.c:helper`): two files of one name
        # defining it would share one entry, and one frame would go uncounted.
        for name in unit.functions:
            if name in defined_in and defined_in[name] != job.source:
                raise StackAnalysisError(
                    f"{name} is defined by both {defined_in[name]} and {job.source}: the stack analysis names "
                    "functions by file name; rename one of the files"
                )
            defined_in[name] = job.source
        functions.update(unit.functions)
        taken |= unit.address_taken
        if object_dir is not None:
            object_dir.mkdir(parents=True, exist_ok=True)
            path = object_dir / f"{position:03d}_{job.source.stem}.o"
            path.write_bytes(object_bytes)
            objects.append(path)
    # Only names of the program are pointer targets (a data relocation to an undefined symbol may be data).
    return CompiledProgram(tuple(objects), functions, frozenset(name for name in taken if name in functions))


class _UnboundedError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def deepest_path(
    entries: Sequence[str], functions: Mapping[str, _Function], address_taken: Iterable[str]
) -> tuple[int, list[str]]:
    """The deepest chain of frames from `entries` (bytes, function names); _UnboundedError names why there is none."""
    targets = sorted(address_taken)
    depth: dict[str, tuple[int, list[str]]] = {}
    on_path: list[str] = []

    def visit(name: str) -> tuple[int, list[str]]:
        if name in depth:
            return depth[name]
        if name in on_path:
            cycle = " -> ".join([*on_path[on_path.index(name) :], name])
            raise _UnboundedError(f"recursion: {cycle}")
        function = functions.get(name)
        if function is None:
            raise _UnboundedError(f"{name} (called by {on_path[-1] if on_path else 'nothing'}) has no known frame")
        if function.dynamic:
            raise _UnboundedError(f"{name} ({function.where}) has a dynamic frame (alloca or a variable-length array)")
        on_path.append(name)
        best = (0, [])
        for callee in sorted(function.calls):
            if callee == _INDIRECT:
                # A library function's pointer (a callback newlib was given, a return through a register)
                # need not be one the program's code takes the address of.
                if not targets or function.where == LIBRARY_WHERE:
                    reason = f"{name} ({function.where}) calls through a pointer the analysis cannot resolve"
                    raise _UnboundedError(reason)
                for target in targets:
                    found = visit(target)
                    best = max(best, found, key=lambda item: item[0])
                continue
            found = visit(callee)
            best = max(best, found, key=lambda item: item[0])
        on_path.pop()
        depth[name] = (function.frame + best[0], [name, *best[1]])
        return depth[name]

    best: tuple[int, list[str]] = (0, [])
    for entry in entries:
        found = visit(entry)
        best = max(best, found, key=lambda item: item[0])
    return best


def _reachable(entries: Sequence[str], functions: Mapping[str, _Function], address_taken: Iterable[str]) -> set[str]:
    seen: set[str] = set()
    stack = list(entries)
    targets = list(address_taken)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        function = functions.get(name)
        if function is None:
            continue
        for callee in function.calls:
            stack.extend(targets if callee == _INDIRECT else [callee])
    return seen


def stack_bound(
    sources: ModuleSources,
    entries: Sequence[str],
    core: str,
    optimization: str = OPTIMIZATION,
    object_dir: pathlib.Path | None = None,
) -> StackBound:
    """The worst-case stack of `entries` on `core`: see the module's docstring."""
    flags = core_flags(core, optimization)
    version = compiler_version()
    if version is None:
        return StackBound(
            core, "unavailable", None, (), f"{COMPILER} is not on PATH: install it (the Arm GNU toolchain, GCC 12) "
            "to have the module's stack bound computed", flags, "", " / ".join(entries),
        )  # fmt: skip
    try:
        program = compile_program(sources, flags, object_dir)
        functions = dict(program.functions)
        missing = [e for e in entries if e not in functions]
        if missing:
            raise StackAnalysisError(f"the module defines no {', '.join(missing)}")
        # The library functions the program reaches, and what they call, from the toolchain's libraries.
        reached = _reachable(entries, functions, program.address_taken)
        library = sorted(name for name in reached if name not in functions and name != _INDIRECT)
        while library:
            found = _library_functions(library, flags, COMPILER, OBJDUMP)
            for name, function in found.items():
                functions.setdefault(name, function)
            reached = _reachable(entries, functions, program.address_taken)
            library = sorted(name for name in reached if name not in functions and name != _INDIRECT)
            library = [name for name in library if name not in found]
            if library:
                raise StackAnalysisError(f"the toolchain's libraries define no {', '.join(library)}")
        try:
            total, chain = deepest_path(entries, functions, program.address_taken)
        except _UnboundedError as unbounded:
            return StackBound(core, "unbounded", None, (), unbounded.reason, flags, version, " / ".join(entries))
    except StackAnalysisError as error:
        return StackBound(core, "unavailable", None, (), str(error), flags, version, " / ".join(entries))
    path = tuple(Frame(_display_name(name), functions[name].frame, functions[name].where) for name in chain)
    return StackBound(core, "exact-static", total, path, "", flags, version, chain[0] if chain else "")


def _display_name(name: str) -> str:
    # A file-local function's graph name is `file.c:name`: the name alone reads better in a path.
    return name.rsplit(":", 1)[-1]


def module_stack_bounds(
    module_dir: pathlib.Path,
    prefix: str,
    kernel_root: pathlib.Path,
    plugin_kernels: Sequence[pathlib.Path] = (),
    cores: Sequence[str] = CORES,
    optimization: str = OPTIMIZATION,
) -> tuple[StackBound, ...]:
    """The stack bound of the module `prefix` in `module_dir` on each core, from `<prefix>_init` and
    `<prefix>_run`."""
    sources = module_sources(module_dir, kernel_root, plugin_kernels)
    entries = (f"{prefix}_init", f"{prefix}_run")
    return tuple(stack_bound(sources, entries, core, optimization) for core in cores)


def emitted_stack_bounds(
    module: EmittedModule, prefix: str, operators: Sequence[AotOperator], bundled: bool
) -> tuple[StackBound, ...]:
    """The bounds of a module emit_module just wrote: with its bundled kernels, or opbridge's own and
    the plugin kernels it left out (--no-bundle-kernels)."""
    if bundled:
        return module_stack_bounds(module.directory, prefix, module.directory / "kernels")
    plugin_kernels = sorted({pathlib.Path(source) for operator in operators for source in operator.kernel_sources()})
    return module_stack_bounds(module.directory, prefix, KERNEL_SOURCE_DIRECTORY.parents[1], plugin_kernels)


def with_stack_bounds(plan_json: str, bounds: Sequence[StackBound]) -> str:
    """plan.json's text with the bounds under "stack", by core."""
    plan = json.loads(plan_json)
    plan["stack"] = {bound.core: bound.to_dict() for bound in bounds}
    return json.dumps(plan, indent=2)
