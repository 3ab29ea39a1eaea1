# SPDX-License-Identifier: Apache-2.0
"""@torch_packages//:torch on top of the pinned venv: torch's CPU build, torchao's PT2E, onnxscript.

The torch packages are a second import root (`imports = ["site-packages"]`).
Bazel puts it on PYTHONPATH, which Python searches before the venv's own
site-packages, so the two must never provide the same module: the packages
torch shares with the rest of opbridge (numpy, onnx, protobuf, ...) come
from the main venv, in its locked versions.
"""

import logging
import marshal
import os
import pathlib
import sys
import sysconfig

# Before torch is imported: record every attempt to write below its import
# root. With the repository's checked-hash bytecode in place, importing must
# find every .pyc valid and write nothing (the runfiles are read-only).
_WRITES: list[tuple[str, str]] = []
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


_PYTEST_REWRITER = os.path.join("_pytest", "assertion", "rewrite.py")


def _by_pytest_rewriter() -> bool:
    """pytest rewrites (and caches) every module named test_*.py, torch/_inductor/test_operators.py too."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.endswith(_PYTEST_REWRITER):
            return True
        frame = frame.f_back
    return False


def _record_writes(event: str, args: tuple) -> None:
    if event == "open":
        writes = isinstance(args[2], int) and bool(args[2] & _WRITE_FLAGS)
    else:
        writes = event in ("os.mkdir", "os.rename", "os.replace")
    if writes and isinstance(args[0], str | bytes) and not _by_pytest_rewriter():
        _WRITES.append((event, os.fsdecode(args[0])))


sys.addaudithook(_record_writes)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# torchao logs "Failed to load <library>" for native libraries it cannot load
# (its CUDA kernels, which torch_packages.bzl removes).
_TORCHAO_LOG = _Records()
logging.getLogger("torchao").addHandler(_TORCHAO_LOG)

import google.protobuf  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy  # noqa: E402
import onnx  # noqa: E402
import onnx_ir  # noqa: E402
import onnxscript  # noqa: E402
import packaging  # noqa: E402
import torch  # noqa: E402
import torchao  # noqa: E402
import typing_extensions  # noqa: E402
from packaging.requirements import Requirement  # noqa: E402
from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e  # noqa: E402
from torchao.quantization.pt2e.quantizer import Quantizer  # noqa: E402

logging.getLogger("torchao").removeHandler(_TORCHAO_LOG)

TORCH_LOCK = pathlib.Path("third_party/python/torch/requirements_lock.txt")
TORCH_SITE = pathlib.Path(torch.__file__).parents[1]
VENV_SITE = pathlib.Path(sysconfig.get_paths()["purelib"])


def test_locked_versions_are_installed() -> None:
    assert torch.__version__ == "2.13.0+cpu"
    assert torchao.__version__ == "0.18.0"
    from importlib import metadata

    pins = {}
    for line in TORCH_LOCK.read_text().splitlines():
        if line and line[0] not in "# ":
            requirement = Requirement(line.rstrip(" \\"))
            (specifier,) = requirement.specifier
            pins[requirement.name] = specifier.version
    assert {"torch", "torchao", "onnxscript", "onnx-ir", "sympy"} <= pins.keys()
    for name, version in pins.items():
        distribution = metadata.distribution(name)
        assert distribution.version == version, name
        assert pathlib.Path(distribution.locate_file("")) == TORCH_SITE, name


def test_torch_comes_from_its_own_repository() -> None:
    assert TORCH_SITE.name == "site-packages"
    assert TORCH_SITE.parent.name == "torch_packages", TORCH_SITE
    assert pathlib.Path(onnxscript.__file__).parents[1] == TORCH_SITE
    assert pathlib.Path(onnx_ir.__file__).parents[1] == TORCH_SITE


def test_shared_packages_come_from_the_main_venv() -> None:
    assert VENV_SITE.is_relative_to(sys.prefix), VENV_SITE
    for module in (numpy, onnx, ml_dtypes, google.protobuf, packaging, typing_extensions):
        assert pathlib.Path(module.__file__).is_relative_to(VENV_SITE), module
    assert numpy.__version__ == "2.4.6"
    assert onnx.__version__ == "1.23.2"


def _top_level_names(site: pathlib.Path) -> set[str]:
    names = set()
    for entry in site.iterdir():
        if entry.name.endswith((".dist-info", ".pth")) or entry.name in ("__pycache__", "bin", "share"):
            continue
        names.add(entry.name.split(".")[0])
    return names


def test_nothing_in_torch_packages_shadows_the_venv_or_the_standard_library() -> None:
    """PYTHONPATH comes first on sys.path, so this is what keeps the main venv's packages in charge."""
    ours = _top_level_names(TORCH_SITE)
    assert {"torch", "torchao", "onnxscript", "sympy"} <= ours
    assert not ours & _top_level_names(VENV_SITE)
    assert not ours & sys.stdlib_module_names
    from importlib import metadata

    venv = {distribution.name.lower() for distribution in metadata.distributions(path=[str(VENV_SITE)])}
    ours = {distribution.name.lower() for distribution in metadata.distributions(path=[str(TORCH_SITE)])}
    assert not venv & ours


