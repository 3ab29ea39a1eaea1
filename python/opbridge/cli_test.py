# SPDX-License-Identifier: Apache-2.0
"""The command line and ConvertArgs: conversions, reference runs, and clear errors."""

import json
import os
import pathlib
import subprocess

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from opbridge_testing.mobilenet import ModelWriter
from opbridge_testing.resource_variable_models import two_variables
from opbridge_testing.svdf_keyword import keyword_scrambled, scrambled_inputs
from tflite_micro.python.tflite_micro import runtime as tflm_runtime

from opbridge import cli
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import ConfigError, load_convert_args
from opbridge.frontends.models import load_model
from opbridge.registry import default_registry_context

HELLO_WORLD = pathlib.Path("../shared_models/models/tflm/hello_world_int8.tflite").absolute()


def test_convert_writes_the_module_and_plan(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["convert", str(HELLO_WORLD), "-o", str(tmp_path / "out"), "--prefix", "hello"])
    assert status == 0
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    assert plan["arena_bytes"] == plan["lower_bound_bytes"] == 32
    assert (tmp_path / "out" / "includes-api" / "hello.h").exists()
    assert len(list((tmp_path / "out" / "src").glob("hello_node_*_fully_connected.c"))) == 3
    assert "arena: 32 bytes" in capsys.readouterr().out


