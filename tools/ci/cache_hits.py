# SPDX-License-Identifier: Apache-2.0
"""Reads a Bazel execution log and checks remote-cache behaviour for CI.

    cache_hits.py ratio LOG --name NAME [--minimum 0.95]
        Prints how many of the logged actions were remote cache hits and
        fails below the minimum ratio.
    cache_hits.py poison LOG --baseline LOG0 --expected-tests FILE --changed-source PATH
        After one source file changed (LOG0: the same clone's run before the
        change): checks that every test whose inputs changed missed the
        cache and ran, that every test whose inputs are byte-identical to
        LOG0's hit it, that only tests in FILE (one label a line, e.g. from
        `bazel query 'tests(rdeps(//..., //pkg:file.c))'`) changed, and that
        every compile that missed compiled PATH. (A dependent test may keep
        identical inputs: a program that does not call the changed function
        links to the same bytes when unused code is dropped.)

LOG is what `bazel ... --execution_log_json_file=LOG` writes: one JSON
object per executed or cache-served action ("spawn"), concatenated.
"""

import argparse
import collections
import dataclasses
import json
import pathlib
import sys


@dataclasses.dataclass(frozen=True)
class Spawn:
    mnemonic: str
    progress_message: str
    remote_cache_hit: bool
    listed_outputs: tuple[str, ...]
    # (path, digest) of every input; kept for test runs only (the poison check compares them).
    inputs: frozenset[tuple[str, str]] = frozenset()

    @property
    def test_label(self) -> str | None:
        """The test this spawn ran, or None.

        A test without its own XML report has two TestRunner spawns: the run,
        and one that writes test.xml from the run's log; only the run counts.
        """
        prefix = "Testing "
        writes_only_xml = all(output.endswith("/test.xml") for output in self.listed_outputs)
        if self.mnemonic == "TestRunner" and self.progress_message.startswith(prefix) and not writes_only_xml:
            return self.progress_message[len(prefix) :].split(" ")[0]
        return None


def read_spawns(log: pathlib.Path) -> list[Spawn]:
    text = log.read_text()
    decoder = json.JSONDecoder()
    spawns = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return spawns
        entry, position = decoder.raw_decode(text, position)
        mnemonic = entry.get("mnemonic", "")
        inputs = frozenset()
        if mnemonic == "TestRunner":
            inputs = frozenset(
                (item.get("path", ""), item.get("digest", {}).get("hash", "")) for item in entry.get("inputs", [])
            )
        spawns.append(
            Spawn(
                mnemonic=mnemonic,
                progress_message=entry.get("progressMessage", ""),
                remote_cache_hit=bool(entry.get("remoteCacheHit", False)),
                listed_outputs=tuple(entry.get("listedOutputs", [])),
                inputs=inputs,
            )
        )


def check_ratio(spawns: list[Spawn], name: str, minimum: float) -> bool:
    if not spawns:
        print(f"{name}: the execution log lists no actions")
        return False
    hits = sum(spawn.remote_cache_hit for spawn in spawns)
    ratio = hits / len(spawns)
    print(f"{name}: {hits}/{len(spawns)} actions were remote cache hits ({ratio:.1%}; required {minimum:.0%})")
    for spawn in spawns:
        if not spawn.remote_cache_hit:
            print(f"  miss: {spawn.mnemonic}: {spawn.progress_message}")
    return ratio >= minimum


def check_poison(spawns: list[Spawn], baseline: list[Spawn], expected_tests: set[str], changed_source: str) -> bool:
    tests_run = {spawn.test_label: spawn for spawn in spawns if spawn.test_label}
    before = {spawn.test_label: spawn.inputs for spawn in baseline if spawn.test_label}
    changed = {label for label, spawn in tests_run.items() if before.get(label) != spawn.inputs}
    missed_tests = {label for label, spawn in tests_run.items() if not spawn.remote_cache_hit}
    misses_by_mnemonic = collections.Counter(spawn.mnemonic for spawn in spawns if not spawn.remote_cache_hit)
    print(
        f"after changing {changed_source}: {len(missed_tests)} of {len(tests_run)} tests missed the cache, "
        f"{len(changed)} had changed inputs; misses by action: {dict(sorted(misses_by_mnemonic.items()))}"
    )
    ok = True
    if not changed & expected_tests:
        print("  FAIL: no test that depends on the changed source ran with changed inputs")
        ok = False
    for label in sorted(changed - missed_tests):
        print(f"  FAIL: {label}'s inputs changed but it was served from the cache")
        ok = False
    for label in sorted(missed_tests - changed):
        print(f"  FAIL: {label}'s inputs are unchanged but it missed the cache")
        ok = False
    for label in sorted(changed - expected_tests):
        print(f"  FAIL: {label} does not depend on {changed_source} but its inputs changed")
        ok = False
    for spawn in spawns:
        if (
            spawn.mnemonic == "CppCompile"
            and not spawn.remote_cache_hit
            and changed_source not in spawn.progress_message
        ):
            print(f"  FAIL: an unrelated compile missed the cache: {spawn.progress_message}")
            ok = False
    if ok:
        unchanged_dependents = sorted((expected_tests & tests_run.keys()) - changed)
        print(f"  rerun (inputs changed): {', '.join(sorted(missed_tests))}")
        print(f"  dependents with byte-identical inputs, still cached: {len(unchanged_dependents)}")
        print(f"  still cached: {len(tests_run) - len(missed_tests)} tests")
    return ok


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    ratio = commands.add_parser("ratio")
    ratio.add_argument("log", type=pathlib.Path)
    ratio.add_argument("--name", required=True)
    ratio.add_argument("--minimum", type=float, default=0.95)
    poison = commands.add_parser("poison")
    poison.add_argument("log", type=pathlib.Path)
    poison.add_argument("--baseline", type=pathlib.Path, required=True)
    poison.add_argument("--expected-tests", type=pathlib.Path, required=True)
    poison.add_argument("--changed-source", required=True)
    options = parser.parse_args(argv)

    spawns = read_spawns(options.log)
    if options.command == "ratio":
        return 0 if check_ratio(spawns, options.name, options.minimum) else 1
    expected = {line.strip() for line in options.expected_tests.read_text().splitlines() if line.strip()}
    baseline = read_spawns(options.baseline)
    return 0 if check_poison(spawns, baseline, expected, options.changed_source) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
