# SPDX-License-Identifier: Apache-2.0
"""The converter's schedule search on the two-branch model: reordered by
default (its golden test, in the new order, passes on every platform), kept
in the file's order with `schedule: file`, and much smaller reordered."""

import json
import pathlib

import pytest
from opbridge import cli

MODEL = pathlib.Path("tests/models/two_branches.tflite").absolute()


def _convert(tmp_path: pathlib.Path, name: str, schedule: str) -> tuple[dict, str]:
    config = tmp_path / f"{name}.yaml"
    config.write_text(f"schedule: {schedule}\n")
    out = tmp_path / name
    assert cli.main(["convert", str(MODEL), "-o", str(out), "--config", str(config)]) == 0
    return json.loads((out / "plan.json").read_text()), str(out)


def test_reordering_shrinks_the_arena(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    reordered, _ = _convert(tmp_path, "memory", "memory")
    assert "schedule: nodes reordered to shrink the arena from 9252 to 5412 bytes" in capsys.readouterr().out
    in_file_order, _ = _convert(tmp_path, "file", "file")
    assert "reordered" not in capsys.readouterr().out
    # The file's order holds both 4 KB convolution outputs (and the input) at once.
    assert in_file_order["arena_bytes"] == in_file_order["lower_bound_bytes"] == 9216 + 36  # + a conv's scratch
    assert reordered["arena_bytes"] == reordered["lower_bound_bytes"] == 5376 + 36
    # The aot_model (default settings) is the reordered one.
    built = json.loads(pathlib.Path("tests/models/two_branches_module_plan.json").read_text())
    assert built["arena_bytes"] == reordered["arena_bytes"]
