# SPDX-License-Identifier: Apache-2.0
"""Progress: a redrawn bar on a terminal (erased at the end), plain lines elsewhere only after
the delay, nothing when quiet."""

import io
import time

from opbridge.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_begin_after_the_delay_and_counted_work_is_throttled() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress(stream, terminal=False, delay=60.0, interval=5.0, clock=clock)
    progress.stage("reading")
    clock.now = 1.0
    progress.stage("planning")  # a quick conversion: nothing in the log
    assert stream.getvalue() == ""
    clock.now = 60.5
    progress.stage("checking")
    for case in range(1, 21):
        clock.now += 1.0
        progress.advance("golden outputs", case, 20)
    progress.done()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "checking"
    assert lines[-1] == "golden outputs: 20/20"  # the last count always shows
    assert 3 <= len(lines) <= 7  # one line per 5 s of counted work, not 20
    assert "\r" not in stream.getvalue()


def test_terminal_bar_is_redrawn_and_erased() -> None:
    stream = io.StringIO()
    progress = Progress(stream, terminal=True, clock=Clock())
    progress.stage("planning")
    progress.advance("golden outputs", 5, 20)
    progress.done()
    text = stream.getvalue()
    assert "\r\033[Kgolden outputs [######..................] 5/20" in text
    assert text.endswith("\r\033[K") and "\n" not in text


def test_clear_erases_the_line_for_a_printed_row() -> None:
    stream = io.StringIO()
    progress = Progress(stream, terminal=True, clock=Clock())
    progress.advance("models", 1, 5)
    progress.clear()
    assert stream.getvalue().endswith("\r\033[K")
    progress.clear()  # nothing drawn since: nothing more written
    assert stream.getvalue().count("\r\033[K") == 2


def test_quiet_writes_nothing() -> None:
    stream = io.StringIO()
    progress = Progress.for_stream(stream, quiet=True)
    progress.stage("planning")
    progress.advance("golden outputs", 1, 1)
    progress.done()
    assert stream.getvalue() == ""


def test_a_long_stage_shows_while_it_runs() -> None:
    stream = io.StringIO()
    progress = Progress(stream, terminal=False, delay=0.05)
    progress.stage("reading")
    progress.stage("placing the arena")  # then nothing more for a while
    deadline = time.monotonic() + 10
    while not stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stream.getvalue() == "placing the arena\n"
    progress.done()


def test_done_stops_the_timer() -> None:
    stream = io.StringIO()
    progress = Progress(stream, terminal=False, delay=0.05)
    progress.stage("reading")
    progress.done()
    time.sleep(0.2)
    assert stream.getvalue() == ""
