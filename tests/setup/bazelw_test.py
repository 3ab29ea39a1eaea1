# SPDX-License-Identifier: Apache-2.0
"""./bazelw checks the pinned Debian packages quickly, then becomes bazel."""

import os
import pathlib
import shutil
import stat
import subprocess
import time

import pytest

BAZELW = pathlib.Path("bazelw").resolve()
PINS = pathlib.Path("toolchains/debian_packages.txt").resolve()


@pytest.fixture
def checkout(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of bazelw and its pins file, and a fake `bazel` on PATH."""
    (tmp_path / "toolchains").mkdir()
    shutil.copy(BAZELW, tmp_path / "bazelw")
    shutil.copy(PINS, tmp_path / "toolchains" / "debian_packages.txt")
    fake_bin = tmp_path / "fake_bin"
    fake_bin.mkdir()
    fake_bazel = fake_bin / "bazel"
    fake_bazel.write_text('#!/bin/sh\necho "fake bazel got: $*"\n')
    fake_bazel.chmod(fake_bazel.stat().st_mode | stat.S_IEXEC)
    return tmp_path


def run_bazelw(checkout: pathlib.Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PATH": f"{checkout / 'fake_bin'}:/usr/bin:/bin", **env}
    return subprocess.run(
        [str(checkout / "bazelw"), *args], capture_output=True, text=True, env=environment, check=False
    )


def test_every_pin_is_installed_on_this_machine(checkout: pathlib.Path) -> None:
    result = run_bazelw(checkout, BAZELW_CHECK_ONLY="1")
    assert result.returncode == 0, result.stdout
    assert "pinned packages are installed" in result.stdout


def test_with_everything_installed_it_execs_bazel_in_under_a_second(checkout: pathlib.Path) -> None:
    start = time.monotonic()
    result = run_bazelw(checkout, "test", "//some:target", "--config=m55")
    elapsed = time.monotonic() - start
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "fake bazel got: test //some:target --config=m55"
    assert elapsed < 1.0, f"bazelw took {elapsed:.2f}s on the fast path"


def test_a_version_mismatch_is_detected(checkout: pathlib.Path) -> None:
    pins = checkout / "toolchains" / "debian_packages.txt"
    pins.write_text(pins.read_text().replace("qemu-user                         1:7.2", "qemu-user 9:0.0"))
    result = run_bazelw(checkout, BAZELW_CHECK_ONLY="1")
    assert result.returncode == 1
    assert "missing: qemu-user=9:0.0+dfsg-7+deb12u18+b3 (installed: 1:7.2+dfsg-7+deb12u18+b3)" in result.stdout


def test_a_glob_pin_accepts_any_security_revision(checkout: pathlib.Path) -> None:
    pins = checkout / "toolchains" / "debian_packages.txt"
    assert "python3.11                        3.11.2-6+deb12u*" in pins.read_text()
    pins.write_text(pins.read_text().replace("3.11.2-6+deb12u*", "3.11.2-5*"))
    result = run_bazelw(checkout, BAZELW_CHECK_ONLY="1")
    assert result.returncode == 1
    assert "missing: python3.11=3.11.2-5*" in result.stdout


@pytest.mark.parametrize(
    ("config", "variable", "flag"),
    [
        ("--config=cache-http", "OPBRIDGE_REMOTE_CACHE", "--remote_cache"),
        ("--config=cache-grpc", "OPBRIDGE_REMOTE_CACHE", "--remote_cache"),
        ("--config=remote", "OPBRIDGE_REMOTE_EXECUTOR", "--remote_executor"),
    ],
)
def test_remote_configs_take_the_server_from_the_environment(
    checkout: pathlib.Path, config: str, variable: str, flag: str
) -> None:
    with_server = run_bazelw(checkout, "test", config, "//...", **{variable: "grpc://127.0.0.1:9"})
    assert with_server.stdout.strip() == f"fake bazel got: test {config} {flag}=grpc://127.0.0.1:9 //..."
    without_server = run_bazelw(checkout, "test", config, "//...", **{variable: ""})
    assert without_server.stdout.strip() == f"fake bazel got: test {config} //..."
