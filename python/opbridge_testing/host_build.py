# SPDX-License-Identifier: Apache-2.0
"""Host gcc builds of golden test programs, with each kernel set compiled once per process.

Op tests compile thousands of small programs: an emitted module, its golden
test, and the ~20 kernel sources of cc/kernels (or the copies bundled in a
self-contained module). The kernels are the same every time, so
`build_program` compiles each kernel set to object files once, in a
temporary directory of this process (removed at exit), and per program
compiles only the module's own sources and links them with those objects.

A kernel set is a folder (the include root) and sources under it, keyed by
the compiler, the flags, and the paths (below the root) and contents of its
sources and of the headers beside them: a bundled copy of the kernels in a
new module folder is not compiled again, and an edited kernel is. Every
object is linked (not drawn from an archive), so a program links exactly as
if all its sources had been compiled in one gcc command.
"""

import atexit
import concurrent.futures
import dataclasses
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence

COMPILER = "gcc"
# The flags every golden test program is compiled with (the toolchains' C flags).
C_FLAGS = ("-std=c99", "-ffp-contract=off", "-O1", "-Wall", "-Wextra", "-Werror")
LIBRARIES = ("-lm",)


class CompileError(AssertionError):
    """A compiler error (an AssertionError, so that tests report it as a failure)."""


@dataclasses.dataclass(frozen=True)
class KernelSet:
    """C sources compiled once and linked into many programs.

    `sources` are relative to `root`, which is their include directory
    (cc/kernels/*.c include "cc/kernels/....h").
    """

    root: pathlib.Path
    sources: tuple[pathlib.Path, ...]


class _ObjectCache:
    """Object files of kernel sets, in one temporary directory per process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._directory: pathlib.Path | None = None
        self._owner_pid = 0
        # key -> the objects, or the compiler's error (a broken kernel is reported, not recompiled, per example).
        self._built: dict[str, tuple[pathlib.Path, ...] | CompileError] = {}

    def _scratch(self) -> pathlib.Path:
        if self._directory is None or self._owner_pid != os.getpid():
            # A forked worker makes (and removes) its own directory.
            self._directory = pathlib.Path(tempfile.mkdtemp(prefix="opbridge-kernel-objects-"))
            self._owner_pid = os.getpid()
            self._built = {}
            atexit.register(_remove_if_owner, self._directory, self._owner_pid)
        return self._directory

    def objects(self, kernels: KernelSet, compiler: str, flags: Sequence[str]) -> tuple[pathlib.Path, ...]:
        key = _kernel_set_key(kernels, compiler, flags)
        with self._lock:
            built = self._built.get(key) if self._owner_pid == os.getpid() else None
            if built is None:
                built = _compile_objects(kernels, compiler, flags, self._scratch() / key)
                self._built[key] = built
        if isinstance(built, CompileError):
            raise CompileError(str(built))
        return built


def _remove_if_owner(directory: pathlib.Path, owner_pid: int) -> None:
    if os.getpid() == owner_pid:
        shutil.rmtree(directory, ignore_errors=True)


def _kernel_set_key(kernels: KernelSet, compiler: str, flags: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for part in (compiler, *flags):
        digest.update(part.encode() + b"\0")
    folders = sorted({source.parent for source in kernels.sources})
    headers = [header.relative_to(kernels.root) for folder in folders for header in (kernels.root / folder).glob("*.h")]
    for relative in (*kernels.sources, *sorted(headers)):
        contents = (kernels.root / relative).read_bytes()
        digest.update(relative.as_posix().encode() + b"\0" + hashlib.sha256(contents).digest())
    return digest.hexdigest()[:20]


def _compile_objects(
    kernels: KernelSet, compiler: str, flags: Sequence[str], directory: pathlib.Path
) -> tuple[pathlib.Path, ...] | CompileError:
    directory.mkdir(parents=True)
    include = f"-I{kernels.root}"

    def compile_one(position: int, source: pathlib.Path) -> tuple[pathlib.Path, str]:
        output = directory / f"{position:03d}_{source.stem}.o"
        command = [compiler, *flags, include, "-c", str(kernels.root / source), "-o", str(output)]
        compiled = subprocess.run(command, capture_output=True, text=True, check=False)
        return output, compiled.stderr if compiled.returncode != 0 else ""

    workers = max(1, min(len(kernels.sources), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(compile_one, range(len(kernels.sources)), kernels.sources))
    errors = "".join(error for _, error in results)
    if errors:
        return CompileError(f"the kernels do not compile:\n{errors}")
    return tuple(output for output, _ in results)


_OBJECT_CACHE = _ObjectCache()


def kernel_objects(
    kernels: KernelSet, compiler: str = COMPILER, flags: Sequence[str] = C_FLAGS
) -> tuple[pathlib.Path, ...]:
    """The object files of `kernels`, compiled on first use in this process; CompileError if they do not compile."""
    return _OBJECT_CACHE.objects(kernels, compiler, flags)


def build_program(
    sources: Sequence[pathlib.Path],
    include_dirs: Sequence[pathlib.Path],
    kernel_sets: Sequence[KernelSet],
    output: pathlib.Path,
    compiler: str = COMPILER,
    flags: Sequence[str] = C_FLAGS,
) -> pathlib.Path:
    """Compiles `sources` and links them with the (cached) objects of `kernel_sets` into `output`.

    CompileError names what did not compile (the kernels, or the program's
    own sources) and carries the compiler's output.
    """
    objects = [path for kernels in kernel_sets for path in kernel_objects(kernels, compiler, flags)]
    command = [
        compiler, *flags, *(f"-I{d}" for d in include_dirs), *map(str, sources), *map(str, objects),
        *LIBRARIES, "-o", str(output),
    ]  # fmt: skip
    compiled = subprocess.run(command, capture_output=True, text=True, check=False)
    if compiled.returncode != 0:
        raise CompileError(f"the emitted module does not compile:\n{compiled.stderr}")
    return output