def test_torchao_loads_its_native_libraries_without_failures() -> None:
    # (torchao.kernel.intmm also logs "Detected no triton" to a logger with a
    # NullHandler: expected on CPU, and shown only when logging is set up.)
    assert [record.getMessage() for record in _TORCHAO_LOG.records if "Failed to load" in record.getMessage()] == []
    assert not list(pathlib.Path(torchao.__file__).parent.glob("_C*.so"))
    # The CPU ops that PT2E's quantize/dequantize use are registered.
    assert hasattr(torch.ops.torchao, "quantize_affine")


def test_imports_use_the_repositorys_bytecode() -> None:
    import importlib.util

    assert [write for write in _WRITES if pathlib.Path(write[1]).is_relative_to(TORCH_SITE)] == []
    # Modules imported from a .py file (torch also makes modules of its own, without a spec).
    specs = [getattr(module, "__spec__", None) for module in list(sys.modules.values())]
    sources = {pathlib.Path(spec.origin): pathlib.Path(spec.cached) for spec in specs if spec and spec.cached}
    ours = {source: cached for source, cached in sources.items() if source.is_relative_to(TORCH_SITE)}
    assert len(ours) > 500
    for source, cached in ours.items():
        header = cached.read_bytes()[:16]
        assert header[:4] == importlib.util.MAGIC_NUMBER, cached
        assert int.from_bytes(header[4:8], "little") == 0b11, f"{cached} is not checked-hash bytecode"
        assert header[8:16] == importlib.util.source_hash(source.read_bytes()), f"{cached} is stale"
    # The source path it records is the repository's, not this checkout's
    # (importing replaces it with the real path; tracebacks show that one).
    code = marshal.loads(pathlib.Path(torch.__spec__.cached).read_bytes()[16:])
    assert code.co_filename == "@torch_packages//site-packages/torch/__init__.py"


class ConvRelu(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, kernel_size=3)
        self.relu = torch.nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu(self.conv(x))


class AnnotateNothing(Quantizer):
    """A quantizer that quantizes nothing: PT2E's plumbing without a backend's rules."""

    def annotate(self, model: torch.fx.GraphModule) -> torch.fx.GraphModule:
        return model

    def validate(self, model: torch.fx.GraphModule) -> None:
        pass


def _targets(graph_module: torch.fx.GraphModule) -> set:
    return {node.target for node in graph_module.graph.nodes if node.op == "call_function"}


def test_export_and_pt2e() -> None:
    torch.manual_seed(0)
    model = ConvRelu().eval()
    example = (torch.randn(1, 3, 8, 8),)
    exported = torch.export.export(model, example)
    assert {torch.ops.aten.conv2d.default, torch.ops.aten.relu.default} <= _targets(exported.graph_module)

    prepared = prepare_pt2e(exported.module(), AnnotateNothing())
    prepared(*example)  # calibration
    converted = convert_pt2e(prepared)
    assert {torch.ops.aten.conv2d.default, torch.ops.aten.relu.default} <= _targets(converted)
    torch.testing.assert_close(converted(*example), model(*example))


def test_onnx_export_through_onnxscript() -> None:
    program = torch.onnx.export(ConvRelu().eval(), (torch.randn(1, 3, 8, 8),), dynamo=True, verbose=False)
    assert [node.op_type for node in program.model_proto.graph.node] == ["Conv", "Relu"]
    onnx.checker.check_model(program.model_proto)
