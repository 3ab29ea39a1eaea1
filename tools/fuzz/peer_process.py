# SPDX-License-Identifier: Apache-2.0
"""A peer (TFLite Micro, LiteRT, onnxruntime) judging files in a worker process of its own.

The worker reads one path a line on stdin and answers one JSON line each; a peer that crashes or hangs on
a file takes only its worker down, which counts as rejecting the file, and the next file starts a new one.
Used by tflite_mutations.py and onnx_mutations.py.
"""

import json
import pathlib
import select
import subprocess
from collections.abc import Sequence
from typing import Any


class PeerProcess:
    """One peer's worker process, started by `command`, restarted after it crashes or hangs."""

    def __init__(self, name: str, command: Sequence[str], timeout: float) -> None:
        self.name, self.command, self.timeout = name, list(command), timeout
        self.process: subprocess.Popen[str] | None = None

    def send(self, path: pathlib.Path) -> bool:
        """Hands `path` to the worker (started if it is not running); False when it died on the way."""
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(f"{path}\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            return False
        return True

    def receive(self, sent: bool) -> dict[str, Any] | str:
        """The worker's verdict on the file sent last, or what became of the worker ("litert hung ...")."""
        if not sent or self.process is None:
            return self.stop("crashed")
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            return self.stop(f"hung (over {self.timeout:.0f} s)")
        line = self.process.stdout.readline()
        if not line:
            status = self.process.wait()
            return self.stop(f"crashed (signal {-status})" if status < 0 else f"crashed (exit status {status})")
        return json.loads(line)

    def judge(self, path: pathlib.Path) -> dict[str, Any] | str:
        return self.receive(self.send(path))

    def stop(self, what: str) -> str:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None
        return f"{self.name} {what}"

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
