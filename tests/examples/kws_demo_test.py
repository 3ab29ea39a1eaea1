"""The previous main job, `bazel run //examples/kws_m55:kws_demo`: classifies on the M55 like the reference."""

import re
import subprocess


def test_kws_demo_runs_on_the_m55_and_agrees_with_the_reference() -> None:
    result = subprocess.run(["examples/kws_m55/kws_demo"], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    top = re.search(r"^top class: (\d+) \((\w+)\)", result.stdout, re.MULTILINE)
    expected = re.search(r"^reference interpreter's top class: (\d+) \((\w+)\)", result.stdout, re.MULTILINE)
    assert top and expected and top.groups() == expected.groups()
    arena = re.search(r"^arena: (\d+) bytes \(liveness lower bound (\d+) bytes\)", result.stdout, re.MULTILINE)
    assert arena and int(arena.group(1)) == int(arena.group(2)) > 0
    flash = re.search(
        r"^flash: (\d+) bytes = kernels (\d+) \+ module code (\d+) \+ constants (\d+)", result.stdout, re.MULTILINE
    )
    assert flash
    total, kernels, module_code, constants = map(int, flash.groups())
    assert total == kernels + module_code + constants
    assert kernels > 0 and module_code > 0 and constants > 20000  # the model's weights are ~24 KB
