# SPDX-License-Identifier: Apache-2.0
"""The fuzz targets: one function per reader of untrusted files, bytes in.

Each target feeds its bytes to one of opbridge's readers. The contract: the
reader returns, or raises an OpbridgeError (a typed error naming what is
wrong); any other exception, a crash or a hang is a finding. `run_target`
calls a target and enforces that contract by letting everything else
escape. The fuzzer (fuzz.py, with atheris) and the regression test
(regressions_test.py, without it) both call targets through it.

Targets that read a path (.npy, .wav, .pt2, schema libraries) write the
bytes to a fresh file in a private temporary folder first.
"""

import atexit
import contextlib
import dataclasses
import functools
import itertools
import os
import pathlib
import select
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator

from opbridge.errors import OpbridgeError

HERE = pathlib.Path(__file__).absolute().parent
CORPUS = HERE / "corpus"
REGRESSIONS = HERE / "regressions"


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    doc: str
    # Imports the reader (inside atheris' instrumentation, for coverage) and returns the bytes -> None call.
    setup: Callable[[], Callable[[bytes], None]]
    # Files of the shared models (OPBRIDGE_SHARED_DIR) added to the seeds: globs under that folder.
    shared_seeds: tuple[str, ...] = ()
    # libFuzzer's -max_len: inputs up to this many bytes (the seeds' size, with room to grow).
    max_len: int = 64 * 1024
    # Modules that must be importable (a target whose module is missing is skipped, and said so).
    needs: tuple[str, ...] = ()


_scratch: pathlib.Path | None = None
_counter = itertools.count()


def _scratch_folder() -> pathlib.Path:
    """Where inputs are written: OPBRIDGE_FUZZ_SCRATCH (the runner's, removed by it), or a temporary folder
    removed when the process exits."""
    global _scratch
    if _scratch is None:
        configured = os.environ.get("OPBRIDGE_FUZZ_SCRATCH")
        if configured:
            _scratch = pathlib.Path(configured)
            _scratch.mkdir(parents=True, exist_ok=True)
        else:
            _scratch = pathlib.Path(tempfile.mkdtemp(prefix="opbridge_fuzz_"))
            atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
    return _scratch


@contextlib.contextmanager
def written(data: bytes, suffix: str) -> Iterator[pathlib.Path]:
    """`data` in a new file (a fresh name each time: dlopen and caches key on names), removed afterwards."""
    path = _scratch_folder() / f"input{next(_counter)}{suffix}"
    path.write_bytes(data)
    try:
        yield path
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _litert() -> Callable[[bytes], None]:
    from opbridge.frontends.litert.reader import read_litert_model
    from opbridge.registry import default_registry_context

    context = default_registry_context()

    def load(data: bytes) -> None:
        read_litert_model(data, context, source="<fuzz>.tflite")

    return load


def _onnx() -> Callable[[bytes], None]:
    from opbridge.frontends.onnx.importer import read_onnx_model
    from opbridge.registry import default_registry_context

    context = default_registry_context()
    base_dir = _scratch_folder() / "onnx_model_folder"  # external data is looked up here: an empty folder
    base_dir.mkdir(exist_ok=True)

    def load(data: bytes) -> None:
        # Constants fold into values of at most 1 MiB: a fuzzed shape must not make the folding allocate gigabytes.
        read_onnx_model(data, context, source="<fuzz>.onnx", base_dir=base_dir, max_folded_bytes=1 << 20)

    return load


def _pt2() -> Callable[[bytes], None]:
    # What the loader imports on its first call, imported now: seconds that must not count as an input's time.
    import opbridge.frontends.torch.library  # noqa: F401
    import torch
    import torch.ao.quantization.fx._decomposed  # noqa: F401
    from opbridge.frontends.torch.program import load_torch_program
    from opbridge.registry import default_registry_context

    context = default_registry_context()

    def load(data: bytes) -> None:
        with written(data, ".pt2") as path:
            load_torch_program(path, context)

    return load


def _npy() -> Callable[[bytes], None]:
    from opbridge.data_files import read_npy

    def load(data: bytes) -> None:
        with written(data, ".npy") as path:
            read_npy(path)

    return load


def _wav() -> Callable[[bytes], None]:
    from opbridge.data_files import read_wav

    def load(data: bytes) -> None:
        with written(data, ".wav") as path:
            read_wav(path)

    return load


def _schema_library() -> Callable[[bytes], None]:
    from opbridge.schema_libraries import load_schema_library

    def load(data: bytes) -> None:
        """Loads the library in a child process. A schema library is trusted native code (docs/schemas.md):
        dlopen runs its constructors and the host calls its entry point, so a damaged library whose own
        code crashes kills the child, which is no reader bug and is not reported. What the contract covers
        is opbridge's side: the path and ELF checks before dlopen, and the tables read after it, must end
        in a PluginLoadError (or a clean load); any other exception in the child is re-raised here."""
        with written(data, ".so") as path:
            reader, writer = os.pipe()
            child = os.fork()
            if child == 0:  # the child: load, say how it ended, and exit
                os.close(reader)
                for number in (signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT):
                    signal.signal(number, signal.SIG_DFL)  # the fuzzer's crash handlers stay with the parent
                status, report = 0, "loaded"
                try:
                    load_schema_library(path)
                except OpbridgeError as error:
                    report = f"refused: {error.message}"
                except BaseException as error:
                    status, report = 3, f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=-4)}"
                os.write(writer, report.encode()[:4000])
                os._exit(status)
            os.close(writer)
            try:
                received = _read_until(reader, time.monotonic() + CHILD_SECONDS)
                if received is None:  # the library's own code (a constructor) loops: its fault, not reported
                    os.kill(child, signal.SIGKILL)
                    os.waitpid(child, 0)
                    return
                report = received.decode(errors="replace")
                _, status = os.waitpid(child, 0)
            except BaseException:  # the per-input alarm
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)
                raise
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
                raise SchemaLibraryReaderError(f"loading {path} in a child process raised {report}")
            if os.WIFEXITED(status):
                schema_library_outcome(report)

    return load


