# SPDX-License-Identifier: Apache-2.0
"""Render a local HTML page in headless Chromium and report its console errors.

Standard library only: Chromium is driven through the DevTools protocol over
`--remote-debugging-pipe` (JSON messages, each ended by a NUL byte; Chromium
reads commands from its file descriptor 3 and writes replies and events to
its file descriptor 4), so tests need no chromedriver, Playwright or
websocket package.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import math
import os
import pathlib
import select
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Any

CHROMIUM = pathlib.Path("/usr/bin/chromium")

# Without the background-networking flags Chromium keeps dialling Google
# services, which this machine's closed network refuses; as root it needs
# --no-sandbox.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)

STDERR_TAIL_CHARS = 4000


class BrowserError(RuntimeError):
    """Chromium is missing, died, or the page could not be loaded or evaluated."""


class BrowserTimeoutError(BrowserError):
    """Chromium did not answer within the time allowed."""


@dataclass(frozen=True)
class PageResult:
    # console.error calls, uncaught exceptions and error log entries (such as
    # failed resource loads), each as text with its source and line if known.
    console_errors: list[str]
    # The JSON value of the expression evaluated after the load event.
    value: object
    # The full-page PNG, if a screenshot was asked for.
    screenshot: bytes | None


def render_page(
    path: pathlib.Path,
    expression: str,
    *,
    screenshot: pathlib.Path | None = None,
    width: int = 1280,
    height: int = 900,
    timeout_seconds: float = 60,
) -> PageResult:
    """Load `path` in a fresh headless Chromium, evaluate `expression` after load.

    With `screenshot`, the whole page (`width` CSS pixels wide, as tall as its
    content) is also written there as a PNG.
    """
    path = pathlib.Path(path).resolve()
    if not CHROMIUM.exists():
        raise BrowserError(
            f"{CHROMIUM} is missing: run ./bazelw, which installs the pinned Debian "
            "packages of toolchains/debian_packages.txt (chromium among them)"
        )
    if not path.is_file():
        raise BrowserError(f"no page to render: {path} does not exist")
    with tempfile.TemporaryDirectory(prefix="opbridge-chromium-", ignore_cleanup_errors=True) as scratch:
        session = _Chromium(pathlib.Path(scratch), path, time.monotonic() + timeout_seconds, timeout_seconds)
        try:
            return session.render(expression, screenshot, width, height)
        finally:
            session.stop()


class _Chromium:
    """One Chromium process and its DevTools pipe, for one page."""

    def __init__(self, scratch: pathlib.Path, page: pathlib.Path, deadline: float, timeout_seconds: float) -> None:
        self.page = page
        self.deadline = deadline
        self.timeout_seconds = timeout_seconds
        self.next_id = 0
        self.buffer = b""
        self.session_id: str | None = None
        self.console_errors: list[str] = []
        self.load_fired = False
        profile = scratch / "profile"
        home = scratch / "home"
        for folder in (profile, home, home / ".config", home / ".cache"):
            folder.mkdir()
        # Under `bazel test` HOME may be missing or read-only, and Chromium
        # may write there (and to the XDG folders) besides its --user-data-dir.
        env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"))
        env["XDG_CACHE_HOME"] = str(home / ".cache")
        # Stderr goes to a file: a pipe nobody reads would fill and block Chromium.
        self.stderr_path = scratch / "stderr.txt"
        command_read, self.command_write = os.pipe()  # Chromium's fd 3
        self.reply_read, reply_write = os.pipe()  # Chromium's fd 4
        try:
            with open(self.stderr_path, "wb") as stderr:
                self.process = subprocess.Popen(
                    [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                    env=env,
                    pass_fds=(3, 4),
                    preexec_fn=_pipes_to_3_and_4(command_read, reply_write),
                    # Its own process group, so stop() also ends the renderers and helpers.
                    start_new_session=True,
                )
        except BaseException:
            for fd in (self.command_write, self.reply_read):
                os.close(fd)
            raise
        finally:
            os.close(command_read)
            os.close(reply_write)

    def render(self, expression: str, screenshot: pathlib.Path | None, width: int, height: int) -> PageResult:
        target = self.call("Target.createTarget", {"url": "about:blank"}, step="open a tab")
        attached = self.call(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            step="attach to the tab",
        )
        self.session_id = attached["sessionId"]
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable", step=f"enable {domain}")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            step="set the viewport",
        )
        self.load_fired = False  # a late load event of the tab's about:blank must not count
        navigated = self.call("Page.navigate", {"url": self.page.as_uri()}, step="navigate")
        if navigated.get("errorText"):
            raise BrowserError(f"{self.page}: navigation failed: {navigated['errorText']}")
        while not self.load_fired:
            self.dispatch(self.receive("wait for the load event"))
        # The load event seen may still be about:blank's (sent before navigate was): wait until the
        # document in the tab is our page, fully loaded.
        loaded = f"document.readyState === 'complete' && location.href === {json.dumps(self.page.as_uri())}"
        while not self.evaluate_quietly(loaded):
            if time.monotonic() > self.deadline:
                raise BrowserTimeoutError(
                    f"{self.page}: the page did not finish loading in {self.timeout_seconds:g} s "
                    f"(step: wait for the page){self.stderr_tail()}"
                )
            time.sleep(0.02)
        evaluated = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            step="evaluate the expression",
        )
        if "exceptionDetails" in evaluated:
            raise BrowserError(
                f"{self.page}: evaluating {expression!r} threw: {_exception_text(evaluated['exceptionDetails'])}"
            )
        png = None
        if screenshot is not None:
            png = self.capture(width, height)
            screenshot.write_bytes(png)
        return PageResult(list(self.console_errors), evaluated["result"].get("value"), png)

    def evaluate_quietly(self, expression: str) -> object:
        """`expression`'s value (None if it throws)."""
        result = self.call(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, step="wait for the page"
        )
        return None if "exceptionDetails" in result else result["result"].get("value")

    def capture(self, width: int, height: int) -> bytes:
        metrics = self.call("Page.getLayoutMetrics", step="measure the page")
        content_height = math.ceil(metrics["cssContentSize"]["height"])
        shot = self.call(
            "Page.captureScreenshot",
            {
                "format": "png",
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": max(content_height, height), "scale": 1},
            },
            step="take the screenshot",
        )
        return base64.b64decode(shot["data"])

    def call(self, method: str, params: dict[str, Any] | None = None, *, step: str) -> dict[str, Any]:
        """Send one command and return its result, recording the events that come first."""
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session_id is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session_id
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self.command_write, data) :]
        except BrokenPipeError:
            raise self.died(step) from None
        while True:
            reply = self.receive(step)
            if reply.get("id") != self.next_id:
                self.dispatch(reply)
                continue
            if "error" in reply:
                raise BrowserError(f"{self.page}: {method} ({step}) failed: {reply['error'].get('message')}")
            return reply.get("result", {})

    def receive(self, step: str) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            remaining = self.deadline - time.monotonic()
            readable = select.select([self.reply_read], [], [], max(remaining, 0))[0] if remaining > 0 else []
            if not readable:
                raise BrowserTimeoutError(
                    f"{self.page}: Chromium did not answer in {self.timeout_seconds:g} s "
                    f"(step: {step}){self.stderr_tail()}"
                )
            chunk = os.read(self.reply_read, 1 << 20)
            if not chunk:
                raise self.died(step)
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def dispatch(self, event: dict[str, Any]) -> None:
        if event.get("sessionId") != self.session_id:
            return
        method, params = event.get("method"), event.get("params", {})
        if method == "Page.loadEventFired":
            self.load_fired = True
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(_remote_object_text(arg) for arg in params.get("args", []))
            frames = params.get("stackTrace", {}).get("callFrames", [])
            where = _location(frames[0].get("url"), frames[0].get("lineNumber")) if frames else ""
            self.console_errors.append(f"console.{params['type']}: {text}{where}")
        elif method == "Runtime.exceptionThrown":
            self.console_errors.append(_exception_text(params["exceptionDetails"]))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            entry = params["entry"]
            where = _location(entry.get("url"), entry.get("lineNumber"))
            self.console_errors.append(f"{entry.get('source', 'log')}: {entry.get('text', '')}{where}")

    def died(self, step: str) -> BrowserError:
        code = self.process.poll()
        status = f"exited with status {code}" if code is not None else "closed its DevTools pipe"
        return BrowserError(f"{self.page}: Chromium {status} (step: {step}){self.stderr_tail()}")

    def stderr_tail(self) -> str:
        try:
            text = self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""
        return f"\nChromium's stderr (tail):\n{text[-STDERR_TAIL_CHARS:]}" if text.strip() else ""

    def stop(self) -> None:
        """Ask Chromium to close, then make sure it and its helpers are gone."""
        try:
            if self.process.poll() is None:
                self.deadline = min(self.deadline, time.monotonic() + 5)
                self.session_id = None
                self.call("Browser.close", step="close the browser")
        except BrowserError:
            pass
        finally:
            for fd in (self.command_write, self.reply_read):
                os.close(fd)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
            # Helpers (zygote, crashpad) may outlive the main process otherwise.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _pipes_to_3_and_4(command_read: int, reply_write: int) -> Any:
    def move() -> None:
        # Copy above 4 first, so that neither dup2 overwrites the other's source.
        high_read = fcntl.fcntl(command_read, fcntl.F_DUPFD, 10)
        high_write = fcntl.fcntl(reply_write, fcntl.F_DUPFD, 10)
        os.dup2(high_read, 3)
        os.dup2(high_write, 4)

    return move


def _location(url: str | None, line: int | None) -> str:
    # DevTools line numbers are 0-based; people count from 1.
    if not url:
        return ""
    return f" ({url}:{line + 1})" if line is not None else f" ({url})"


def _remote_object_text(value: dict[str, Any]) -> str:
    if "value" in value:
        return value["value"] if isinstance(value["value"], str) else json.dumps(value["value"])
    return value.get("description") or value.get("unserializableValue") or value.get("type", "?")


def _exception_text(details: dict[str, Any]) -> str:
    # `text` is only "Uncaught"; the exception's description has the message and stack.
    text = details.get("text", "exception")
    exception = details.get("exception")
    if exception:
        text = f"{text} {_remote_object_text(exception).splitlines()[0]}"
    url = details.get("url")
    if not url:
        frames = details.get("stackTrace", {}).get("callFrames", [])
        url = frames[0].get("url") if frames else None
    return f"{text}{_location(url, details.get('lineNumber'))}"