def test_no_cmake_lists_leaves_the_cmake_file_out_and_removes_an_old_one(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "out"
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--prefix", "hello", "-q"]) == 0
    assert (out / "CMakeLists.txt").read_text().startswith("# ")
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--prefix", "hello", "-q", "--no-cmake-lists"]) == 0
    assert not (out / "CMakeLists.txt").exists()  # not left behind from the conversion before
    assert (out / "includes-api" / "hello.h").exists()


def test_converted_folder_builds_and_runs_on_its_own(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "out"
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--prefix", "hello"]) == 0
    program = tmp_path / "program"
    main = tmp_path / "main.c"
    main.write_text(
        '#include <string.h>\n#include "hello.h"\n'
        "int main(void) { hello_context ctx; if (hello_init(&ctx, NULL, 0) != 0) return 1;\n"
        "  memset(ctx.inputs[0].data, 0, ctx.inputs[0].bytes); return hello_run(&ctx); }\n"
    )
    sources = [*map(str, (out / "src").glob("*.c")), *map(str, (out / "kernels" / "cc" / "kernels").glob("*.c"))]
    compiled = subprocess.run(
        ["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", f"-I{out / 'includes-api'}", f"-I{out / 'src'}",
         f"-I{out / 'kernels'}", *sources, str(main), "-lm", "-o", str(program)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert compiled.returncode == 0, compiled.stderr
    assert subprocess.run([str(program)], check=False).returncode == 0


def test_config_file_keys_mirror_convert_args(tmp_path: pathlib.Path) -> None:
    config = tmp_path / "convert.yaml"
    config.write_text(f"model: {HELLO_WORLD}\noutput_dir: {tmp_path / 'out'}\nprefix: hw\narena_alignment: 16\n")
    args = load_convert_args(config, {})
    assert args.prefix == "hw" and args.arena_alignment == 16


def test_unknown_config_key_names_the_nearest_valid_one(tmp_path: pathlib.Path) -> None:
    config = tmp_path / "convert.yaml"
    config.write_text("model: m.tflite\noutput_dir: out\nprefx: hw\n")
    with pytest.raises(ConfigError, match="unknown setting 'prefx'") as error:
        load_convert_args(config, {})
    assert "did you mean 'prefix'?" in str(error.value)


def test_bad_prefix_is_rejected(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["convert", str(HELLO_WORLD), "-o", str(tmp_path / "out"), "--prefix", "9lives"])
    assert status == 1
    error = capsys.readouterr().err
    assert "prefix '9lives' is not a C identifier" in error and "Traceback" not in error
    assert not (tmp_path / "out").exists()


def test_run_uses_the_reference_interpreter(tmp_path: pathlib.Path) -> None:
    np.save(tmp_path / "x.npy", np.array([[64]], dtype=np.int8))
    status = cli.main(
        ["run", str(HELLO_WORLD), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.npy")]
    )
    assert status == 0
    result = np.load(tmp_path / "y.npy")
    assert result.dtype == np.int8 and result.shape == (1, 1)


def test_run_rejects_a_wrong_input(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    np.save(tmp_path / "x.npy", np.zeros((2, 3), dtype=np.float32))
    status = cli.main(
        ["run", str(HELLO_WORLD), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y.npy")]
    )
    assert status == 1
    error = capsys.readouterr().err
    assert "got float32[2, 3]" in error and "pass a int8 array of shape [1, 1]" in error


def test_corrupt_model_is_a_clean_error(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.tflite"
    broken.write_bytes(HELLO_WORLD.read_bytes()[:200])
    status = cli.main(["convert", str(broken), "-o", str(tmp_path / "out")])
    assert status == 1
    error = capsys.readouterr().err
    assert "broken.tflite" in error and "damaged" in error and "Traceback" not in error
    assert not (tmp_path / "out").exists()


def tree(root: pathlib.Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def convert_error(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What `opbridge convert HELLO_WORLD ARGUMENTS...` prints when it fails as it should (status 1, no traceback)."""
    status = cli.main(["convert", str(HELLO_WORLD), *arguments])
    error = capsys.readouterr().err
    assert status == 1, error
    assert error.startswith("opbridge: error: ") and "\n  hint: " in error and "Traceback" not in error
    return error


def test_output_dir_that_is_a_file_is_refused_before_anything_is_written(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    existing = tmp_path / "out"
    existing.write_text("not a directory\n")
    error = convert_error(["-o", str(existing)], capsys)
    assert f"output_dir (-o) {existing} is an existing file; expected a directory (new or existing)" in error
    assert f"hint: pass -o a directory (it is created if missing), or move the file {existing} away" in error
    assert tree(tmp_path) == ["out"] and existing.read_text() == "not a directory\n"


def test_output_dir_under_a_file_is_refused(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    error = convert_error(["-o", str(tmp_path / "file" / "sub" / "out")], capsys)
    assert f"cannot be created: {tmp_path / 'file'} is a file, not a directory" in error
    assert f"not under the file {tmp_path / 'file'}" in error
    assert tree(tmp_path) == ["file"]


def test_output_dir_in_a_directory_without_write_permission_is_refused(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.geteuid() == 0:  # root may write anywhere: answer the permission check as for any other user
        access = os.access
        monkeypatch.setattr(
            os, "access", lambda path, mode, **kw: False if pathlib.Path(path) == locked else access(path, mode, **kw)
        )
    try:
        error = convert_error(["-o", str(locked / "out")], capsys)
    finally:
        locked.chmod(0o755)
    assert f"output_dir (-o) {locked / 'out'} cannot be written: the directory {locked} is not writable" in error
    assert f"(chmod u+wx {locked})" in error
    assert tree(tmp_path) == ["locked"]


def test_output_dir_the_file_system_refuses_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    # Nobody, root included, can create a folder in /proc: refused by the check, or by the OS while writing.
    error = convert_error(["-o", "/proc/opbridge_cli_test_out"], capsys)
    assert "output_dir (-o) /proc/opbridge_cli_test_out cannot be written" in error
    assert not pathlib.Path("/proc/opbridge_cli_test_out").exists()


def test_plan_and_golden_paths_are_checked_before_the_module_is_written(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    out = str(tmp_path / "out")
    error = convert_error(["-o", out, "--plan-json", str(tmp_path / "folder")], capsys)
    assert f"plan_json (--plan-json) {tmp_path / 'folder'} is an existing directory; expected a file path" in error
    assert f"e.g. {tmp_path / 'folder' / 'plan.json'}" in error
    error = convert_error(["-o", out, "--prefix", "hw", "--golden-test", str(tmp_path / "file" / "golden.c")], capsys)
    assert f"golden_test (--golden-test) {tmp_path / 'file' / 'golden.c'} cannot be created" in error
    assert tree(tmp_path) == ["file", "folder"]


def test_a_plan_over_the_ram_budget_names_the_peak_and_writes_nothing(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    status = cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--max-arena-bytes", "31"])
    assert status != 0
    error = capsys.readouterr().err
    assert "the arena needs 32 bytes but max_arena_bytes is 31" in error
    # hello_world peaks at its second FULLY_CONNECTED: 16 bytes in, 16 out.
    assert "the peak is at step 1, node 1 (FULLY_CONNECTED" in error
    assert error.count("(16 B)") == 2
    assert "hint: raise max_arena_bytes" in error
    assert not out.exists()
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--max-arena-bytes", "32"]) == 0


def test_sections_must_be_linker_section_names(tmp_path: pathlib.Path) -> None:
    with pytest.raises(ConfigError, match=r"arena_section: .*not a linker section name"):
        load_convert_args(None, {"model": HELLO_WORLD, "output_dir": tmp_path, "arena_section": '.dtcm") evil'})
    config = load_convert_args(
        None, {"model": HELLO_WORLD, "output_dir": tmp_path, "arena_section": ".dtcm.arena", "plan_search_budget": 0}
    )
    assert config.arena_section == ".dtcm.arena" and config.plan_search_budget == 0
    with pytest.raises(ConfigError, match="cannot share a section"):
        load_convert_args(
            None, {"model": HELLO_WORLD, "output_dir": tmp_path, "arena_section": ".x", "constants_section": ".x"}
        )


def test_verbose_reports_the_placement_strategy(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(tmp_path / "out"), "-v"]) == 0
    printed = capsys.readouterr().out
    assert "placement: largest first, lowest fit (optimal)" in printed
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    assert plan["strategy"] == "largest first, lowest fit" and plan["optimal"] is True


def test_plot_draws_every_buffer_inside_the_arena(tmp_path: pathlib.Path) -> None:
    import xml.etree.ElementTree as ElementTree

    svg = tmp_path / "arena.svg"
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(tmp_path / "out"), "--plot", str(svg)]) == 0
    plan = json.loads((tmp_path / "out" / "plan.json").read_text())
    root = ElementTree.parse(svg).getroot()
    namespace = "{http://www.w3.org/2000/svg}"
    bars = [r for r in root.iter(f"{namespace}rect") if r.get("class") == "buffer"]
    frame = next(r for r in root.iter(f"{namespace}rect") if r.get("stroke") == "#888")
    top, bottom = float(frame.get("y")), float(frame.get("y")) + float(frame.get("height"))
    assert len(bars) == len({(t["offset"], t["first_step"]) for t in plan["tensors"]})
    for bar in bars:
        assert top - 0.1 <= float(bar.get("y")) and float(bar.get("y")) + float(bar.get("height")) <= bottom + 0.6
        assert "B at offset" in bar.find(f"{namespace}title").text


def test_plot_path_is_checked_before_converting(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "taken").mkdir()
    out = tmp_path / "out"
    assert cli.main(["convert", str(HELLO_WORLD), "-o", str(out), "--plot", str(tmp_path / "taken")]) != 0
    assert "plot (--plot)" in capsys.readouterr().err
    assert not out.exists()


# -- run over a sequence of calls (stateful models) ---------------------------------------------------


def keyword_model(tmp_path: pathlib.Path) -> pathlib.Path:
    """TFLite Micro's scrambled keyword model (seven SVDF layers with int16 states, an int32 output)."""
    path = tmp_path / "keyword_scrambled.tflite"
    path.write_bytes(keyword_scrambled())
    return path


def reference_over(model: pathlib.Path, calls: list[list[np.ndarray]]) -> list[list[np.ndarray]]:
    """Each call's outputs from one ReferenceInterpreter (its state carried), as Python would run them."""
    context = default_registry_context()
    interpreter = ReferenceInterpreter(load_model(model, context), context)
    return [interpreter.run(inputs) for inputs in calls]


def tflite_micro_over(model: pathlib.Path, calls: list[np.ndarray], outputs: int = 1) -> list[list[np.ndarray]]:
    """Each call's outputs from one TFLite Micro interpreter (its state carried)."""
    interpreter = tflm_runtime.Interpreter.from_bytes(model.read_bytes(), arena_size=256 * 1024)
    results = []
    for values in calls:
        interpreter.set_input(values, 0)
        interpreter.invoke()
        results.append([np.array(interpreter.get_output(position)) for position in range(outputs)])
    return results


def test_run_with_steps_carries_the_state_through_the_calls(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model, frames = keyword_model(tmp_path), scrambled_inputs(seed=7, count=10)
    np.save(tmp_path / "frames.npy", np.stack(frames))
    out = tmp_path / "scores.npy"
    status = cli.main(
        ["run", str(model), "--input", str(tmp_path / "frames.npy"), "--steps", "10", "--output", str(out)]
    )
    assert status == 0
    written = [tmp_path / f"scores_step{step}.npy" for step in range(10)]
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        "running 10 calls, the state carried from call to call",
        *(f"wrote {path}: int32[1, 2]" for path in written),
    ]
    assert not out.exists()
    ours = [np.load(path) for path in written]
    expected = reference_over(model, [[frame] for frame in frames])
    peer = tflite_micro_over(model, frames)
    for step, (mine, (reference,), (theirs,)) in enumerate(zip(ours, expected, peer, strict=True)):
        assert mine.tobytes() == reference.tobytes() == theirs.astype(np.int32).tobytes(), f"call {step}"
    # The state mattered: a call on its own (a fresh state) gives another output.
    (alone,) = reference_over(model, [[frames[9]]])[0]
    assert alone.tobytes() != ours[9].tobytes()


def test_run_takes_several_inputs_in_call_order_and_writes_each_output(tmp_path: pathlib.Path) -> None:
    model = tmp_path / "two_variables.tflite"
    model.write_bytes(two_variables())  # a running sum and a running maximum: two outputs per call
    values = [np.random.default_rng(step).standard_normal((1, 12)).astype(np.float32) for step in range(3)]
    arguments = ["run", str(model)]
    for step, value in enumerate(values):
        np.save(tmp_path / f"x{step}.npy", value)
        arguments += ["--input", str(tmp_path / f"x{step}.npy")]
    assert cli.main([*arguments, "--output", str(tmp_path / "sum"), "--output", str(tmp_path / "max.npy")]) == 0
    expected = reference_over(model, [[value] for value in values])
    peer = tflite_micro_over(model, values, outputs=2)
    for step, (reference, theirs) in enumerate(zip(expected, peer, strict=True)):
        for name, wanted, got in zip(("sum", "max"), reference, theirs, strict=True):
            written = np.load(tmp_path / f"{name}_step{step}.npy")
            assert written.tobytes() == wanted.tobytes() == got.astype(np.float32).tobytes(), f"{name}, call {step}"
    assert expected[0][0].tobytes() != expected[2][0].tobytes(), "the running sum moves"


def test_run_names_the_input_whose_steps_disagree(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = keyword_model(tmp_path)
    np.save(tmp_path / "frames.npy", np.stack(scrambled_inputs(seed=7, count=4)))
    status = cli.main(
        [
            "run",
            str(model),
            "--input",
            str(tmp_path / "frames.npy"),
            "--steps",
            "10",
            "--output",
            str(tmp_path / "y.npy"),
        ]
    )
    assert status == 1
    error = capsys.readouterr().err
    assert f"--input {tmp_path / 'frames.npy'}: got int16[4, 1, 96]" in error
    assert 'with --steps 10, model input tensor 0 "input" int16[1, 96]' in error and "takes int16[10, 1, 96]" in error
    assert "or pass --steps 4" in error
    assert not list(tmp_path.glob("y*.npy"))


def test_run_with_steps_wants_one_file_per_model_input(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = keyword_model(tmp_path)
    np.save(tmp_path / "frames.npy", np.stack(scrambled_inputs(seed=7, count=2)))
    frames = str(tmp_path / "frames.npy")
    status = cli.main(
        ["run", str(model), "--input", frames, "--input", frames, "--steps", "2", "--output", str(tmp_path / "y.npy")]
    )
    assert status == 1
    error = capsys.readouterr().err
    assert '--steps 2 takes one stacked .npy per model input: the model has 1 ("input"), got 2 --input' in error


def test_run_names_the_file_and_call_of_a_wrong_input(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = keyword_model(tmp_path)
    frames = scrambled_inputs(seed=7, count=3)
    frames[2] = frames[2].astype(np.int8)
    arguments = ["run", str(model)]
    for step, frame in enumerate(frames):
        np.save(tmp_path / f"x{step}.npy", frame)
        arguments += ["--input", str(tmp_path / f"x{step}.npy")]
    assert cli.main([*arguments, "--output", str(tmp_path / "y.npy")]) == 1
    error = capsys.readouterr().err
    assert f'--input {tmp_path / "x2.npy"} (call 2): input tensor 0 "input" int16[1, 96] got int8[1, 96]' in error
    assert "pass a int16 array of shape [1, 96]" in error
    assert not list(tmp_path.glob("y*.npy")), "nothing is run before every call's inputs are checked"


def test_run_wants_whole_calls_of_inputs(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    writer = ModelWriter()
    a, b, total = (writer.tensor(name, [1, 3], schema.TensorType.FLOAT32, [], []) for name in ("a", "b", "total"))
    writer.operator(schema.BuiltinOperator.ADD, 1, [a, b], [total], schema.BuiltinOptions.AddOptions,
                    schema.AddOptionsT())  # fmt: skip
    model = tmp_path / "add.tflite"
    model.write_bytes(writer.finish([a, b], [total], "a + b"))
    np.save(tmp_path / "x.npy", np.ones((1, 3), dtype=np.float32))
    x = str(tmp_path / "x.npy")
    status = cli.main(
        ["run", str(model), "--input", x, "--input", x, "--input", x, "--output", str(tmp_path / "y.npy")]
    )
    assert status == 1
    error = capsys.readouterr().err
    assert 'the model has 2 input(s) ("a", "b"), got 3 --input: not a whole number of calls' in error
    assert "pass 2 --input per call, the calls in order" in error
    # Two whole calls run, each from the state the previous left (ADD has none: equal outputs), and the
    # first line says so: 4 files for a 2-input model are two calls, not one call's inputs given twice.
    assert cli.main(["run", str(model), *(["--input", x] * 4), "--output", str(tmp_path / "y.npy")]) == 0
    assert np.load(tmp_path / "y_step1.npy").tolist() == [[2.0, 2.0, 2.0]]
    printed = capsys.readouterr().out.splitlines()
    assert printed == [
        "running 2 calls, the state carried from call to call",
        f"wrote {tmp_path / 'y_step0.npy'}: float32[1, 3]",
        f"wrote {tmp_path / 'y_step1.npy'}: float32[1, 3]",
    ]
    # One call: no such line.
    assert cli.main(["run", str(model), "--input", x, "--input", x, "--output", str(tmp_path / "y.npy")]) == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / 'y.npy'}: float32[1, 3]"]


def run_refusal(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], inputs: list[pathlib.Path], outputs: list[str]
) -> str:
    """What `opbridge run HELLO_WORLD --input ... --output ...` prints when it refuses (status 1, no traceback),
    after checking it wrote no output file, whole or partial."""
    before = tree(tmp_path)
    arguments = ["run", str(HELLO_WORLD), *(f"--input={path}" for path in inputs)]
    status = cli.main([*arguments, *(f"--output={path}" for path in outputs)])
    captured = capsys.readouterr()
    assert status == 1, captured
    assert captured.out == "" and tree(tmp_path) == before
    assert captured.err.startswith("opbridge: error: ") and "\n  hint: " in captured.err
    assert "Traceback" not in captured.err
    return captured.err


def test_run_refuses_damaged_and_wrong_input_files(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    np.save(inputs / "good.npy", np.array([[64]], dtype=np.int8))
    whole = (inputs / "good.npy").read_bytes()
    (inputs / "empty.npy").write_bytes(b"")
    (inputs / "text.npy").write_text("64\n")
    np.save(inputs / "objects.npy", np.array([[64]], dtype=object), allow_pickle=True)
    (inputs / "cut.npy").write_bytes(whole[:-1])
    cases = {
        "empty.npy": "is empty (0 bytes)",
        "text.npy": "is not a .npy file: it is text",
        "objects.npy": "holds Python objects",
        "cut.npy": "is cut short: its header declares int8[1, 1] (1 bytes of data), the file holds 0 bytes",
        "missing.npy": "does not exist",
    }
    for name, problem in cases.items():
        error = run_refusal(tmp_path, capsys, [inputs / name], [str(tmp_path / "y.npy")])
        assert f"--input {inputs / name} {problem}" in error, error
    error = run_refusal(tmp_path, capsys, [inputs], [str(tmp_path / "y.npy")])
    assert f"--input {inputs} is a folder, not a file" in error and "e.g. " in error
    assert "pickled" not in run_refusal(tmp_path, capsys, [inputs / "text.npy"], [str(tmp_path / "y.npy")])


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files without read permission")
def test_run_refuses_an_input_it_may_not_read(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    np.save(tmp_path / "x.npy", np.array([[64]], dtype=np.int8))
    (tmp_path / "x.npy").chmod(0)
    error = run_refusal(tmp_path, capsys, [tmp_path / "x.npy"], [str(tmp_path / "y.npy")])
    assert "permission denied" in error and "chmod u+r" in error


def test_run_checks_every_output_path_before_running(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "two_variables.tflite"
    model.write_bytes(two_variables())  # two outputs: the first path is fine, the second's folder is missing
    np.save(tmp_path / "x.npy", np.ones((1, 12), dtype=np.float32))
    before = tree(tmp_path)
    arguments = ["run", str(model), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "sum.npy")]
    status = cli.main([*arguments, "--output", str(tmp_path / "missing" / "max.npy")])
    error = capsys.readouterr().err
    assert status == 1 and "Traceback" not in error
    missing = tmp_path / "missing"
    assert f"--output {missing / 'max.npy'} cannot be written: the folder {missing} does not exist" in error
    assert f"mkdir -p {tmp_path / 'missing'}" in error
    assert tree(tmp_path) == before  # nothing written, and the folder not made


def test_run_prints_the_path_it_wrote(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    np.save(tmp_path / "x.npy", np.array([[64]], dtype=np.int8))
    status = cli.main(["run", str(HELLO_WORLD), "--input", str(tmp_path / "x.npy"), "--output", str(tmp_path / "y")])
    assert status == 0
    assert capsys.readouterr().out.splitlines() == [f"wrote {tmp_path / 'y.npy'}: int8[1, 1]"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["x.npy", "y.npy"]  # no y, no temporary file
