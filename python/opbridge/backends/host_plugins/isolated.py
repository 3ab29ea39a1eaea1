# SPDX-License-Identifier: Apache-2.0
"""Fault isolation for untrusted plugin libraries: `CustomOpSession(..., isolate=True)`.

The library is loaded, and its kernels run, in a child process (started
with multiprocessing's "spawn" method: a fresh interpreter, nothing of the
caller's state) that hosts an ordinary in-process CustomOpSession and
answers over a pipe. Before each node runs, the child writes the node's
index into a shared integer, so when plugin code kills the child
(segmentation fault, abort, exit) the parent can name the node and op in
the PluginKernelError it raises; the caller's process goes on. A session
whose child died is closed: open a new one to retry.

Inputs and outputs cross the pipe pickled (arrays are copied both ways):
the cost per run is measured by `bazel run //tests/benchmarks:native_plugins`.
"""

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import numpy.typing as npt

from opbridge.backends.host_plugins.plugins import NodeKernel
from opbridge.errors import OpbridgeError, PluginKernelError, PluginLoadError
from opbridge.ir import Graph

Array = npt.NDArray[Any]

_LOADING = -1  # the shared node index before any node runs


class _TracedKernel:
    """A node's kernel that records, before each run, which node the child is in."""

    def __init__(self, kernel: NodeKernel, index: int, current: Any) -> None:
        self._kernel = kernel
        self._index = index
        self._current = current

    @property
    def created(self) -> bool:
        return self._kernel.created

    def compute(self, inputs: Sequence[Array]) -> list[Array]:
        self._current.value = self._index
        results = self._kernel.compute(inputs)
        self._current.value = _LOADING
        return results

    def release(self) -> None:
        self._kernel.release()


def _error_message(error: BaseException) -> tuple[str, str, str]:
    if isinstance(error, OpbridgeError):
        return type(error).__name__, error.message, error.hint
    return type(error).__name__, str(error), ""


def _serve(connection: Connection, open_session: Callable[[], Any], current: Any) -> None:
    """The child: one in-process session (`open_session()`: a CustomOpSession), runs on request
    until told to stop or the pipe closes. Every failure goes back to the parent."""
    try:
        session = open_session()
    except BaseException as error:
        connection.send(("error", _error_message(error)))
        return
    executor = session._executor
    executor.kernels = {index: _TracedKernel(kernel, index, current) for index, kernel in executor.kernels.items()}
    connection.send(("ready", session.graph))
    with session:
        while True:
            try:
                request = connection.recv()
            except EOFError:
                return
            if request is None:
                return
            try:
                connection.send(("outputs", session.run(request)))
            except BaseException as error:
                current.value = _LOADING
                connection.send(("error", _error_message(error)))


def _error_of(name: str, message: str, hint: str) -> BaseException:
    """The child's exception, rebuilt as the same opbridge error class (others as RuntimeError)."""
    import opbridge.errors as errors

    kind = getattr(errors, name, None)
    if isinstance(kind, type) and issubclass(kind, OpbridgeError):
        return kind(message, hint=hint)
    if name in ("ValueError", "TypeError"):
        return {"ValueError": ValueError, "TypeError": TypeError}[name](message)
    return RuntimeError(f"{name}: {message}")


class IsolatedExecutor:
    """Runs a plugin session in a child process; `graph` and `run` as NativeExecutor's."""

    def __init__(self, plugin: str | os.PathLike[str], open_session: Callable[[], Any]) -> None:
        """`open_session` (picklable: the child calls it) opens the in-process session on `plugin`."""
        context = multiprocessing.get_context("spawn")
        self._current = context.Value("i", _LOADING, lock=False)
        self._plugin = os.fspath(plugin)
        parent, child = context.Pipe()
        self._connection = parent
        self._process = context.Process(
            target=_serve,
            args=(child, open_session, self._current),
            name="opbridge-isolated-plugin",
            daemon=True,
        )
        self._process.start()
        child.close()
        self.graph: Graph
        reply = self._receive()
        if reply[0] == "error":
            self.close()
            raise _error_of(*reply[1])
        self.graph = reply[1]

    def _receive(self) -> tuple[Any, ...]:
        try:
            return self._connection.recv()  # type: ignore[no-any-return]
        except (EOFError, ConnectionError):
            raise self._died() from None

    def _died(self) -> OpbridgeError:
        self._process.join(timeout=5)
        code = self._process.exitcode
        node = self._current.value
        self.close()
        if code is not None and code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        hint = "the plugin's own code failed; this process goes on, but the session is closed: open a new one"
        if node == _LOADING or not hasattr(self, "graph"):
            return PluginLoadError(
                f"plugin {self._plugin}: the isolated child process {how} while loading the library or "
                "building the session",
                hint=hint,
            )
        described = self.graph.nodes[node].describe()
        return PluginKernelError(
            f"plugin {self._plugin}: the isolated child process {how} while running {described}", hint=hint
        )

    def run(self, inputs: Sequence[Array]) -> list[Array]:
        if self._process.exitcode is not None or self._connection.closed:
            raise RuntimeError("the isolated plugin process has ended: the session is closed")
        try:
            self._connection.send(list(inputs))
        except (BrokenPipeError, ConnectionError):
            raise self._died() from None
        reply = self._receive()
        if reply[0] == "error":
            raise _error_of(*reply[1])
        return reply[1]  # type: ignore[no-any-return]

    def close(self) -> None:
        """Stops the child (it releases its kernels and library first). Idempotent."""
        if not self._connection.closed:
            with contextlib.suppress(BrokenPipeError, ConnectionError, OSError):
                self._connection.send(None)
            self._connection.close()
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()
