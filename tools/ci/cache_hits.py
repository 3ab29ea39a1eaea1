"""Reads a Bazel execution log and checks remote-cache behaviour for CI.

    cache_hits.py ratio LOG --name NAME [--minimum 0.95]
        Prints how many of the logged actions were remote cache hits and
        fails below the minimum ratio.
    cache_hits.py poison LOG --expected-tests FILE --changed-source PATH
        After one source file changed: checks that the tests that missed the
        cache are exactly those in FILE (one label a line, e.g. from
        `bazel query 'tests(rdeps(//..., //pkg:file.c))'`) that ran, that
        every other test hit, and that every compile that missed compiled
        PATH.

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
        spawns.append(
            Spawn(
                mnemonic=entry.get("mnemonic", ""),
                progress_message=entry.get("progressMessage", ""),
                remote_cache_hit=bool(entry.get("remoteCacheHit", False)),
                listed_outputs=tuple(entry.get("listedOutputs", [])),
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


def check_poison(spawns: list[Spawn], expected_tests: set[str], changed_source: str) -> bool:
    tests_run = {spawn.test_label: spawn for spawn in spawns if spawn.test_label}
    missed_tests = {label for label, spawn in tests_run.items() if not spawn.remote_cache_hit}
    should_miss = expected_tests & tests_run.keys()
    misses_by_mnemonic = collections.Counter(spawn.mnemonic for spawn in spawns if not spawn.remote_cache_hit)
    print(
        f"after changing {changed_source}: {len(missed_tests)} of {len(tests_run)} tests missed the cache; "
        f"misses by action: {dict(sorted(misses_by_mnemonic.items()))}"
    )
    ok = True
    if not should_miss:
        print("  FAIL: no test that depends on the changed source ran")
        ok = False
    for label in sorted(should_miss - missed_tests):
        print(f"  FAIL: {label} depends on {changed_source} but was served from the cache")
        ok = False
    for label in sorted(missed_tests - should_miss):
        print(f"  FAIL: {label} does not depend on {changed_source} but missed the cache")
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
        print(f"  rerun (dependent): {', '.join(sorted(missed_tests))}")
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
    poison.add_argument("--expected-tests", type=pathlib.Path, required=True)
    poison.add_argument("--changed-source", required=True)
    options = parser.parse_args(argv)

    spawns = read_spawns(options.log)
    if options.command == "ratio":
        return 0 if check_ratio(spawns, options.name, options.minimum) else 1
    expected = {line.strip() for line in options.expected_tests.read_text().splitlines() if line.strip()}
    return 0 if check_poison(spawns, expected, options.changed_source) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
