# SPDX-License-Identifier: Apache-2.0
"""Runs the pytest files named on the command line as one Bazel test.

Used by `py_pytest_test` (//toolchains:python.bzl). It writes Bazel's JUnit
XML, keeps hypothesis from writing a database into the read-only runfiles
tree, makes hypothesis deterministic unless asked to explore, and treats
"no tests collected" as a failure: a test target that runs nothing should
not pass.
"""

import os
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


def main(argv: list[str]) -> int:
    arguments = ["-p", "no:cacheprovider", "-q", *argv]
    xml_output = os.environ.get("XML_OUTPUT_FILE")
    if xml_output:
        arguments.append(f"--junitxml={xml_output}")
    status = pytest.main(arguments)
    if status == EXIT_NO_TESTS_COLLECTED:
        print(f"pytest_main: no tests collected from {argv}", file=sys.stderr)
    return int(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
