# SPDX-License-Identifier: Apache-2.0
"""Patch-based inference through the converter on the MobileNet-v1 0.25 96x96 the tests build: at its
default settings the arena falls by a third at an estimated fifth more instructions at most (the aot_model
mobilenet_patch, whose golden test passes on every platform, is this conversion); settings are checked
and reported."""

import json
import pathlib

import pytest
from opbridge import cli
from opbridge.converter import load_convert_args
from opbridge.errors import ConfigError

MODEL = pathlib.Path("tests/models/mobilenet_v1_025_96.tflite").absolute()


def _convert(tmp_path: pathlib.Path, name: str, config_text: str, *extra: str) -> tuple[int, pathlib.Path]:
    config = tmp_path / f"{name}.yaml"
    config.write_text(config_text)
    out = tmp_path / name
    status = cli.main(["convert", str(MODEL), "-o", str(out), "--config", str(config), *extra])
    return status, out


def test_default_patch_stage_cuts_the_arena_within_its_instruction_bound(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, whole = _convert(tmp_path, "whole", "{}\n")
    assert status == 0
    plain = json.loads((whole / "plan.json").read_text())
    assert plain["patch_stage"] is None
    capsys.readouterr()
    status, patched_dir = _convert(tmp_path, "patched", "{}\n", "--patch-based")
    assert status == 0
    summary = capsys.readouterr().out
    patched = json.loads((patched_dir / "plan.json").read_text())
    stage = patched["patch_stage"]
    assert patched["arena_bytes"] <= plain["lower_bound_bytes"] * 2 // 3
    # max_overhead (0.2) bounds the estimated extra instructions, which the fitted costs give for this model.
    assert 0 < stage["instruction_overhead"] <= 0.2 and stage["tiled_macs"] > stage["macs"]
    assert f"patch-based: nodes 0-{stage['layers'][-1]} run as" in summary
    assert "% instructions" in summary
    assert list((patched_dir / "src").glob("*_node_0_patch_stage.c")), "the stage's C is missing"
    # The aot_model built with patch_based: {} is this conversion.
    built = json.loads(pathlib.Path("tests/models/mobilenet_patch_module_plan.json").read_text())
    assert built["arena_bytes"] == patched["arena_bytes"] and built["patch_stage"] == stage


def test_fixed_stage_and_tiles_are_used_as_given(tmp_path: pathlib.Path) -> None:
    status, out = _convert(tmp_path, "fixed", "patch_based: {stages: 4, tiles: 2}\n")
    assert status == 0
    stage = json.loads((out / "plan.json").read_text())["patch_stage"]
    assert stage["layers"] == [0, 1, 2, 3] and stage["grid"] == [2, 2]


def test_a_grid_of_rows_and_columns_is_used_as_given(tmp_path: pathlib.Path) -> None:
    status, out = _convert(tmp_path, "strips", "patch_based: {stages: 8, tiles: [2, 3]}\n")
    assert status == 0
    stage = json.loads((out / "plan.json").read_text())["patch_stage"]
    assert stage["layers"] == list(range(8)) and stage["grid"] == [2, 3]


def test_a_stage_past_the_chain_names_the_node_that_ends_it(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _convert(tmp_path, "long", "patch_based: {stages: 40}\n")
    assert status != 0
    error = capsys.readouterr().err
    assert "patch_based.stages: 40 layers asked for, but only the first 27 can run as tiles" in error
    assert "AVERAGE_POOL_2D" in error
    assert not out.exists()


def test_a_misspelt_patch_setting_names_the_nearest(tmp_path: pathlib.Path) -> None:
    config = tmp_path / "typo.yaml"
    config.write_text(f"model: {MODEL}\noutput_dir: out\npatch_based: {{tile: 3}}\n")
    with pytest.raises(ConfigError, match=r"unknown setting 'patch_based\.tile'") as error:
        load_convert_args(config, {})
    assert "did you mean 'patch_based.tiles'?" in str(error.value)


def test_the_ram_budget_counts_the_stage(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The stage of smallest arena (22,500 bytes), whose tile buffers are part of the peak.
    status, out = _convert(tmp_path, "budget", "patch_based: {stages: 8, tiles: 4}\nmax_arena_bytes: 20000\n")
    assert status != 0
    error = capsys.readouterr().err
    assert "max_arena_bytes is 20000" in error and "scratch of node 0 (PATCH_STAGE" in error
    assert not out.exists()
