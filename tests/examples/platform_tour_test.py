"""`./bazelw run //examples/...` runs the platform tour; it must succeed."""

import subprocess


def test_platform_tour_runs_on_four_platforms_bit_exact() -> None:
    result = subprocess.run(
        ["examples/platform_tour/platform_tour"], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for platform in ("x86_64 Linux", "aarch64 Linux", "Cortex-M55 (MVE)", "Cortex-M4"):
        assert f"{platform}: built for" in result.stdout
    assert result.stdout.count("exit 0, checksum 0x") == 4
    assert "gcc 12.2.1" in result.stdout and "gcc 12.2.0" in result.stdout
    assert "bit-exact on every platform: yes" in result.stdout
