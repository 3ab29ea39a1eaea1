# SPDX-License-Identifier: Apache-2.0
"""The PyTorch frontend's failures: each is a typed error naming the node, tensor or operator and the
fix, and nothing is written. .pt2 files that are truncated or damaged are refused without a crash
(fuzzed with hypothesis); archives with member names outside the archive or twice, zip bombs, bad CRCs
and pickles that import more than tensors are refused through `opbridge convert`, naming the member,
before torch opens them. The command line converts a .pt2 file."""

import contextlib
import io
import json
import os
import pathlib
import pickle
import posixpath
import subprocess
import sys
import textwrap
import warnings
import zipfile

import hypothesis
import numpy as np
import pytest
import torch
from hypothesis import strategies as st

from opbridge.cli import main
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import (
    ConfigError,
    ModelFormatError,
    OperatorPluginError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
)
from opbridge.frontends.torch.program import export_program, load_torch_program, read_exported_program
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()


class Unsupported(torch.nn.Module):
    """Two kinds of operator opbridge has no converter for, three nodes."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(torch.sin(torch.sin(x)), dim=1)


class Small(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 3, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.conv(x))


def test_unsupported_operators_are_all_listed_by_node_with_a_hint() -> None:
    program = torch.export.export(Unsupported(), (torch.randn(2, 5),))
    with pytest.raises(UnsupportedOperatorError) as raised:
        read_exported_program(program, CONTEXT, source="model")
    message = str(raised.value)
    assert "3 node(s) use 2 operator(s)" in message
    assert "aten.sin.default x2 (sin, sin_1)" in message and "aten.cumsum.default x1 (cumsum)" in message
    assert "docs/pytorch.md" in raised.value.hint


def test_an_unsupported_dtype_names_the_input() -> None:
    program = torch.export.export(Unsupported(), (torch.randn(1, 4).half(),))
    with pytest.raises(UnsupportedTensorError, match=r'input "x" has dtype torch.float16') as raised:
        read_exported_program(program, CONTEXT)
    assert "torch.float32" in raised.value.hint


def test_an_unsupported_dtype_names_the_parameter() -> None:
    program = torch.export.export(Small().half(), (torch.randn(1, 2, 4, 4).half(),))
    with pytest.raises(
        UnsupportedTensorError, match=r'parameter "conv.weight" \(p_conv_weight\) has dtype torch.float16'
    ):
        read_exported_program(program, CONTEXT)


def test_a_dynamic_shape_names_the_input_and_asks_for_static_shapes() -> None:
    batch = torch.export.Dim("batch", min=2, max=8)
    program = torch.export.export(Small(), (torch.randn(2, 2, 4, 4),), dynamic_shapes={"x": {0: batch}})
    with pytest.raises(UnsupportedTensorError, match=r'input "x" has a dynamic shape') as raised:
        read_exported_program(program, CONTEXT)
    assert "static shapes" in raised.value.hint


def test_a_custom_op_without_a_fake_kernel_is_named_with_the_fix() -> None:
    @torch.library.custom_op("opbridge_program_test::no_fake", mutates_args=())
    def no_fake(x: torch.Tensor) -> torch.Tensor:
        return x.clone()

    class UsesIt(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.ops.opbridge_program_test.no_fake(x) + 1

    with pytest.raises(OperatorPluginError, match="opbridge_program_test::no_fake: it has no fake kernel") as raised:
        export_program(UsesIt(), (torch.randn(2, 3),))
    assert "register_fake" in raised.value.hint and "TorchOp" in raised.value.hint


def test_a_model_that_is_not_a_program_is_refused() -> None:
    with pytest.raises(ModelFormatError, match=r"expected a torch\.export\.ExportedProgram, got Small"):
        read_exported_program(Small(), CONTEXT)


def test_an_unknown_int8_arithmetic_is_a_config_error() -> None:
    program = torch.export.export(Small(), (torch.randn(1, 2, 4, 4),))
    with pytest.raises(ConfigError, match="torch_int8_arithmetic 'fast'"):
        read_exported_program(program, CONTEXT, int8_arithmetic="fast")


def test_an_unsupported_node_writes_nothing(tmp_path: pathlib.Path) -> None:
    program = torch.export.export(Unsupported(), (torch.randn(2, 5),))
    output = tmp_path / "module"
    with pytest.raises(UnsupportedOperatorError):
        AotConverter(ConvertArgs(model=program, output_dir=output, prefix="m")).convert()
    assert not output.exists()


@pytest.fixture(scope="module")
def saved_program(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("pt2") / "small.pt2"
    torch.manual_seed(0)
    torch.export.save(torch.export.export(Small(), (torch.randn(1, 2, 4, 4),)), str(path))
    return path.read_bytes()


def test_a_saved_program_loads_and_matches_torch(saved_program: bytes, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "small.pt2"
    path.write_bytes(saved_program)
    graph = load_torch_program(path, CONTEXT)
    program = torch.export.load(str(path))
    x = torch.randn(1, 2, 4, 4)
    from opbridge.backends.reference.interpreter import ReferenceInterpreter

    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x.numpy()])
    np.testing.assert_allclose(ours, program.module()(x).detach().numpy(), rtol=1e-5, atol=1e-6)


@hypothesis.settings(
    max_examples=40, deadline=None, suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture]
)
@hypothesis.given(data=st.data())
def test_truncated_or_damaged_archives_are_typed_errors(
    saved_program: bytes, tmp_path: pathlib.Path, data: st.DataObject
) -> None:
    """A .pt2 cut short, or with bytes changed, either still loads (a byte nothing reads) or is a
    ModelFormatError (or another typed error); it never crashes with anything else."""
    damaged = bytearray(saved_program)
    if data.draw(st.booleans(), label="truncate"):
        damaged = damaged[: data.draw(st.integers(0, len(damaged) - 1), label="length")]
    else:
        for _ in range(data.draw(st.integers(1, 8), label="flips")):
            position = data.draw(st.integers(0, len(damaged) - 1), label="position")
            damaged[position] ^= data.draw(st.integers(1, 255), label="xor")
    path = tmp_path / "damaged.pt2"
    path.write_bytes(bytes(damaged))
    with contextlib.suppress(ModelFormatError, UnsupportedOperatorError, UnsupportedTensorError):
        load_torch_program(path, CONTEXT)


def test_a_file_that_is_not_an_archive_is_refused(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "model.pt2"
    path.write_bytes(b"not a zip archive")
    with pytest.raises(ModelFormatError, match=r"not a readable \.pt2 archive"):
        load_torch_program(path, CONTEXT)


def rewritten(
    saved: bytes,
    path: pathlib.Path,
    extra: list[tuple[str, bytes, int]],
    drop: str | None = "",
    dropped: tuple[str, ...] = (),
) -> pathlib.Path:
    """The saved archive with the members whose name ends with `drop`, or is one of `dropped`, left out
    and `extra` (name, data, compression) added, written to `path`."""
    source = zipfile.ZipFile(io.BytesIO(saved))
    with zipfile.ZipFile(path, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names
        for member in source.infolist():
            if member.filename in dropped:
                continue
            if not (drop and member.filename.endswith(drop)):
                archive.writestr(member, source.read(member))
        for name, data, compression in extra:
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
    return path


def refused(path: pathlib.Path, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`opbridge convert` of `path` fails with one error and writes nothing; its message."""
    output = tmp_path / "out"
    assert main(["convert", str(path), "-o", str(output), "-q", "--no-entry-points"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"opbridge: error: {path}") and "Traceback" not in error, error
    assert not output.exists()
    return error


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("/etc/small.json", "is an absolute path"),
        ("small/../../escape.json", "contains '..'"),
        ("small\\data\\x.json", "contains a backslash"),
        ("small/archive_format", "is in the archive twice"),
    ],
)
def test_member_names_outside_the_archive_or_twice_are_refused(
    name: str, problem: str, saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = rewritten(saved_program, tmp_path / "small.pt2", [(name, b"{}", zipfile.ZIP_STORED)])
    assert f"member {name!r} {problem}" in refused(path, tmp_path, capsys)


def test_a_zip_bomb_is_refused_naming_the_member_before_it_is_unpacked(
    saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zeros = bytes(64 * 1024 * 1024)
    path = rewritten(saved_program, tmp_path / "small.pt2", [("small/extra/zeros", zeros, zipfile.ZIP_BZIP2)])
    assert path.stat().st_size < 100_000
    error = refused(path, tmp_path, capsys)
    assert "member 'small/extra/zeros' unpacks" in error and "into 67,108,864 (over 1000x)" in error, error


def test_members_unpacking_beyond_the_limit_together_are_refused(
    saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit (1 GiB) lowered to the saved program's size: what the files unpack to is what counts."""
    from opbridge.frontends.torch import program

    unpacked = sum(member.file_size for member in zipfile.ZipFile(io.BytesIO(saved_program)).infolist())
    path = tmp_path / "small.pt2"
    path.write_bytes(saved_program)
    monkeypatch.setattr(program, "MAX_UNPACKED_BYTES", unpacked - 1)
    assert f"its members unpack to {unpacked:,} bytes, more than the" in refused(path, tmp_path, capsys)
    monkeypatch.setattr(program, "MAX_UNPACKED_BYTES", unpacked)
    assert main(["convert", str(path), "-o", str(tmp_path / "out"), "-q", "--no-entry-points"]) == 0


def test_a_member_whose_crc_does_not_match_is_refused_naming_it(
    saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    member = next(m for m in zipfile.ZipFile(io.BytesIO(saved_program)).infolist() if m.filename.endswith("weight_0"))
    damaged = bytearray(saved_program)
    header_extra = int.from_bytes(damaged[member.header_offset + 28 : member.header_offset + 30], "little")
    start = member.header_offset + 30 + len(member.filename.encode()) + header_extra
    damaged[start + 5] ^= 0x10  # a bit of a weight: the archive's structure is intact
    path = tmp_path / "small.pt2"
    path.write_bytes(bytes(damaged))
    assert f"Bad CRC-32 for file {member.filename!r}" in refused(path, tmp_path, capsys)


class RunsCode:
    """Unpickled, it runs a shell command (what a malicious .pt2 would do)."""

    def __init__(self, marker: pathlib.Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_pickle_importing_more_than_tensors_is_refused_and_never_run(
    saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sample inputs' member replaced by a pickle calling os.system: torch.export.load alone runs it
    (its unpickler falls back to weights_only=False), opbridge refuses the file without running it."""
    marker = tmp_path / "ran"
    path = rewritten(
        saved_program,
        tmp_path / "small.pt2",
        [("small/data/sample_inputs/model.pt", pickle.dumps(RunsCode(marker), protocol=2), zipfile.ZIP_STORED)],
        drop="sample_inputs/model.pt",
    )
    error = refused(path, tmp_path, capsys)
    assert "member 'small/data/sample_inputs/model.pt' is a pickle that imports 'posix.system'" in error, error
    assert not marker.exists()
    # The peer: torch itself runs it.
    subprocess.run(
        [sys.executable, "-c", f"import torch\ntry: torch.export.load({str(path)!r})\nexcept Exception: pass"],
        capture_output=True,
        check=False,
    )
    assert marker.exists()


@pytest.mark.parametrize("as_torch_save", [False, True], ids=["bare pickle", "torch.save archive"])
def test_a_weight_marked_use_pickle_under_a_name_of_other_case_is_checked_and_never_run(
    as_torch_save: bool, saved_program: bytes, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The weights config marks a weight use_pickle with its path_name upper-cased: torch's archive reader
    finds the member whatever its case and reads it with torch.load(weights_only=False). The member holds
    a pickle calling os.system, bare or inside a torch.save archive: refused, never run."""
    marker = tmp_path / "ran"
    archive = zipfile.ZipFile(io.BytesIO(saved_program))
    config_name = next(m.filename for m in archive.infolist() if m.filename.endswith("weights_config.json"))
    config = json.loads(archive.read(config_name))
    entry = next(iter(config["config"].values()))
    weight_name = posixpath.join(posixpath.dirname(config_name), entry["path_name"])
    entry.update(use_pickle=True, path_name=entry["path_name"].upper())
    if as_torch_save:
        payload = io.BytesIO()
        torch.save(RunsCode(marker), payload)
        data = payload.getvalue()
    else:
        data = pickle.dumps(RunsCode(marker), protocol=2)
    path = rewritten(
        saved_program,
        tmp_path / "small.pt2",
        [(config_name, json.dumps(config).encode(), zipfile.ZIP_STORED), (weight_name, data, zipfile.ZIP_STORED)],
        drop=None,
        dropped=(config_name, weight_name),
    )
    error = refused(path, tmp_path, capsys)
    expected = "is a pickle that imports 'posix.system'" if as_torch_save else "is not a torch.save archive"
    assert f"member {weight_name!r}" in error and expected in error, error
    assert not marker.exists()


def save_a_program_calling_an_op_defined_elsewhere(path: pathlib.Path) -> None:
    """Saved in another process, where the op opbridge_elsewhere::double was defined."""
    script = textwrap.dedent(
        f"""
        import torch

        @torch.library.custom_op("opbridge_elsewhere::double", mutates_args=())
        def double(x: torch.Tensor) -> torch.Tensor:
            return x * 2

        @double.register_fake
        def _(x):
            return torch.empty_like(x)

        class M(torch.nn.Module):
            def forward(self, x):
                return torch.ops.opbridge_elsewhere.double(x)

        torch.export.save(torch.export.export(M(), (torch.randn(2, 3),)), {str(path)!r})
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True)
    assert zipfile.is_zipfile(path)


def test_a_program_calling_an_undefined_custom_op_names_it(tmp_path: pathlib.Path) -> None:
    """Loaded here, where no plugin defines the op."""
    path = tmp_path / "custom.pt2"
    save_a_program_calling_an_op_defined_elsewhere(path)
    with pytest.raises(ModelFormatError, match=r"calls torch\.ops\.opbridge_elsewhere\.double\.default") as raised:
        load_torch_program(path, CONTEXT)
    assert "--plugin" in raised.value.hint


def test_the_command_line_converts_a_pt2_file(saved_program: bytes, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "small.pt2"
    path.write_bytes(saved_program)
    output = tmp_path / "module"
    status = main(["convert", str(path), "-o", str(output), "--prefix", "small", "-q", "--no-entry-points"])
    assert status == 0
    assert (output / "src" / "small.c").is_file() and (output / "includes-api" / "small.h").is_file()


def test_converting_without_the_plugin_prints_opbridge_s_error_and_not_torch_s_tracebacks(
    tmp_path: pathlib.Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """torch logs its deserialization failure with tracebacks through handlers of its own; opbridge records
    them for its error instead, and puts torch's logging back as it was."""
    import logging

    path = tmp_path / "custom.pt2"
    save_a_program_calling_an_op_defined_elsewhere(path)
    handlers = {name: logging.getLogger(name).handlers[:] for name in ("torch", "torch.export")}
    capfd.readouterr()
    assert main(["convert", str(path), "-o", str(tmp_path / "out"), "-q", "--no-entry-points"]) == 1
    err = capfd.readouterr().err
    assert "calls torch.ops.opbridge_elsewhere.double.default, which is not defined in this process" in err
    assert "Traceback" not in err and "deserializing" not in err, err
    assert len(err.strip().splitlines()) == 2, err  # the error and its hint
    assert {name: logging.getLogger(name).handlers for name in handlers} == handlers


@pytest.mark.parametrize("inside_bazel", [False, True])
def test_a_plugin_the_command_line_cannot_import_is_named_with_how_to_make_it_importable(
    tmp_path: pathlib.Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    saved_program: bytes,
    inside_bazel: bool,
) -> None:
    path = tmp_path / "small.pt2"
    path.write_bytes(saved_program)
    for variable in ("RUNFILES_DIR", "RUNFILES_MANIFEST_FILE"):
        monkeypatch.delenv(variable, raising=False)
    # As a user runs it: from a Bazel target's runfiles tree, or from a shell.
    monkeypatch.setattr(sys, "argv", ["opbridge"])
    monkeypatch.setattr(sys, "path", [entry for entry in sys.path if ".runfiles" not in entry])
    if inside_bazel:
        runfiles = tmp_path / "bazel-bin" / "tools" / "my_opbridge.runfiles"
        runfiles.mkdir(parents=True)
        monkeypatch.setenv("RUNFILES_DIR", str(runfiles))
    arguments = ["convert", str(path), "-o", str(tmp_path / "out"), "-q", "--no-entry-points"]
    assert main([*arguments, "--plugin", "absent_ops.plugin"]) == 1
    err = capfd.readouterr().err
    assert "plugin module 'absent_ops.plugin' failed to import: ModuleNotFoundError" in err
    if inside_bazel:
        assert "the Bazel target //tools:my_opbridge, whose runfiles lack the package 'absent_ops'" in err
        assert "host_py_binary of //python/opbridge:cli.py with deps = [<the plugin's py_library>" in err
    else:
        assert "put the folder that holds the package 'absent_ops' on PYTHONPATH" in err


def test_float_islands_of_an_int8_graph_are_noted() -> None:
    from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e

    class WithExp(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.linear = torch.nn.Linear(4, 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.linear(torch.exp(x)))

    example = (torch.randn(2, 4),)
    module = quantize_pt2e(WithExp(), example, [example], OpbridgeQuantizer.for_context(CONTEXT))
    graph = read_exported_program(torch.export.export(module, example), CONTEXT)
    (note,) = graph.notes
    assert note.startswith("pt2e: 1 node(s) run in float32 between a dequantize and a quantize: exp (EXP)")
    int8_only = read_exported_program(
        torch.export.export(
            quantize_pt2e(Small(), (torch.randn(1, 2, 4, 4),), [(torch.randn(1, 2, 4, 4),)]), (torch.randn(1, 2, 4, 4),)
        ),
        CONTEXT,
    )
    assert int8_only.notes == ("pt2e: every operator runs in int8",)
