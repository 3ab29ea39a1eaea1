# SPDX-License-Identifier: Apache-2.0
"""Damaged and malformed ONNX files through `opbridge convert`, as a user runs it: each is refused with
exit status 1 and one error naming the file and what is wrong (the protobuf byte where the encoding
breaks, the graph part that is missing, the tensor whose data does not match its dims, the node that
reads an unknown value, ...), and nothing is written to the output folder.

Each file also goes to onnxruntime (an InferenceSession and one run, in a subprocess: it may crash):
opbridge accepts none that onnxruntime rejects, and where onnxruntime accepts what opbridge refuses,
the case says why that file is refused on purpose (EXPLAINED).

External data is read from the model's folder whatever the working directory, its declared size
checked against the tensor's before anything is read, and the model limit applied.
"""

import concurrent.futures
import os
import pathlib
import subprocess
import sys
from collections.abc import Callable

import numpy as np
import onnx
import onnx.external_data_helper
import pytest
from onnx import TensorProto, helper, numpy_helper
from opbridge.cli import main

# Why opbridge refuses files onnxruntime accepts.
EXPLAINED = {
    "no nodes": "a graph with no operator converts to an empty module; the issue that found one accepted "
    "after damage asks for it to be refused, naming what is missing",
    "no inputs": "a graph of constants only has nothing to compute on the device",
    "unsorted": "ONNX requires nodes in topological order; onnxruntime sorts them itself",
    "not utf-8": "protobuf strings are UTF-8; a damaged name is refused rather than guessed",
    "duplicate initializer": "two values of one name: which one the graph reads would be a guess",
    "no default domain": "the default domain's opset says which version of each operator the nodes mean; "
    "onnxruntime assumes its newest",
}


def base_model() -> onnx.ModelProto:
    """x[1, 4] + w -> Relu -> y."""
    graph = helper.make_graph(
        [
            helper.make_node("Add", ["x", "w"], ["sum"], name="add"),
            helper.make_node("Relu", ["sum"], ["y"], name="relu"),
        ],
        "small",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
        [numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def edited(edit: Callable[[onnx.ModelProto], None]) -> bytes:
    model = base_model()
    edit(model)
    return model.SerializeToString()


def _weights(model: onnx.ModelProto) -> onnx.TensorProto:
    return model.graph.initializer[0]


def _set(tensor: onnx.TensorProto, **fields: object) -> None:
    for key, value in fields.items():
        if key == "dims":
            del tensor.dims[:]
            tensor.dims.extend(value)  # type: ignore[arg-type]
        else:
            setattr(tensor, key, value)


SERIALIZED = base_model().SerializeToString()
GRAPH_AT = SERIALIZED.index(b"\x3a")  # field 7 (graph), wire type 2


def _no_nodes(model: onnx.ModelProto) -> None:
    del model.graph.node[:]
    model.graph.output[0].name = "x"


def _no_inputs(model: onnx.ModelProto) -> None:
    del model.graph.input[:]
    model.graph.node[0].input[0] = "w"


def _unknown_input(model: onnx.ModelProto) -> None:
    model.graph.node[1].input[0] = "summ"


def _unsorted(model: onnx.ModelProto) -> None:
    nodes = list(model.graph.node)
    del model.graph.node[:]
    model.graph.node.extend(reversed(nodes))


def _twice(model: onnx.ModelProto) -> None:
    model.graph.node[1].output[0] = "sum"
    model.graph.output[0].name = "sum"


def _duplicate_initializer(model: onnx.ModelProto) -> None:
    model.graph.initializer.append(numpy_helper.from_array(np.ones(4, np.float32), "w"))


def _bad_attribute(model: onnx.ModelProto) -> None:
    model.graph.node[1].attribute.append(helper.make_attribute("alpah", 0.5))


def _no_default_domain(model: onnx.ModelProto) -> None:
    del model.opset_import[:]
    model.opset_import.append(helper.make_opsetid("com.example", 1))


def _bool_weights_after_a_custom_node(model: onnx.ModelProto) -> None:
    """Add reads bool weights; ONNX's inference does not see it after a node it has no schema for."""
    model.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.ones(4, dtype=bool), "w"))
    model.graph.node.insert(0, helper.make_node("Foo", ["x"], ["x2"], name="foo", domain="com.example"))
    model.graph.node[1].input[0] = "x2"
    model.opset_import.append(helper.make_opsetid("com.example", 1))


