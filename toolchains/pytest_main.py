# SPDX-License-Identifier: Apache-2.0
"""Runs the pytest files named on the command line as one Bazel test.

Used by `py_pytest_test` (//toolchains:python.bzl). It writes Bazel's JUnit
XML, keeps hypothesis from writing a database into the read-only runfiles
tree, makes hypothesis deterministic unless asked to explore, runs only this
shard's share of the tests when the target has `shard_count`, and treats
"no tests collected" as a failure: a test target that runs nothing should
not pass.
"""

import os
import pathlib
import sys

import hypothesis
import pytest

EXIT_NO_TESTS_COLLECTED = 5

# Deterministic by default, so a test result is a function of the code (and
# cacheable); OPBRIDGE_HYPOTHESIS_EXPLORE=1 (via --test_env) draws new examples.
hypothesis.settings.register_profile(
    "bazel",
    database=None,
    deadline=None,
    print_blob=True,
    derandomize=os.environ.get("OPBRIDGE_HYPOTHESIS_EXPLORE") != "1",
)
hypothesis.settings.load_profile("bazel")


class Shard:
    """Keeps every `total`-th collected test, starting at `index` (Bazel's test sharding protocol).

    Round robin over the collection order, so that the slow tests of one file
    are spread over the shards rather than landing in one.
    """

    def __init__(self, index: int, total: int) -> None:
        if not 0 <= index < total:
            raise ValueError(f"shard index {index} is not in [0, {total})")
        self.index = index
        self.total = total
        self.collected = 0
        self.kept = 0

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        self.collected = len(items)
        kept = [item for position, item in enumerate(items) if position % self.total == self.index]
        others = [item for position, item in enumerate(items) if position % self.total != self.index]
        if others:
            config.hook.pytest_deselected(items=others)
        items[:] = kept
        self.kept = len(kept)


def shard_from_environment(environment: os._Environ[str] | dict[str, str]) -> Shard | None:
    """The shard Bazel asks for (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX), None when the test is not sharded.

    Touches TEST_SHARD_STATUS_FILE: it tells Bazel that the runner shards, so
    that a runner that ran every test in every shard would be reported.
    """
    total = int(environment.get("TEST_TOTAL_SHARDS", "0") or "0")
    if total <= 1:
        return None
    status_file = environment.get("TEST_SHARD_STATUS_FILE")
    if status_file:
        pathlib.Path(status_file).touch()
    return Shard(int(environment.get("TEST_SHARD_INDEX", "0")), total)


def main(argv: list[str]) -> int:
    arguments = ["-p", "no:cacheprovider", "-q", *argv]
    xml_output = os.environ.get("XML_OUTPUT_FILE")
    if xml_output:
        arguments.append(f"--junitxml={xml_output}")
    shard = shard_from_environment(os.environ)
    status = pytest.main(arguments, plugins=[shard] if shard else [])
    if status == EXIT_NO_TESTS_COLLECTED:
        if shard is not None and shard.collected > shard.kept == 0:
            # More shards than tests: this one has nothing to run, the others run them all.
            return 0
        print(f"pytest_main: no tests collected from {argv}", file=sys.stderr)
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
