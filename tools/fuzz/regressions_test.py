# SPDX-License-Identifier: Apache-2.0
"""Every committed seed and every input the fuzzer ever flagged, replayed through its target (without atheris).

The contract of tools/fuzz/targets.py: each reader accepts its input or
refuses it with an OpbridgeError, within TIME_LIMIT_SECONDS; any other
exception, or running over the limit, fails the test naming the file.
"""

import pathlib
import signal
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).absolute().parent))

import targets

TIME_LIMIT_SECONDS = 30  # the first .pt2 input imports torch (seconds); the fuzzer's per-input limit is 10 s
# Findings saved here whose fix belongs to a reader under change elsewhere: expected to fail until fixed
# (strict: once the reader is fixed, the entry must go).
OPEN_FINDINGS: dict[str, str] = {}


def cases() -> list:
    found = []
    for name in targets.TARGETS:
        for kind, files in (("corpus", targets.seed_files(name)), ("regression", targets.regression_files(name))):
            for path in files:
                key = f"{name}/{path.name}"
                marks = [pytest.mark.xfail(reason=OPEN_FINDINGS[key], strict=True)] if key in OPEN_FINDINGS else []
                found.append(pytest.param(name, path, id=f"{kind}:{key}", marks=marks))
    return found


class Overran(BaseException):
    """Raised by the alarm; a BaseException, so no reader's `except Exception` swallows it."""


def _overran(signum: int, frame: object) -> None:
    raise Overran


@pytest.mark.parametrize(("name", "path"), cases())
def test_the_reader_accepts_or_refuses_with_a_typed_error(name: str, path: pathlib.Path) -> None:
    if targets.missing_modules(name):
        pytest.fail(f"target {name} needs {targets.missing_modules(name)}: add them to the test's deps")
    previous = signal.signal(signal.SIGALRM, _overran)
    signal.alarm(TIME_LIMIT_SECONDS)
    try:
        targets.run_target(name, path.read_bytes())  # an exception other than OpbridgeError fails here
    except Overran:
        pytest.fail(f"{name} took over {TIME_LIMIT_SECONDS} s on {path}: a hang")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_every_target_has_seeds() -> None:
    assert all(targets.seed_files(name) for name in targets.TARGETS), "each target has committed seeds"


def test_the_contract_lets_other_exceptions_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from opbridge.errors import ModelFormatError

    def refuses(data: bytes) -> None:
        raise ModelFormatError("refused")

    def breaks(data: bytes) -> None:
        raise IndexError("a reader bug")

    monkeypatch.setitem(targets.TARGETS, "refuses", targets.Target("refuses", "", lambda: refuses))
    monkeypatch.setitem(targets.TARGETS, "breaks", targets.Target("breaks", "", lambda: breaks))
    targets.run_target("refuses", b"")
    with pytest.raises(IndexError):
        targets.run_target("breaks", b"")
