# SPDX-License-Identifier: Apache-2.0
"""toolchains/pinned_gcc.sh rejects a compiler of the wrong version.

The repository rule that makes each cc_toolchain (toolchains/gcc_toolchain.bzl)
runs this script when Bazel fetches the toolchain, and every compile goes
through it, so a wrong gcc first on PATH fails the build with this message.
"""

import os
import pathlib
import subprocess

import pytest

SCRIPT = pathlib.Path("toolchains/pinned_gcc.sh").resolve()


def fake_compiler(directory: pathlib.Path, name: str, version: str) -> None:
    compiler = directory / name
    compiler.write_text(
        f'#!/bin/sh\nif [ "$1" = -dumpfullversion ]; then echo {version}; exit 0; fi\necho "fake compiled: $*"\n'
    )
    compiler.chmod(0o755)


def run(tmp_path: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PATH": f"{tmp_path}:/usr/bin:/bin"}
    return subprocess.run(["/bin/sh", str(SCRIPT), *args], capture_output=True, text=True, env=environment, check=False)


@pytest.mark.parametrize(
    ("compiler", "expected", "package"),
    [
        ("arm-none-eabi-gcc", "12.2.1", "gcc-arm-none-eabi"),
        ("aarch64-linux-gnu-gcc", "12.2.0", "gcc-aarch64-linux-gnu"),
        ("x86_64-linux-gnu-gcc", "12.2.0", "gcc-12"),
    ],
)
def test_wrong_version_on_path_is_rejected_naming_both_versions(
    tmp_path: pathlib.Path, compiler: str, expected: str, package: str
) -> None:
    fake_compiler(tmp_path, compiler, "13.2.0")
    for mode in (["check"], ["run"]):
        result = run(tmp_path, *mode, compiler, expected, package, "--", "-c", "x.c")
        assert result.returncode == 1
        assert f"compiler '{tmp_path / compiler}' is version 13.2.0, expected exactly {expected}" in result.stderr
        assert f"installs the pinned Debian package '{package}'" in result.stderr
        assert "fake compiled" not in result.stdout


def test_right_version_is_accepted_and_run(tmp_path: pathlib.Path) -> None:
    fake_compiler(tmp_path, "arm-none-eabi-gcc", "12.2.1")
    check = run(tmp_path, "check", "arm-none-eabi-gcc", "12.2.1", "gcc-arm-none-eabi")
    assert check.returncode == 0
    assert check.stdout.strip() == str(tmp_path / "arm-none-eabi-gcc")
    compile_run = run(tmp_path, "run", "arm-none-eabi-gcc", "12.2.1", "gcc-arm-none-eabi", "--", "-c", "x.c")
    assert compile_run.stdout.strip() == "fake compiled: -c x.c"


def test_missing_compiler_is_reported(tmp_path: pathlib.Path) -> None:
    result = run(tmp_path, "check", "no-such-gcc", "12.2.0", "gcc-12")
    assert result.returncode == 1
    assert "compiler 'no-such-gcc' not found on PATH (expected version 12.2.0)" in result.stderr


@pytest.mark.parametrize(
    ("compiler", "version"), [("arm-none-eabi-gcc", "12.2.1"), ("aarch64-linux-gnu-gcc", "12.2.0")]
)
def test_the_installed_compilers_are_the_pinned_ones(tmp_path: pathlib.Path, compiler: str, version: str) -> None:
    result = run(tmp_path, "check", compiler, version, "pinned")
    assert result.returncode == 0, result.stderr
