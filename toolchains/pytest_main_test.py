# SPDX-License-Identifier: Apache-2.0
"""pytest_main's share of Bazel's test sharding: every test runs in exactly one shard."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

PYTEST_MAIN = pathlib.Path(__file__).with_name("pytest_main.py")

TESTS = "\n".join(f"def test_{number}():\n    pass\n" for number in range(7))


def _run(
    test_file: pathlib.Path, shard: tuple[int, int] | None, status_file: pathlib.Path | None = None
) -> tuple[int, set[str]]:
    """pytest_main's exit status and the tests it passed, as Bazel would start one shard."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("TEST_", "XML_OUTPUT"))}
    if shard is not None:
        environment["TEST_SHARD_INDEX"], environment["TEST_TOTAL_SHARDS"] = str(shard[0]), str(shard[1])
    if status_file is not None:
        environment["TEST_SHARD_STATUS_FILE"] = str(status_file)
    result = subprocess.run(
        [sys.executable, str(PYTEST_MAIN), "-rA", str(test_file)],
        env=environment,
        cwd=test_file.parent,
        capture_output=True,
        text=True,
        check=False,
    )
    passed = set(re.findall(r"PASSED \S*::(test_\d+)", result.stdout))
    return result.returncode, passed


@pytest.fixture
def test_file(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "seven_test.py"
    path.write_text(TESTS)
    return path


def test_without_sharding_every_test_runs(test_file: pathlib.Path) -> None:
    status, passed = _run(test_file, None)
    assert status == 0
    assert passed == {f"test_{number}" for number in range(7)}


@pytest.mark.parametrize("total", [2, 3])
def test_each_test_runs_in_exactly_one_shard(test_file: pathlib.Path, total: int) -> None:
    runs = [_run(test_file, (index, total), test_file.parent / f"status_{index}") for index in range(total)]
    assert [status for status, _ in runs] == [0] * total
    shares = [passed for _, passed in runs]
    assert sum(len(share) for share in shares) == 7, shares
    assert set().union(*shares) == {f"test_{number}" for number in range(7)}
    # Round robin: no shard gets more than its share plus one.
    assert max(len(share) for share in shares) - min(len(share) for share in shares) <= 1
    assert all((test_file.parent / f"status_{index}").exists() for index in range(total))


def test_a_shard_left_without_tests_passes(test_file: pathlib.Path) -> None:
    status, passed = _run(test_file, (8, 9))
    assert (status, passed) == (0, set())


def test_a_file_without_tests_still_fails(tmp_path: pathlib.Path) -> None:
    empty = tmp_path / "empty_test.py"
    empty.write_text("")
    assert _run(empty, None)[0] == 5
    assert _run(empty, (0, 2))[0] == 5
