# SPDX-License-Identifier: Apache-2.0
"""Fault isolation for untrusted plugin libraries: `CustomOpSession(..., isolate=True)`.

The library is loaded, and its kernels run, in a child Python process
(`python -m opbridge.backends.host_plugins.isolated_child`: a fresh
interpreter that never imports the caller's `__main__`, unlike
multiprocessing's spawn) hosting an ordinary in-process CustomOpSession. The
two talk over a pair of pipes of their own (the child's stdout and stderr
stay the caller's, so a plugin's prints are seen and cannot garble the
replies). Before each node runs, the child writes the node's index into a
small file both map, so when plugin code kills the child (segmentation
fault, abort, exit) the parent names the node and op in the
PluginKernelError it raises, and the caller's process goes on. A session
whose child died is closed: open a new one to retry.

Messages cross the pipes pickled with protocol 5, arrays' bytes out of band
(written from the array and read into the new array's buffer, no further
copy): `bazel run -c opt //tests/benchmarks:native_plugins` measures the cost.
"""

import contextlib
import mmap
import os
import pickle
import signal
import struct
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, BinaryIO

import numpy.typing as npt

import opbridge.errors as opbridge_errors
from opbridge.backends.host_plugins.plugins import NodeKernel
from opbridge.errors import OpbridgeError, PluginKernelError, PluginLoadError
from opbridge.ir import Graph

Array = npt.NDArray[Any]

CHILD_MODULE = "opbridge.backends.host_plugins.isolated_child"
LOADING = -1  # the node index before any node runs (and between runs)
_INDEX = struct.Struct("<q")


_FRAME = struct.Struct("<qq")  # header bytes, out-of-band buffers


def send_message(stream: BinaryIO, message: object) -> None:
    """One message: its pickle (protocol 5) with the arrays' bytes sent after it, as they are."""
    buffers: list[pickle.PickleBuffer] = []
    header = pickle.dumps(message, protocol=5, buffer_callback=buffers.append)
    views = [buffer.raw() for buffer in buffers]
    stream.write(_FRAME.pack(len(header), len(views)))
    stream.write(struct.pack(f"<{len(views)}q", *(view.nbytes for view in views)))
    stream.write(header)
    for view in views:
        stream.write(view)
    stream.flush()


def _read_into(stream: BinaryIO, buffer: bytearray) -> None:
    view = memoryview(buffer)
    while view.nbytes:
        count = stream.readinto(view)
        if not count:
            raise EOFError("the other process closed the pipe")
        view = view[count:]


def receive_message(stream: BinaryIO) -> Any:
    """A message send_message wrote; arrays own the buffers their bytes were read into."""
    frame = bytearray(_FRAME.size)
    _read_into(stream, frame)
    header_size, count = _FRAME.unpack(frame)
    sizes = bytearray(8 * count)
    _read_into(stream, sizes)
    header = bytearray(header_size)
    _read_into(stream, header)
    buffers = [bytearray(size) for size in struct.unpack(f"<{count}q", sizes)]
    for buffer in buffers:
        _read_into(stream, buffer)
    return pickle.loads(header, buffers=buffers)


def write_node_index(status: mmap.mmap, index: int) -> None:
    _INDEX.pack_into(status, 0, index)


class TracedKernel:
    """A node's kernel that records, before each run, which node the child is in."""

    def __init__(self, kernel: NodeKernel, index: int, status: mmap.mmap) -> None:
        self._kernel = kernel
        self._index = index
        self._status = status

    @property
    def created(self) -> bool:
        return self._kernel.created

    def compute(self, inputs: Sequence[Array]) -> list[Array]:
        write_node_index(self._status, self._index)
        results = self._kernel.compute(inputs)
        write_node_index(self._status, LOADING)
        return results

    def release(self) -> None:
        self._kernel.release()


def error_reply(error: BaseException) -> tuple[str, tuple[str, str, str]]:
    """What the child sends for an exception: its class name, message and hint."""
    if isinstance(error, OpbridgeError):
        return "error", (type(error).__name__, error.message, error.hint)
    return "error", (type(error).__name__, str(error), "")


_BUILTIN_ERRORS: dict[str, type[Exception]] = {"ValueError": ValueError, "TypeError": TypeError}


def _error_of(name: str, message: str, hint: str) -> BaseException:
    """The child's exception, rebuilt as the same opbridge error class (others as RuntimeError)."""
    kind = getattr(opbridge_errors, name, None)
    if isinstance(kind, type) and issubclass(kind, OpbridgeError):
        return kind(message, hint=hint)
    if name in _BUILTIN_ERRORS:
        return _BUILTIN_ERRORS[name](message)
    return RuntimeError(f"{name}: {message}")


class IsolatedExecutor:
    """Runs a plugin session in a child process; `graph` and `run` as NativeExecutor's."""

    def __init__(self, plugin: str | os.PathLike[str], model: bytes, abi: str) -> None:
        self._plugin = os.fspath(plugin)
        descriptor, self._status_path = tempfile.mkstemp(prefix="opbridge-isolated-")
        with os.fdopen(descriptor, "wb") as status:
            status.write(_INDEX.pack(LOADING))
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        # The child imports opbridge (and the host extension) from where this process does.
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
        self._process = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE, str(request_read), str(reply_write), self._status_path],
            pass_fds=(request_read, reply_write),
            env=environment,
        )
        os.close(request_read)
        os.close(reply_write)
        self._requests: BinaryIO = os.fdopen(request_write, "wb")
        self._replies: BinaryIO = os.fdopen(reply_read, "rb")
        self._closed = False
        self.graph: Graph
        self._send((self._plugin, bytes(model), abi))
        reply = self._receive()
        if reply[0] == "error":
            self.close()
            raise _error_of(*reply[1])
        self.graph = reply[1]

    def _send(self, message: object) -> None:
        try:
            send_message(self._requests, message)
        except (BrokenPipeError, ConnectionError):
            raise self._died() from None

    def _receive(self) -> tuple[Any, ...]:
        try:
            return receive_message(self._replies)  # type: ignore[no-any-return]
        except (EOFError, ConnectionError, pickle.UnpicklingError):
            raise self._died() from None

    def _node_index(self) -> int:
        try:
            with open(self._status_path, "rb") as status:
                return int(_INDEX.unpack(status.read(_INDEX.size))[0])
        except (OSError, struct.error):
            return LOADING

    def _died(self) -> OpbridgeError:
        try:
            code = self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            code = self._process.wait()
        node = self._node_index()
        self.close()
        if code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        hint = "the plugin's own code failed; this process goes on, but the session is closed: open a new one"
        if node == LOADING or not hasattr(self, "graph"):
            return PluginLoadError(
                f"plugin {self._plugin}: the isolated child process {how} while loading the library or "
                "building the session",
                hint=hint,
            )
        running = self.graph.nodes[node].describe()
        return PluginKernelError(
            f"plugin {self._plugin}: the isolated child process {how} while running {running}", hint=hint
        )

    def run(self, inputs: Sequence[Array]) -> list[Array]:
        if self._closed:
            raise RuntimeError("the isolated plugin process has ended: the session is closed")
        self._send(list(inputs))
        reply = self._receive()
        if reply[0] == "error":
            raise _error_of(*reply[1])
        return reply[1]  # type: ignore[no-any-return]

    def close(self) -> None:
        """Stops the child (it releases its kernels and library first). Idempotent."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._requests.close()  # end of requests: the child closes its session and exits
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        with contextlib.suppress(OSError):
            self._replies.close()
        with contextlib.suppress(OSError):
            os.unlink(self._status_path)
