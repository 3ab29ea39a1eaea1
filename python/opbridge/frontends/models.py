# SPDX-License-Identifier: Apache-2.0
"""Loads a model file of any supported format, chosen by its contents."""

import pathlib
from typing import Any

from opbridge.errors import ModelFormatError
from opbridge.frontends.litert.reader import FILE_IDENTIFIER as TFLITE_FILE_IDENTIFIER
from opbridge.ir import Graph
from opbridge.registry_context import RegistryContext

# A .pt2 file (torch.export.save) is a zip archive.
PT2_MAGIC = b"PK\x03\x04"


def is_exported_program(model: Any) -> bool:
    """True for a torch.export.ExportedProgram (checked without importing torch)."""
    return any(
        cls.__name__ == "ExportedProgram" and cls.__module__.startswith("torch.export") for cls in type(model).__mro__
    )


def model_format(model: Any) -> str:
    """ "litert", "onnx" or "torch": the frontend that reads `model` (a path or an ExportedProgram), chosen
    as load_model chooses it; a file that cannot be read or is none of them is "unknown"."""
    if is_exported_program(model):
        return "torch"
    path = pathlib.Path(model)
    try:
        with path.open("rb") as file:
            head = file.read(8)
    except OSError:
        return "unknown"
    if head[4:8] == TFLITE_FILE_IDENTIFIER or path.suffix == ".tflite":
        return "litert"
    if path.suffix == ".pt2" or head[:4] == PT2_MAGIC:
        return "torch"
    return "onnx" if path.suffix == ".onnx" else "unknown"


def load_model(
    path: Any,
    context: RegistryContext,
    *,
    torch_int8_arithmetic: str = "tflite",
    onnx_int8_arithmetic: str = "onnx",
    onnx_max_folded_bytes: int | None = None,
) -> Graph:
    """A .tflite (LiteRT), .onnx or .pt2 (torch.export.save) model, or an ExportedProgram, as a graph.
    ONNX and PyTorch graphs arrive through their frontends' passes: constant-folded, so shape
    subgraphs and constant weights arrive as constants like in LiteRT models. `torch_int8_arithmetic`:
    how PT2E programs' int8 convolutions rescale (ConvertArgs.torch_int8_arithmetic); `onnx_int8_arithmetic`:
    how ONNX models' do (ConvertArgs.onnx_int8_arithmetic); `onnx_max_folded_bytes`: the largest constant
    an ONNX model's constant subgraphs fold into (ConvertArgs.onnx_max_folded_bytes; None: the default)."""
    if is_exported_program(path):
        from opbridge.frontends.torch.program import read_exported_program

        return read_exported_program(path, context, int8_arithmetic=torch_int8_arithmetic)
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    if data[4:8] == TFLITE_FILE_IDENTIFIER or path.suffix == ".tflite":
        from opbridge.frontends.litert.reader import read_litert_model

        return read_litert_model(data, context, source=str(path))
    if path.suffix == ".pt2" or data[:4] == PT2_MAGIC:
        from opbridge.frontends.torch.program import load_torch_program

        return load_torch_program(path, context, int8_arithmetic=torch_int8_arithmetic)
    if path.suffix == ".onnx":
        from opbridge.frontends.onnx.importer import read_onnx_model
        from opbridge.frontends.onnx.preparation import MAX_FOLDED_BYTES

        return read_onnx_model(
            data,
            context,
            source=str(path),
            int8_arithmetic=onnx_int8_arithmetic,
            base_dir=path.parent,
            max_folded_bytes=MAX_FOLDED_BYTES if onnx_max_folded_bytes is None else onnx_max_folded_bytes,
        )
    raise ModelFormatError(
        f"{path}: not a LiteRT flatbuffer (no TFL3 identifier), not a .pt2 archive and not named .onnx",
        hint="pass a .tflite, .onnx or .pt2 model",
    )
