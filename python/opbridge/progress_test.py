# SPDX-License-Identifier: Apache-2.0
"""Progress: a redrawn bar on a terminal (erased at the end), plain lines elsewhere only after
the delay, nothing when quiet."""

import io

from opbridge.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_begin_after_the_delay_and_counted_work_is_throttled() -> None:
    stream, clock = io.StringIO(), Clock()
    progress = Progress(stream, terminal=False, delay=2.0, interval=5.0, clock=clock)
    progress.stage("reading")
    clock.now = 1.0
    progress.stage("planning")  # a quick conversion: nothing in the log
    assert stream.getvalue() == ""
    clock.now = 2.5
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


def test_quiet_writes_nothing() -> None:
    stream = io.StringIO()
    progress = Progress.for_stream(stream, quiet=True)
    progress.stage("planning")
    progress.advance("golden outputs", 1, 1)
    progress.done()
    assert stream.getvalue() == ""
