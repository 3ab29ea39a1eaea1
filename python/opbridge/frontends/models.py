# SPDX-License-Identifier: Apache-2.0
"""Loads a model file of any supported format, chosen by its contents."""

import pathlib

from opbridge.errors import ModelFormatError
from opbridge.ir import Graph
from opbridge.registry_context import RegistryContext

# A .tflite flatbuffer carries its file identifier at bytes 4..8.
TFLITE_IDENTIFIER = b"TFL3"


def load_model(path: pathlib.Path | str, context: RegistryContext) -> Graph:
    """A .tflite (LiteRT) or .onnx model as a graph. ONNX graphs arrive through the ONNX
    frontend's passes (read_onnx_model): constant-folded, so shape subgraphs and constant
    weights arrive as constants like in LiteRT models."""
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ModelFormatError(f"cannot read model {path}: {error.strerror}", hint="check the path") from None
    if data[4:8] == TFLITE_IDENTIFIER or path.suffix == ".tflite":
        from opbridge.frontends.litert.reader import read_litert_model

        return read_litert_model(data, context, source=str(path))
    if path.suffix == ".onnx":
        from opbridge.frontends.onnx.importer import read_onnx_model

        return read_onnx_model(data, context, source=str(path))
    raise ModelFormatError(
        f"{path}: not a LiteRT flatbuffer (no TFL3 identifier) and not named .onnx",
        hint="pass a .tflite or .onnx model",
    )
