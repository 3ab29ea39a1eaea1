# SPDX-License-Identifier: Apache-2.0
"""What OpenVINO says when a generated extension cannot serve: a dtype the schema refuses, a param the node
does not carry, an OpenVINO release or a second runtime the extension was not built for; and the command
line that writes the extension's source.

Each message comes from OpenVINO's side (the extension's checks, raised through OpenVINO's API) and names
the op and the fix.
"""

import os
import pathlib
import re
import subprocess
import sys
import textwrap

import openvino as ov
import pytest
from onnx import TensorProto
from onnx_int8_torch.model import make_model as make_int8_torch_model
from opbridge import cli
from openvino_test_models import SOFT_CLIP_EXTENSION, save, soft_clip_alone, soft_clip_core
from soft_clip.plugin import KERNEL as SOFT_CLIP_KERNEL

OP = "SoftClip (com.example.soft_clip)"
RUNTIME_RELEASE = ov.get_version().split("-")[0]  # 2026.4.1 as the pinned wheel says it
LIBOPENVINO = next((pathlib.Path(ov.__file__).resolve().parent / "libs").glob("libopenvino.so.*"))


def test_a_dtype_the_schema_refuses_is_named_with_the_allowed_one(tmp_path: pathlib.Path) -> None:
    path = save(soft_clip_alone([2, 3], 2.0, TensorProto.INT32), tmp_path)
    with pytest.raises(RuntimeError) as raised:
        soft_clip_core().read_model(path)
    message = str(raised.value)
    assert f"{OP}: input 0 (x) is int32; the schema allows float32 (type T)" in message
    assert "convert the input before the op, or widen the schema's type constraint and the kernel" in message


def test_a_computed_param_missing_from_the_node_is_named_with_the_fix(tmp_path: pathlib.Path) -> None:
    """The int8 PyTorch op's params come from its tensors' quantization (param_values_of), which the ONNX
    node as make_model writes it does not carry: read_model says which attribute and how to pass it."""
    core = ov.Core()
    core.add_extension(os.path.abspath(os.environ["OPBRIDGE_INT8_TORCH_OPENVINO_EXTENSION"]))
    path = tmp_path / "model.onnx"
    path.write_bytes(make_int8_torch_model((2, 3)))
    with pytest.raises(RuntimeError) as raised:
        core.read_model(path)
    message = str(raised.value)
    assert 'OnnxInt8Torch (com.example.onnx_int8_torch): the node lacks the int attribute "zero_point"' in message
    assert "the plugin computes this param (param_values_of)" in message
    assert "write KERNEL.param_values(graph, node) into the node's attributes" in message
    assert "add it to the node" not in message


def test_an_extension_built_for_another_openvino_release_is_refused_with_how_to_rebuild() -> None:
    """The same generated source, compiled as if against OpenVINO 2025.4.0's headers (BUILD.bazel)."""
    assert RUNTIME_RELEASE == "2026.4.1"  # the pinned wheel (third_party/python/requirements.in)
    with pytest.raises(RuntimeError) as raised:
        ov.Core().add_extension(os.path.abspath(os.environ["OPBRIDGE_SOFT_CLIP_OPENVINO_EXTENSION_2025_4"]))
    message = str(raised.value)
    assert (
        f"{OP}: this OpenVINO extension was built for OpenVINO 2025.4.0, but the runtime loading it is "
        f"OpenVINO {RUNTIME_RELEASE}; rebuild the extension against the runtime's release" in message
    )
    assert "`opbridge kernel-adapters KEY --openvino-extension FILE.cpp`" in message
    assert "pin openvino==<release> in third_party/python/requirements.in" in message


# Run in a child process: a second libopenvino in this one could disturb the other tests.
SECOND_RUNTIME = textwrap.dedent(
    """
    import ctypes, os, shutil, sys
    import openvino as ov
    copy = shutil.copy(sys.argv[1], sys.argv[2])
    ctypes.CDLL(copy, mode=os.RTLD_LOCAL)
    try:
        ov.Core().add_extension(sys.argv[3])
    except RuntimeError as error:
        print(error)
    else:
        print("no error")
    """
)


def test_a_second_libopenvino_in_the_process_is_named(tmp_path: pathlib.Path) -> None:
    """A second OpenVINO runtime (here a copy of the pinned one under another release's file name) loaded
    beside the one the extension links: add_extension refuses, naming both libraries."""
    copy = tmp_path / "libopenvino.so.2550"
    child = subprocess.run(
        [sys.executable, "-c", SECOND_RUNTIME, str(LIBOPENVINO), str(copy), SOFT_CLIP_EXTENSION],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    found = re.search(r"two OpenVINO runtimes are loaded in this process, (\S+) \(the one this extension", child.stdout)
    assert found, child.stdout
    assert pathlib.Path(found.group(1)).resolve() == LIBOPENVINO
    assert f"built for OpenVINO {RUNTIME_RELEASE}, links) and {copy};" in child.stdout
    assert "rebuild the extension against the runtime's release" in child.stdout


def test_the_command_line_writes_the_extension_custom_op_builds(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`opbridge kernel-adapters SOFT_CLIP --plugin soft_clip.plugin --openvino-extension X.cpp` writes the
    source that custom_op compiles into libsoft_clip_openvino.so (the one the other tests load), and it
    compiles warning-free against the pinned OpenVINO headers; with no output flag, the error names it."""
    source = tmp_path / "soft_clip_openvino_extension.cpp"
    arguments = ["kernel-adapters", "SOFT_CLIP", "--no-entry-points", "--plugin", "soft_clip.plugin"]
    assert cli.main([*arguments, "--openvino-extension", str(source)]) == 0
    assert f"wrote {source}" in capsys.readouterr().out
    assert source.read_text() == pathlib.Path(os.environ["OPBRIDGE_SOFT_CLIP_OPENVINO_SOURCE"]).read_text()
    include = pathlib.Path(ov.__file__).resolve().parent / "include"
    kernel_api = pathlib.Path.cwd()  # the workspace (runfiles) root, which holds cc/kernels/opbridge_kernel_api.h
    assert (kernel_api / "cc/kernels/opbridge_kernel_api.h").is_file()
    command = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-isystem", str(include)]
    command += [f"-I{kernel_api}", f"-I{SOFT_CLIP_KERNEL.header.parent}", str(source)]
    compiled = subprocess.run(command, capture_output=True, text=True, check=False)
    assert compiled.returncode == 0, compiled.stderr

    assert cli.main(arguments) == 1
    error = capsys.readouterr().err
    assert "nothing to write" in error and "--openvino-extension FILE.cpp" in error
