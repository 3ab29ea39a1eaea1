# SPDX-License-Identifier: Apache-2.0
"""ONNX's own test models through opbridge: the 117 models exported from PyTorch that ship in the
`onnx` wheel (onnx/backend/test/data/pytorch-converted and pytorch-operator), each with its inputs
and expected outputs, read with no preprocessing.

Every model either
- matches its stored outputs through the reference interpreter (relative tolerance 1e-4), and, when
  it holds no float64, compiles to C whose golden test passes with the host gcc (a float64 model is
  refused for C with a typed error naming the tensor); or
- is refused with a typed error naming the node, and is listed with its reason in docs/onnx.md
  ("ONNX's test models"), which this test reads: the list and the behaviour cannot drift apart.
"""

import dataclasses
import pathlib
import re
import time

import numpy as np
import onnx
import onnx.numpy_helper
import pytest
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import OpbridgeError, UnsupportedTensorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program

DATA = pathlib.Path(onnx.__file__).parent / "backend" / "test" / "data"
SUITES = ("pytorch-converted", "pytorch-operator")
MODELS = sorted((path for suite in SUITES for path in (DATA / suite).iterdir()), key=lambda path: path.name)
DOCS = pathlib.Path("docs/onnx.md")
RTOL, ATOL = 1e-4, 1e-6
CONTEXT = default_registry_context()


def documented_refusals() -> dict[str, str]:
    """docs/onnx.md's table of the test models opbridge refuses: model name -> reason."""
    text = DOCS.read_text()
    table = text.split("<!-- conformance: read by tests/onnx/conformance_test.py -->", 1)[1]
    table = table.split("<!-- end conformance -->", 1)[0]
    rows = re.findall(r"^\| `(test_\w+)` \| (.+?) \|$", table, flags=re.MULTILINE)
    return dict(rows)


REFUSED = documented_refusals()


@dataclasses.dataclass
class Tally:
    matched: list[str] = dataclasses.field(default_factory=list)
    compiled: list[str] = dataclasses.field(default_factory=list)
    refused: list[str] = dataclasses.field(default_factory=list)
    float64: list[str] = dataclasses.field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")


TALLY = Tally()


def stored_tensors(directory: pathlib.Path, kind: str) -> dict[str, np.ndarray]:
    tensors = {}
    paths = (directory / "test_data_set_0").glob(f"{kind}_*.pb")
    for path in sorted(paths, key=lambda path: int(path.stem.split("_")[-1])):  # input_2 before input_10
        proto = onnx.load_tensor(str(path))
        tensors[proto.name or path.stem] = onnx.numpy_helper.to_array(proto)
    return tensors


def test_the_suites_hold_the_117_models_and_the_docs_name_only_them() -> None:
    assert len(MODELS) == 117
    names = {path.name for path in MODELS}
    assert set(REFUSED) <= names, sorted(set(REFUSED) - names)


@pytest.mark.parametrize("directory", MODELS, ids=[path.name for path in MODELS])
def test_model(directory: pathlib.Path, tmp_path: pathlib.Path) -> None:
    name = directory.name
    data = (directory / "model.onnx").read_bytes()
    started = time.perf_counter()
    try:
        graph = read_onnx_model(data, CONTEXT, source=name)
    except OpbridgeError as error:
        TALLY.refused.append(name)
        assert name in REFUSED, f"{name} is refused but docs/onnx.md does not list it: {error}"
        nodes = onnx.load_model_from_string(data).graph.node
        names = [node.name or f"{node.op_type}_{position}" for position, node in enumerate(nodes)]
        assert any(f'"{n}"' in str(error) or f"({n}" in str(error) for n in names), f"no node named: {error}"
        return
    TALLY.slowest = max(TALLY.slowest, (time.perf_counter() - started, name))
    opset = next(entry.version for entry in onnx.load_model_from_string(data).opset_import if entry.domain == "")
    if opset < 13:
        assert f"import: ONNX opset {opset} upgraded to 13 with onnx.version_converter" in graph.notes
    assert name not in REFUSED, f"{name} converts now: remove it from the table in docs/onnx.md"
    inputs, expected = stored_tensors(directory, "input"), stored_tensors(directory, "output")
    by_name = all(tensor.name in inputs for tensor in graph.input_tensors())
    # Files without tensor names hold the graph's inputs in order (the weights are initializers).
    feeds = [inputs[t.name] for t in graph.input_tensors()] if by_name else list(inputs.values())[: len(graph.inputs)]
    actual = ReferenceInterpreter(graph, CONTEXT).run(feeds)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected.values(), strict=True):
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=name)
    TALLY.matched.append(name)
    model = tmp_path / "model.onnx"
    model.write_bytes(data)
    golden = tmp_path / "golden_test.c"
    config = ConvertArgs(model=model, output_dir=tmp_path / "module", prefix="m", golden_test=golden, golden_cases=2)
    if any(tensor.dtype is DType.FLOAT64 for tensor in graph.tensors):
        # The host reference runs float64; a Cortex-M module is refused it, naming the tensor, with nothing written.
        with pytest.raises(UnsupportedTensorError, match=r'tensor \d+ "[^"]*" float64\[.*\] is float64'):
            AotConverter(config, registry_context=CONTEXT).convert()
        assert not (tmp_path / "module").exists() and not golden.exists()
        TALLY.float64.append(name)
        return
    AotConverter(config, registry_context=CONTEXT).convert()
    assert "0 failures" in run_golden_program(tmp_path / "module", golden)
    TALLY.compiled.append(name)


def test_zz_the_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Printed last (pytest runs the file's tests in order): how many match, compile and are refused."""
    if len(TALLY.matched) + len(TALLY.refused) != len(MODELS):
        pytest.skip("run with the whole file to count")
    with capsys.disabled():
        print(
            f"\nONNX test models: {len(TALLY.matched)} of {len(MODELS)} match their stored outputs; "
            f"{len(TALLY.compiled)} compiled to C and passed their golden tests, {len(TALLY.float64)} are float64 "
            f"(host reference only; refused for C, naming the tensor); {len(TALLY.refused)} refused "
            f"(docs/onnx.md); slowest conversion {TALLY.slowest[0]:.2f} s ({TALLY.slowest[1]})"
        )
    assert len(TALLY.matched) == len(MODELS) - len(REFUSED)
    assert len(TALLY.compiled) + len(TALLY.float64) == len(TALLY.matched)
