# SPDX-License-Identifier: Apache-2.0
"""Copies ONNX's test models out of the installed `onnx` wheel, for aot_model:
`conformance_models.py OUT/test_Conv1d.onnx ...` writes each named model's model.onnx."""

import pathlib
import sys

import onnx

DATA = pathlib.Path(onnx.__file__).parent / "backend" / "test" / "data"
SUITES = ("pytorch-converted", "pytorch-operator")


def main(outputs: list[str]) -> None:
    for output in map(pathlib.Path, outputs):
        found = [DATA / suite / output.stem / "model.onnx" for suite in SUITES]
        source = next((path for path in found if path.is_file()), None)
        if source is None:
            sys.exit(f"no test model {output.stem!r} in {DATA} ({', '.join(SUITES)})")
        output.write_bytes(source.read_bytes())


if __name__ == "__main__":
    main(sys.argv[1:])
