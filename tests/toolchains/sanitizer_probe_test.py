# SPDX-License-Identifier: Apache-2.0
"""sanitized_test builds a program and its dependencies under ASan + UBSan; --config=sanitize uses the same flags.

Runs the `manual` :sanitizer_probe_sanitized (built as data of this test) with each request: a signed
overflow and a heap overrun, both in a library the program links, must end it with the sanitizer's
report naming the library's function; no request must pass. Then the flags of `build:sanitize` in
.bazelrc against SANITIZER_COPTS, SANITIZER_LINKOPTS and SANITIZER_ENV in toolchains/emulated_test.bzl.
"""

import ast
import pathlib
import re
import subprocess

PROBE = pathlib.Path("tests/toolchains/sanitizer_probe_sanitized")
BAZELRC = pathlib.Path(".bazelrc")
RULES = pathlib.Path("toolchains/emulated_test.bzl")


def run_probe(request: str) -> subprocess.CompletedProcess[str]:
    assert PROBE.exists(), f"{PROBE} missing from runfiles"
    return subprocess.run([str(PROBE), request], capture_output=True, text=True, timeout=60, check=False)


def test_signed_overflow_in_a_dependency_is_fatal() -> None:
    result = run_probe("overflow")
    assert result.returncode != 0, result.stdout
    assert "sanitizer_probe_lib.c" in result.stderr, result.stderr
    assert "runtime error: signed integer overflow: 2147483647 + 1" in result.stderr, result.stderr


def test_heap_overrun_in_a_dependency_is_fatal() -> None:
    result = run_probe("out_of_bounds")
    assert result.returncode != 0, result.stdout
    assert "ERROR: AddressSanitizer: heap-buffer-overflow" in result.stderr, result.stderr
    assert "in sanitizer_probe_read" in result.stderr, result.stderr


def test_well_defined_run_passes() -> None:
    result = run_probe("none")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2", "7"]


def _bzl_constant(name: str) -> object:
    """A constant of toolchains/emulated_test.bzl (a Starlark list or dict of strings is a Python literal)."""
    match = re.search(rf"^{name} = (\[.*?\]|\{{.*?\}})$", RULES.read_text(), re.MULTILINE | re.DOTALL)
    assert match, f"no {name} in {RULES}"
    return ast.literal_eval(match.group(1))


def _config_values(option: str) -> list[str]:
    prefix = f"build:sanitize --{option}="
    return [line.removeprefix(prefix) for line in BAZELRC.read_text().splitlines() if line.startswith(prefix)]


def test_config_sanitize_has_the_rules_flags() -> None:
    assert _config_values("copt") == _bzl_constant("SANITIZER_COPTS")
    assert _config_values("linkopt") == _bzl_constant("SANITIZER_LINKOPTS")
    environment = dict(value.split("=", 1) for value in _config_values("test_env"))
    assert environment == _bzl_constant("SANITIZER_ENV")
