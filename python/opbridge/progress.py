# SPDX-License-Identifier: Apache-2.0
"""Progress of long work (a conversion's stages, a benchmark's models), on stderr.

    progress = Progress.for_stream(sys.stderr, quiet=arguments.quiet)
    progress.stage("planning memory")
    for case in range(count):
        progress.advance("golden outputs", case + 1, count)
    progress.done()

On a terminal the current stage is one line redrawn in place, with a bar
for counted work, and erased when the work is done, so a quick conversion
leaves no trace. Elsewhere (CI logs, pipes) lines cannot be erased, and
most conversions take well under a second, so nothing is written until
`delay` seconds have gone by: then the stage running at that moment is
written (a timer does it, so a long stage shows while it runs), and from
then on each stage is one plain line, and counted work a line at most every
`interval` seconds. stdout is never
used: the results printed there stay machine-readable.
"""

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import TextIO

BAR_WIDTH = 24


@dataclasses.dataclass
class Progress:
    stream: TextIO | None  # None: quiet
    terminal: bool = False
    delay: float = 2.0  # seconds before plain lines begin (not on a terminal)
    interval: float = 5.0  # seconds between plain lines of counted work
    clock: Callable[[], float] = time.monotonic
    _started: float = dataclasses.field(default=-1.0, init=False)
    _last_line: float = dataclasses.field(default=-1.0, init=False)
    _shown_label: str = dataclasses.field(default="", init=False)
    _drawn: bool = dataclasses.field(default=False, init=False)
    _current: str = dataclasses.field(default="", init=False)  # the latest text, shown or not
    _timer: threading.Timer | None = dataclasses.field(default=None, init=False)
    _lock: threading.Lock = dataclasses.field(default_factory=threading.Lock, init=False)

    @classmethod
    def for_stream(cls, stream: TextIO, *, quiet: bool = False, delay: float = 2.0) -> "Progress":
        """Progress on `stream` (a bar when it is a terminal), or none at all when `quiet`."""
        if quiet:
            return cls(None)
        return cls(stream, terminal=stream.isatty(), delay=delay)

    @classmethod
    def silent(cls) -> "Progress":
        return cls(None)

    def stage(self, label: str) -> None:
        """A new stage of uncounted work begins."""
        self._show(label, label)

    def advance(self, label: str, done: int, total: int) -> None:
        """`done` of `total` units of counted work (golden cases, models) are finished."""
        if self.terminal:
            filled = BAR_WIDTH * done // max(total, 1)
            text = f"{label} [{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total}"
        else:
            text = f"{label}: {done}/{total}"
        self._show(label, text, counted=True, last=done >= total)

    def clear(self) -> None:
        """Erases the redrawn line on a terminal, before printing to stdout mid-work (a table row)."""
        with self._lock:
            self._erase()

    def done(self) -> None:
        """The work is over (or failed): erases the redrawn line on a terminal, stops the timer."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._erase()
            self._started = -1.0
            self._shown_label = self._current = ""

    def _show(self, label: str, text: str, *, counted: bool = False, last: bool = False) -> None:
        if self.stream is None:
            return
        with self._lock:
            now = self.clock()
            self._current = text
            if self._started < 0:
                self._started = now
                if not self.terminal:
                    self._timer = threading.Timer(self.delay, self._delay_over)
                    self._timer.daemon = True
                    self._timer.start()
            if not self.terminal:
                if now - self._started < self.delay:
                    return
                if counted and label == self._shown_label and not last and now - self._last_line < self.interval:
                    return
            self._shown_label = label
            self._last_line = now
            self._write(text)

    def _delay_over(self) -> None:
        """The delay has passed with work still going: show the stage running now."""
        with self._lock:
            if self._timer is None or self._shown_label or not self._current:
                return
            self._shown_label = self._current
            self._last_line = self.clock()
            self._write(self._current)

    def _erase(self) -> None:
        """Erases the redrawn line (callers hold the lock)."""
        if self.stream is not None and self.terminal and self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
        self._drawn = False

    def _write(self, text: str) -> None:
        assert self.stream is not None
        if self.terminal:
            self.stream.write(f"\r\033[K{text}")
            self._drawn = True
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()
