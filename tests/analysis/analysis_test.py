# SPDX-License-Identifier: Apache-2.0
"""`opbridge analyze` on the shared models agrees with the plan.json of their aot_models (the
same figures the memory benchmark reads), and the HTML report renders in headless Chromium with
no console error and one bar per planned tensor, scratch and state (a screenshot is kept in the
test's outputs)."""

import json
import os
import pathlib

import pytest
from opbridge import cli
from opbridge.analysis import analyze_model, render_html
from opbridge.converter import ConvertArgs
from opbridge_testing.browser import render_page

SHARED = pathlib.Path("../shared_models/models")
MODELS = {
    "kws": "mlperf_tiny/kws_ref_model.tflite",
    "resnet": "mlperf_tiny/pretrainedResnet_quant.tflite",
    "ad01": "mlperf_tiny/ad01_int8.tflite",
    "micro_speech": "tflm/micro_speech_quantized.tflite",
    "hello_world": "tflm/hello_world_int8.tflite",
}


def _plan(name: str) -> dict:
    return json.loads(pathlib.Path(f"tests/models/{name}_module_plan.json").read_text())


@pytest.mark.parametrize("name", list(MODELS))
def test_report_agrees_with_the_aot_models_plan(name: str) -> None:
    config = ConvertArgs(model=(SHARED / MODELS[name]).absolute(), output_dir=pathlib.Path("unused"), prefix=name)
    report = analyze_model(config, with_tflm=False)
    plan = _plan(name)
    assert report.arena_bytes == plan["arena_bytes"]
    assert report.lower_bound_bytes == plan["lower_bound_bytes"]
    assert report.largest_first_bytes == plan["largest_first_arena_bytes"]
    # Every planned tensor is one bar at the offset plan.json gives it.
    tensors = {(t["offset"], t["bytes"]) for t in plan["tensors"]}
    bars = [bar for bar in report.bars if bar.kind == "tensor"]
    assert len(bars) == len(plan["tensors"])
    assert {(bar.offset, bar.bytes) for bar in bars} == tensors
    assert sum(bar.kind == "scratch" for bar in report.bars) == len(plan["scratch"])
    # The bytes live at the busiest step are the liveness bound; nothing sits above the arena.
    assert max(row.live_bytes for row in report.rows) == plan["lower_bound_bytes"]
    assert all(row.arena_top_bytes <= plan["arena_bytes"] for row in report.rows)
    assert all(bar.offset + bar.bytes <= plan["arena_bytes"] for bar in report.bars)
    assert report.macs > 0 and report.constant_bytes > 0
    # The benchmark's instruction lines cover every operator these models use, on both cores.
    for core in ("cortex_m55", "cortex_m4"):
        assert report.estimated_instructions(core) is not None, core


def test_tflm_arena_is_measured_when_tflite_micro_is_installed() -> None:
    config = ConvertArgs(model=(SHARED / MODELS["kws"]).absolute(), output_dir=pathlib.Path("unused"))
    tflm = analyze_model(config).tflm
    assert tflm is not None and tflm.total_bytes is not None, tflm
    assert tflm.head_bytes is not None and tflm.tail_bytes is not None
    assert tflm.total_bytes == tflm.head_bytes + tflm.tail_bytes
    # TFLite Micro's tensors take at least the liveness bound opbridge reaches.
    assert tflm.head_bytes >= _plan("kws")["lower_bound_bytes"]


