# SPDX-License-Identifier: Apache-2.0
"""A failing program fails its emulated test, for the right reason, everywhere.

Runs the `manual` deliberate_*_test targets (built as data of this test) the
way `bazel test` would and checks their exit status and message: a non-zero
return passes through, a fault is reported by the board's fault handler (or
kills qemu-aarch64 with a signal), a hang is stopped by the timeout.
"""

import pathlib
import subprocess

import pytest

PLATFORMS = ["aarch64_linux", "cortex_m55", "cortex_m4"]
HANG_TIMEOUT_EXIT_STATUSES = {124, 137}
BOARD_FAULT_EXIT_STATUS = 134


def run_test_script(kind: str, platform: str) -> subprocess.CompletedProcess[str]:
    script = pathlib.Path(f"tests/toolchains/deliberate_{kind}_test_{platform}.sh")
    assert script.exists(), f"{script} missing from runfiles"
    return subprocess.run([str(script)], capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_non_zero_exit_status_passes_through(platform: str) -> None:
    result = run_test_script("exit_status", platform)
    assert result.returncode == 3, result.stderr
    assert "deliberate failure: returning 3" in result.stdout
    assert "exited with status 3" in result.stderr


@pytest.mark.parametrize("platform", PLATFORMS)
def test_fault_fails_and_is_reported(platform: str) -> None:
    result = run_test_script("fault", platform)
    assert result.returncode != 0
    if platform == "aarch64_linux":
        # qemu-aarch64 dies of the guest's signal (SIGILL or SIGTRAP): 128 + signal.
        assert result.returncode > 128, result.stderr
    else:
        assert result.returncode == BOARD_FAULT_EXIT_STATUS, result.stderr
        assert "FAULT (exception 0x00000006)" in result.stdout + result.stderr  # UsageFault
        assert "faulted on" in result.stderr


@pytest.mark.parametrize("platform", PLATFORMS)
def test_hang_is_stopped_by_the_timeout(platform: str) -> None:
    result = run_test_script("hang", platform)
    assert result.returncode in HANG_TIMEOUT_EXIT_STATUSES, result.stderr
    assert "did not exit within 3s" in result.stderr
