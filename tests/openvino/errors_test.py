# SPDX-License-Identifier: Apache-2.0
"""What OpenVINO says when a generated extension cannot serve: a dtype the schema refuses, a param the node
does not carry or carries as another type, a non-finite param, tensors of other dtypes given to evaluate, an
OpenVINO release or a runtime the extension was not built for (and a second libopenvino it need not mind);
and the command line that writes the extension's source.

Each message comes from OpenVINO's side (the extension's checks, raised through OpenVINO's API) and names
the op and the fix.
"""

import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numpy as np
import openvino as ov
import pytest
from onnx import TensorProto, helper
from onnx_int8_torch.model import make_model as make_int8_torch_model
from opbridge import cli
from opbridge.errors import OpbridgeError
from opbridge.frontends.models import load_model
from openvino_test_models import SOFT_CLIP_CONTEXT, SOFT_CLIP_EXTENSION, save, soft_clip_alone, soft_clip_core
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
    """The same generated source, compiled as if against OpenVINO 2025.4.0's headers (BUILD.bazel): the
    headers' release and the runtime's differ."""
    assert RUNTIME_RELEASE == "2026.4.1"  # the pinned wheel (third_party/python/requirements.in)
    with pytest.raises(RuntimeError) as raised:
        ov.Core().add_extension(os.path.abspath(os.environ["OPBRIDGE_SOFT_CLIP_OPENVINO_EXTENSION_2025_4"]))
    message = str(raised.value)
    assert (
        f"{OP}: this OpenVINO extension was built for OpenVINO 2025.4.0 (its headers), but the runtime loading it "
        f"is OpenVINO {RUNTIME_RELEASE}; rebuild the extension against the runtime that loads it" in message
    )
    assert "`opbridge kernel-adapters KEY --openvino-extension FILE.cpp`" in message
    assert "pin openvino==<release> in third_party/python/requirements.in" in message


def _child(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Runs `script` in a child process (what it does to its process must not reach the other tests)."""
    command = [sys.executable, "-c", textwrap.dedent(script), *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_an_extension_called_by_other_code_than_the_runtime_it_links_is_refused_naming_both() -> None:
    """create_extensions checks that its caller lies in the libopenvino the extension links (an extension
    built against another install would mix two runtimes' objects). Called here through ctypes, its caller
    is libffi: the check throws, and as no C++ frame can catch it the child ends with the message."""
    child = _child(
        """
        import ctypes, sys
        import openvino
        extension = ctypes.CDLL(sys.argv[1])
        extension.create_extensions(ctypes.create_string_buffer(64))  # an empty std::vector's room
        print("returned")
        """,
        SOFT_CLIP_EXTENSION,
    )
    assert child.returncode != 0 and "returned" not in child.stdout, (child.returncode, child.stdout)
    found = re.search(
        r"this OpenVINO extension links (\S+) \(OpenVINO [0-9.]+\) but is loaded by (\S+), not", child.stderr
    )
    assert found, child.stderr
    assert pathlib.Path(found.group(1)).resolve() == LIBOPENVINO
    assert "libffi" in found.group(2)
    assert f"{OP}: " in child.stderr and "rebuild the extension against the runtime that loads it" in child.stderr


def test_another_libopenvino_loaded_beside_does_not_stop_the_extension(tmp_path: pathlib.Path) -> None:
    """A second copy of libopenvino loaded privately (RTLD_LOCAL, as another library's dependency would be) is
    no concern of the extension: it binds to the runtime of the Core that loads it, and runs."""
    child = _child(
        """
        import ctypes, os, shutil, sys
        import numpy as np
        import openvino as ov
        ctypes.CDLL(shutil.copy(sys.argv[1], sys.argv[2]), mode=os.RTLD_LOCAL)
        core = ov.Core()
        core.add_extension(sys.argv[3])
        compiled = core.compile_model(core.read_model(sys.argv[4]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        print(compiled([np.full((2, 3), 4.0, np.float32)])[0].tolist())
        """,
        str(LIBOPENVINO),
        str(tmp_path / "libopenvino.so.2550"),
        SOFT_CLIP_EXTENSION,
        str(save(soft_clip_alone([2, 3], 4.0), tmp_path)),
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == str([[2.0] * 3] * 2)  # 4 / (1 + 4 / 4)


def test_an_attribute_of_another_type_is_refused_not_defaulted(tmp_path: pathlib.Path) -> None:
    """opbridge refuses a string `limit`; so does the extension, rather than running with the default."""
    model = soft_clip_alone([2, 3], 2.0)
    (attribute,) = model.graph.node[0].attribute
    model.graph.node[0].attribute.remove(attribute)
    model.graph.node[0].attribute.append(helper.make_attribute("limit", "2.0"))
    path = save(model, tmp_path)
    with pytest.raises(OpbridgeError, match="'limit'"):
        load_model(path, SOFT_CLIP_CONTEXT)
    with pytest.raises(RuntimeError) as raised:
        soft_clip_core().read_model(path)
    assert f'{OP}: attribute "limit" is not a number; the kernel takes a float' in str(raised.value)


def test_a_non_finite_param_set_after_conversion_is_refused_by_validation(tmp_path: pathlib.Path) -> None:
    """The IR reader and set_attribute set params without the frontend's checks: validation checks them too."""
    model = soft_clip_core().read_model(save(soft_clip_alone([2, 3], 2.0), tmp_path))
    (operation,) = [op for op in model.get_ordered_ops() if op.get_type_name() == "SoftClip"]
    operation.set_attribute("limit", float("nan"))
    with pytest.raises(RuntimeError, match=f'{re.escape(OP)}: attribute "limit" is .*nan.*give it a finite value'):
        operation.validate_and_infer_types()


def test_evaluate_refuses_tensors_of_other_dtypes_than_the_inputs_make(tmp_path: pathlib.Path) -> None:
    """A caller of evaluate may pass tensors of other types than the validated ones; the kernel trusts the
    dtypes it is given, so evaluate checks them (an int8 output for float32 values would be overrun)."""
    model = soft_clip_core().read_model(save(soft_clip_alone([4], 2.0), tmp_path))
    (operation,) = [op for op in model.get_ordered_ops() if op.get_type_name() == "SoftClip"]
    x = ov.Tensor(np.ones(4, np.float32))
    with pytest.raises(
        RuntimeError, match=f"{re.escape(OP)}: output 0 is given as int8 but the inputs make it float32"
    ):
        operation.evaluate([ov.Tensor(ov.Type.i8, [4])], [x])
    with pytest.raises(RuntimeError, match=f"{re.escape(OP)}: input 0 \\(x\\) is int32; the schema allows float32"):
        operation.evaluate([ov.Tensor(ov.Type.f32, [4])], [ov.Tensor(np.ones(4, np.int32))])
    output = ov.Tensor(ov.Type.f32, [4])
    assert operation.evaluate([output], [x])
    np.testing.assert_array_equal(output.data, np.full(4, np.float32(1) / (np.float32(1) + np.float32(0.5))))


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