def test_html_report_renders_in_headless_chromium(tmp_path: pathlib.Path) -> None:
    outputs = pathlib.Path(os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR", tmp_path))
    for name in ("kws", "resnet"):
        page = tmp_path / f"{name}.html"
        status = cli.main(
            ["analyze", str((SHARED / MODELS[name]).absolute()), "--format", "html", "-o", str(page), "--no-tflm", "-q"]
        )
        assert status == 0
        counts = (
            "({tensors: document.querySelectorAll('#arena-plot rect.bar.tensor').length,"
            " scratch: document.querySelectorAll('#arena-plot rect.bar.scratch').length,"
            " macs: document.querySelectorAll('#macs-plot rect.macs').length,"
            " rows: document.querySelectorAll('#nodes tr').length - 1,"
            " plotWidth: document.getElementById('arena-plot').getBoundingClientRect().width})"
        )
        result = render_page(page, counts, screenshot=outputs / f"{name}_report.png")
        assert result.console_errors == []
        plan = _plan(name)
        nodes = len(json.loads(cli_json(name))["nodes"])
        assert result.value == {
            "tensors": len(plan["tensors"]),
            "scratch": len(plan["scratch"]),
            "macs": nodes,
            "rows": nodes,
            "plotWidth": 960,
        }
        assert result.screenshot is not None and result.screenshot.startswith(b"\x89PNG")


def cli_json(name: str) -> str:
    config = ConvertArgs(model=(SHARED / MODELS[name]).absolute(), output_dir=pathlib.Path("unused"))
    return analyze_model(config, with_tflm=False).to_json()


def test_page_loads_nothing_from_outside() -> None:
    config = ConvertArgs(model=(SHARED / MODELS["hello_world"]).absolute(), output_dir=pathlib.Path("unused"))
    page = render_html(analyze_model(config, with_tflm=False))
    for outside in ("<script", "<link", "src=", "@import", "url("):
        assert outside not in page


def test_convert_report_writes_json_and_html_beside_the_module(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kws"
    model = str((SHARED / MODELS["kws"]).absolute())
    assert cli.main(["convert", model, "-o", str(out), "--prefix", "kws", "--report"]) == 0
    assert f"report: {out / 'report.json'}, {out / 'report.html'}" in capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    plan = json.loads((out / "plan.json").read_text())
    assert report["totals"]["arena_bytes"] == plan["arena_bytes"]
    assert report["totals"]["lower_bound_bytes"] == plan["lower_bound_bytes"]
    assert len(report["arena"]) == len(plan["tensors"]) + len(plan["scratch"]) + len(plan["persistent"])
    assert (out / "report.html").read_text().startswith("<!DOCTYPE html>")
    # -q: errors only.
    assert cli.main(["convert", model, "-o", str(tmp_path / "quiet"), "-q"]) == 0
    assert capsys.readouterr() == ("", "")


def test_analyze_formats(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = str((SHARED / MODELS["hello_world"]).absolute())
    assert cli.main(["analyze", model, "--no-tflm"]) == 0
    table = capsys.readouterr().out
    assert "FULLY_CONNECTED" in table and "liveness lower bound" in table
    assert cli.main(["analyze", model, "--format", "json", "--no-tflm"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [node["op_type"] for node in data["nodes"]] == ["FULLY_CONNECTED"] * 3
    assert data["nodes"][0]["macs"] == 16  # 1 input x 16 units
    # A bad output path is refused before any work, naming the option.
    assert cli.main(["analyze", model, "-o", str(tmp_path)]) == 1
    assert "-o" in capsys.readouterr().err


def test_readme_shows_what_analyze_prints_for_kws() -> None:
    readme = pathlib.Path("README.md").read_text()
    marker = "<!-- analyze kws: checked by tests/analysis/analysis_test.py -->\n```\n"
    assert marker in readme
    shown = readme.split(marker, 1)[1].split("\n```", 1)[0]
    config = ConvertArgs(model=(SHARED / MODELS["kws"]).absolute(), output_dir=pathlib.Path("unused"), prefix="kws")
    printed = analyze_model(config).to_table()
    assert shown == printed, (
        "README.md's analyze block is out of date (new instruction figures, or a planner change?); "
        f"paste this in its place:\n{printed}"
    )


def test_analyze_with_a_plugin_agrees_with_its_aot_model(capsys: pytest.CaptureFixture[str]) -> None:
    """The micro_speech front end: nine Signal operators from the opbridge_signal plugin."""
    model = str((SHARED / "tflm/audio_preprocessor_int8.tflite").absolute())
    arguments = ["analyze", model, "--plugin", "opbridge_signal.plugin", "--no-entry-points", "--format", "json"]
    assert cli.main([*arguments, "--no-tflm"]) == 0
    report = json.loads(capsys.readouterr().out)
    plan = json.loads(pathlib.Path("examples/micro_speech/frontend_module_plan.json").read_text())
    assert report["totals"]["arena_bytes"] == plan["arena_bytes"]
    assert report["totals"]["lower_bound_bytes"] == plan["lower_bound_bytes"]
    assert sum(bar["kind"] == "state" for bar in report["arena"]) == len(plan["persistent"]) > 0
    assert any(node["op_type"] == "SIGNALRFFT" for node in report["nodes"])
    # Without the plugin: the typed error naming the operator, as convert gives.
    assert cli.main(["analyze", model, "--no-entry-points", "--no-tflm"]) == 1
    assert "no parser registered" in capsys.readouterr().err