def pool_model(opset: int = 17, **attributes: object) -> bytes:
    """x[1, 2, 4, 4] -> MaxPool(2x2) -> BatchNormalization(2 channels) -> y."""
    parameters = [numpy_helper.from_array(np.ones(2, np.float32), name) for name in ("s", "b", "m", "v")]
    graph = helper.make_graph(
        [
            helper.make_node("MaxPool", ["x"], ["p"], name="pool", kernel_shape=[2, 2], **attributes),
            helper.make_node("BatchNormalization", ["p", "s", "b", "m", "v"], ["y"], name="norm"),
        ],
        "pool",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        parameters,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()


def _batch_norm_mean_of_three(data: bytes) -> bytes:
    model = onnx.ModelProto.FromString(data)
    model.graph.initializer[2].CopyFrom(numpy_helper.from_array(np.ones(3, np.float32), "m"))
    return model.SerializeToString()


def _no_graph(model: onnx.ModelProto) -> None:
    model.ClearField("graph")


# case: (the file's bytes, a phrase the error must contain)
CASES: dict[str, tuple[bytes, str]] = {
    "empty file": (b"", "the model is empty"),
    "truncated": (SERIALIZED[: len(SERIALIZED) - 9], "runs past the end"),
    "wrong wire type": (SERIALIZED[:GRAPH_AT] + b"\x3f" + SERIALIZED[GRAPH_AT + 1 :], "wire type 7"),
    "not a ModelProto": (
        numpy_helper.from_array(np.ones(3, np.float32), "t").SerializeToString(),
        "not a readable ONNX model (a protobuf ModelProto): byte 6 (opset_import[0] > field 14[0]): wire type 4",
    ),
    "no graph": (edited(_no_graph), "has no graph"),
    "no nodes": (edited(_no_nodes), "the graph has no nodes"),
    "no inputs": (edited(_no_inputs), "the graph has no inputs"),
    "no outputs": (edited(lambda m: m.graph.ClearField("output")), "the graph has no outputs"),
    "raw_data size": (edited(lambda m: _set(_weights(m), raw_data=b"\0" * 12)), "12 bytes of raw_data"),
    "negative dims": (edited(lambda m: _set(_weights(m), dims=[-4])), "negative dimension"),
    "dims overflow": (edited(lambda m: _set(_weights(m), dims=[2**40, 2**40])), "overflows a 64-bit size"),
    "huge size": (edited(lambda m: _set(_weights(m), dims=[2**20, 2**20])), "larger than the"),
    "unknown dtype": (edited(lambda m: _set(_weights(m), data_type=99)), "element type 99, which is no ONNX"),
    "duplicate initializer": (edited(_duplicate_initializer), 'initializer "w" is defined twice'),
    "written twice": (edited(_twice), 'writes "sum", which node 0 defines already'),
    "unknown input": (edited(_unknown_input), 'reads "summ" (input 0), which is no graph input'),
    "unsorted": (edited(_unsorted), "not in topological order"),
    "no default domain": (edited(_no_default_domain), "does not import the default ONNX domain"),
    "unknown attribute": (edited(_bad_attribute), "onnx.checker refuses it: Unrecognized attribute: alpah"),
    "not utf-8": (SERIALIZED.replace(b"relu", b"rel\xff"), "not valid UTF-8"),
    "input types": (edited(_bool_weights_after_a_custom_node), "is a tensor(bool), which Add's B does not take"),
    "shapes": (
        edited(lambda m: m.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.ones(3, np.float32), "w"))),
        'node "add" (Add): ONNX type and shape inference refuses the model',
    ),
    "storage order": (pool_model(storage_order=5), "storage_order=5 is not 0 or 1"),
    "pool pads": (pool_model(pads=[0, 0, 2, 0]), "pads [0, 0, 2, 0] are not all smaller than the window [2, 2]"),
    "batch norm parameters": (  # opset 9's shape inference does not compare the parameters' sizes
        _batch_norm_mean_of_three(pool_model(opset=9)),
        "have [2, 2, 3, 2] values; one per channel each",
    ),
}

ORT_WORKER = """
import sys, numpy as np, onnxruntime
session = onnxruntime.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
session.run(None, {i.name: np.zeros([d if isinstance(d, int) else 1 for d in i.shape], np.float32)
                   for i in session.get_inputs()})
"""


def onnxruntime_accepts(path: pathlib.Path) -> bool:
    """onnxruntime loads and runs the file (in a subprocess: a crash is a refusal)."""
    ran = subprocess.run([sys.executable, "-c", ORT_WORKER, str(path)], capture_output=True, timeout=120, check=False)
    return ran.returncode == 0


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pathlib.Path]:
    folder = tmp_path_factory.mktemp("damaged")
    paths = {}
    for case, (data, _) in CASES.items():
        paths[case] = folder / f"{case.replace(' ', '_')}.onnx"
        paths[case].write_bytes(data)
    return paths


@pytest.fixture(scope="module")
def onnxruntime_verdicts(files: dict[str, pathlib.Path]) -> dict[str, bool]:
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(files, pool.map(onnxruntime_accepts, files.values()), strict=True))


