# SPDX-License-Identifier: Apache-2.0
"""cache_hits.py reads Bazel's JSON execution log and judges hits and misses."""

import json
import pathlib

import cache_hits
import pytest


def spawn(mnemonic: str, message: str, hit: bool, outputs: list[str] | None = None, inputs: dict | None = None) -> dict:
    entry = {"mnemonic": mnemonic, "progressMessage": message, "listedOutputs": outputs or ["bazel-out/x.o"]}
    entry["inputs"] = [{"path": path, "digest": {"hash": digest}} for path, digest in (inputs or {}).items()]
    if hit:
        entry["remoteCacheHit"] = True  # Bazel leaves the field out when false
    return entry


def spawns_of_test(label: str, hit: bool, program: str = "v1") -> list[dict]:
    """A test's two spawns: the run, then the XML report written from its log."""
    logs = f"bazel-out/k8-fastbuild/testlogs/{label.strip('/').replace(':', '/')}"
    inputs = {f"bazel-out/bin/{label}": program}
    return [
        spawn("TestRunner", f"Testing {label}", hit, [f"{logs}/test.exited_prematurely", f"{logs}/test.xml"], inputs),
        spawn("TestRunner", f"Testing {label}", True, [f"{logs}/test.xml"], inputs),
    ]


def write_log(path: pathlib.Path, entries: list[dict]) -> pathlib.Path:
    # Bazel 4 writes pretty-printed objects one after another, not a JSON array.
    path.write_text("".join(json.dumps(entry, indent=2) + "\n" for entry in entries))
    return path


def test_reads_concatenated_objects(tmp_path: pathlib.Path) -> None:
    log = write_log(
        tmp_path / "log", [spawn("CppCompile", "Compiling a.c", True), spawn("CppLink", "Linking a", False)]
    )
    spawns = cache_hits.read_spawns(log)
    assert [(s.mnemonic, s.remote_cache_hit) for s in spawns] == [("CppCompile", True), ("CppLink", False)]


@pytest.mark.parametrize(("hits", "misses", "passes"), [(95, 5, True), (94, 6, False), (0, 0, False)])
def test_ratio_threshold(tmp_path: pathlib.Path, hits: int, misses: int, passes: bool) -> None:
    entries = [spawn("CppCompile", f"Compiling {i}.c", True) for i in range(hits)]
    entries += [spawn("CppCompile", f"Compiling m{i}.c", False) for i in range(misses)]
    assert cache_hits.main(["ratio", str(write_log(tmp_path / "log", entries)), "--name", "t"]) == (0 if passes else 1)


def poison_check(tmp_path: pathlib.Path, entries: list[dict], expected: list[str], baseline: list[dict]) -> int:
    expected_file = tmp_path / "expected.txt"
    expected_file.write_text("\n".join(expected) + "\n")
    log = write_log(tmp_path / "log", entries)
    before = write_log(tmp_path / "baseline", baseline)
    return cache_hits.main(
        ["poison", str(log), "--baseline", str(before), "--expected-tests", str(expected_file),
         "--changed-source", "cc/kernels/k.c"]
    )  # fmt: skip


BASELINE = spawns_of_test("//cc/kernels:k_test", hit=True) + spawns_of_test("//tests:other_test", hit=True)
BASELINE += spawns_of_test("//cc/kernels:k_gc_test", hit=True)


def test_poison_passes_when_exactly_the_changed_tests_miss(tmp_path: pathlib.Path) -> None:
    entries = [spawn("CppCompile", "Compiling cc/kernels/k.c", False), spawn("CppCompile", "Compiling other.c", True)]
    entries += spawns_of_test("//cc/kernels:k_test", hit=False, program="v2")
    entries += spawns_of_test("//tests:other_test", hit=True)
    # A dependent whose program links to the same bytes (the changed code is unused) may hit;
    # a dependent that is `manual` does not run at all.
    entries += spawns_of_test("//cc/kernels:k_gc_test", hit=True)
    expected = ["//cc/kernels:k_test", "//cc/kernels:k_gc_test", "//cc/kernels:k_manual_test"]
    assert poison_check(tmp_path, entries, expected, BASELINE) == 0


def test_poison_fails_when_a_changed_test_hits(tmp_path: pathlib.Path) -> None:
    entries = spawns_of_test("//cc/kernels:k_test", hit=True, program="v2") + spawns_of_test("//tests:other_test", True)
    assert poison_check(tmp_path, entries, ["//cc/kernels:k_test"], BASELINE) == 1


def test_poison_fails_when_an_unchanged_test_misses(tmp_path: pathlib.Path) -> None:
    entries = spawns_of_test("//cc/kernels:k_test", hit=False, program="v2")
    entries += spawns_of_test("//tests:other_test", hit=False)
    assert poison_check(tmp_path, entries, ["//cc/kernels:k_test"], BASELINE) == 1


def test_poison_fails_when_a_non_dependent_test_changes(tmp_path: pathlib.Path) -> None:
    entries = spawns_of_test("//cc/kernels:k_test", hit=False, program="v2")
    entries += spawns_of_test("//tests:other_test", hit=False, program="v2")
    assert poison_check(tmp_path, entries, ["//cc/kernels:k_test"], BASELINE) == 1


def test_poison_fails_when_no_dependent_changed(tmp_path: pathlib.Path) -> None:
    entries = spawns_of_test("//cc/kernels:k_test", hit=True) + spawns_of_test("//tests:other_test", hit=True)
    assert poison_check(tmp_path, entries, ["//cc/kernels:k_test"], BASELINE) == 1


def test_poison_fails_when_an_unrelated_compile_misses(tmp_path: pathlib.Path) -> None:
    entries = [spawn("CppCompile", "Compiling other.c", False)]
    entries += spawns_of_test("//cc/kernels:k_test", hit=False, program="v2")
    assert poison_check(tmp_path, entries, ["//cc/kernels:k_test"], BASELINE) == 1