# A schema-library load in its child process ends within this or is killed (before the fuzzer's per-input
# limit, 10 s by default): a damaged library's constructor may loop, which is the library's fault. opbridge's
# own reading after dlopen is bounded by the table counts it checks.
CHILD_SECONDS = 5.0


def _read_until(descriptor: int, deadline: float) -> bytes | None:
    """Everything the child writes to `descriptor` until it closes it; None when `deadline` passes first."""
    chunks = []
    try:
        while True:
            ready, _, _ = select.select([descriptor], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                return None
            chunk = os.read(descriptor, 4096)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(descriptor)


def schema_library_outcome(report: str) -> int:
    """The kind of ending of a schema-library load, one branch per kind: the fuzzer instruments this function,
    so inputs that end in a new way are kept (the load runs in a child, whose coverage the fuzzer cannot see)."""
    kind = 0
    if "loaded" in report:
        kind |= 1
    if "is not a shared library" in report:
        kind |= 2
    if "ELF" in report:
        kind |= 4
    if "machine" in report:
        kind |= 8
    if "class" in report:
        kind |= 16
    if "endian" in report:
        kind |= 32
    if "program header" in report:
        kind |= 64
    if "section" in report:
        kind |= 128
    if "dynamic" in report:
        kind |= 256
    if "string" in report:
        kind |= 512
    if "symbol" in report:
        kind |= 1024
    if "does not export" in report:
        kind |= 2048
    if "ABI version" in report:
        kind |= 4096
    if "threw" in report:
        kind |= 8192
    if "returned NULL" in report:
        kind |= 16384
    if "larger than" in report:
        kind |= 32768
    if "cannot read" in report:
        kind |= 65536
    if "dlopen" in report:
        kind |= 131072
    if "reserved" in report:
        kind |= 262144
    if "schema" in report:
        kind |= 524288
    return kind


class SchemaLibraryReaderError(Exception):
    """An exception other than an OpbridgeError in the child that loaded a schema library (a finding)."""


TARGETS = {
    target.name: target
    for target in (
        Target(
            "litert",
            "LiteRT flatbuffer bytes -> read_litert_model (the built-ins' registry context)",
            _litert,
            shared_seeds=("models/tflm/*.tflite", "models/mlperf_tiny/*.tflite"),
            max_len=320 * 1024,
        ),
        Target(
            "onnx",
            "ONNX protobuf bytes -> read_onnx_model (parse, checks, preparation passes, conversion)",
            _onnx,
            shared_seeds=("models/**/*.onnx",),
        ),
        Target(
            "pt2",
            ".pt2 archive bytes, as a file -> load_torch_program (zip checks, torch.export.load, translation)",
            _pt2,
            needs=("torch",),
        ),
        Target("npy", ".npy bytes, as a file -> data_files.read_npy", _npy),
        Target(
            "wav",
            ".wav bytes, as a file -> data_files.read_wav",
            _wav,
            shared_seeds=("data/micro_speech/*.wav",),
        ),
        Target(
            "schema_library",
            "shared-library bytes, as a file -> schema_libraries.load_schema_library (ELF checks, then dlopen)",
            _schema_library,
            needs=("_opbridge_schemas",),
        ),
    )
}


@functools.cache
def call(name: str) -> Callable[[bytes], None]:
    """Target `name`'s reader call, set up once."""
    return TARGETS[name].setup()


def run_target(name: str, data: bytes) -> None:
    """Feeds `data` to target `name`: returns when the reader accepts or refuses it with an OpbridgeError;
    anything else the reader raises escapes (a finding)."""
    with contextlib.suppress(OpbridgeError):
        call(name)(data)


def missing_modules(name: str) -> list[str]:
    """The modules target `name` needs that cannot be imported here."""
    import importlib.util

    return [module for module in TARGETS[name].needs if importlib.util.find_spec(module) is None]


def seed_files(name: str, shared_dir: pathlib.Path | None = None) -> list[pathlib.Path]:
    """The committed seeds of target `name`, and the shared models' files it takes when `shared_dir` is given."""
    files = sorted(path for path in (CORPUS / name).glob("*") if path.is_file())
    if shared_dir is not None:
        for pattern in TARGETS[name].shared_seeds:
            files += sorted(path for path in shared_dir.glob(pattern) if path.is_file())
    return files


def regression_files(name: str) -> list[pathlib.Path]:
    return sorted(path for path in (REGRESSIONS / name).glob("*") if path.is_file() and path.name != "README.md")


def shared_dir() -> pathlib.Path | None:
    """The shared models' folder: OPBRIDGE_SHARED_DIR, or ../shared beside the checkout, when it exists."""
    configured = os.environ.get("OPBRIDGE_SHARED_DIR")
    candidates = [pathlib.Path(configured)] if configured else [HERE.parents[2] / "shared"]
    return next((path for path in candidates if (path / "models").is_dir()), None)