def test_the_valid_model_converts_and_onnxruntime_runs_it(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "small.onnx"
    path.write_bytes(SERIALIZED)
    assert onnxruntime_accepts(path)
    assert main(["convert", str(path), "-o", str(tmp_path / "out"), "-q", "--no-entry-points"]) == 0


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_damaged_file_is_refused_naming_the_problem_and_nothing_is_written(
    case: str,
    files: dict[str, pathlib.Path],
    onnxruntime_verdicts: dict[str, bool],
    tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, phrase = files[case], CASES[case][1]
    output = tmp_path / "out"
    assert main(["convert", str(path), "-o", str(output), "-q", "--no-entry-points"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"opbridge: error: {path}"), error
    assert phrase in error, error
    assert "Traceback" not in error
    assert not output.exists()
    # opbridge refuses it: onnxruntime must too, unless the refusal is one opbridge makes on purpose.
    assert onnxruntime_verdicts[case] == (case in EXPLAINED), (case, onnxruntime_verdicts[case])


# External data ----------------------------------------------------------------------------------


@pytest.fixture
def external(tmp_path: pathlib.Path) -> pathlib.Path:
    """A model whose weights (4 KiB) are in weights.bin beside it, in its own folder."""
    model = base_model()
    model.graph.input[0].type.tensor_type.shape.dim[1].dim_value = 1024
    model.graph.output[0].type.tensor_type.shape.dim[1].dim_value = 1024
    model.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.arange(1024, dtype=np.float32), "w"))
    folder = tmp_path / "model"
    folder.mkdir()
    onnx.save_model(model, folder / "m.onnx", save_as_external_data=True, location="weights.bin", size_threshold=0)
    return folder / "m.onnx"


def _relocated(path: pathlib.Path, target: pathlib.Path, **entries: str) -> pathlib.Path:
    model = onnx.load(path, load_external_data=False)
    tensor = model.graph.initializer[0]
    for entry in tensor.external_data:
        if entry.key in entries:
            entry.value = entries.pop(entry.key)
    for key, value in entries.items():
        tensor.external_data.append(onnx.StringStringEntryProto(key=key, value=value))
    target.write_bytes(model.SerializeToString())
    return target


def convert(path: pathlib.Path, output: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["convert", str(path), "-o", str(output), "-q", "--no-entry-points"])
    return status, capsys.readouterr().err


def test_external_data_is_read_from_the_models_folder_from_anywhere(
    external: pathlib.Path, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert onnxruntime_accepts(external)
    status, error = convert(external, tmp_path / "out", capsys)
    assert status == 0, error


@pytest.mark.parametrize("case", ["absolute", "outside", "symlink", "missing"])
def test_external_data_outside_the_models_folder_is_refused(
    case: str, external: pathlib.Path, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = external.parent / "weights.bin"
    outside = tmp_path / "outside.bin"
    outside.write_bytes(data.read_bytes())
    (external.parent / "linked.bin").symlink_to(outside)
    location = {"absolute": str(outside), "outside": "../outside.bin", "symlink": "linked.bin", "missing": "no.bin"}
    path = _relocated(external, external.parent / f"{case}.onnx", location=location[case])
    status, error = convert(path, tmp_path / "out", capsys)
    assert status == 1 and 'cannot read the external data of initializer "w"' in error, error
    assert "inside the model's folder" in error
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("case", "entries", "phrase"),
    [
        ("length", {"length": "100"}, "holds 100 bytes; its dims [1024] of FLOAT take 4,096"),
        ("offset", {"offset": "8"}, "holds 4,088 bytes; its dims [1024] of FLOAT take 4,096"),
    ],
)
def test_external_data_of_the_wrong_size_is_refused_before_it_is_read(
    case: str,
    entries: dict[str, str],
    phrase: str,
    external: pathlib.Path,
    tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = onnx.load(external, load_external_data=False)
    for entry in list(model.graph.initializer[0].external_data):
        if entry.key == "length":
            model.graph.initializer[0].external_data.remove(entry)
    external.write_bytes(model.SerializeToString())
    path = _relocated(external, external.parent / f"{case}.onnx", **entries)
    assert not onnxruntime_accepts(path)
    status, error = convert(path, tmp_path / "out", capsys)
    assert status == 1 and phrase in error, error


def test_external_data_larger_than_the_model_limit_is_refused_before_it_is_read(
    external: pathlib.Path, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = onnx.load(external, load_external_data=False)
    tensor = model.graph.initializer[0]
    del tensor.dims[:]
    tensor.dims.extend([1024, 1024, 1024])  # 4 GiB of float32 declared, 4 KiB in the file
    path = external.parent / "huge.onnx"
    path.write_bytes(model.SerializeToString())
    status, error = convert(path, tmp_path / "out", capsys)
    assert status == 1 and "external data of 1 initializers is 4294967296 bytes, larger than the" in error, error
