# SPDX-License-Identifier: Apache-2.0
"""The limit on folded constants (ConvertArgs.onnx_max_folded_bytes, 64 MiB by default): a ConstantOfShape of
weights above it (AlexNet's 151 MB fc6 weights, in the onnx wheel's light model) is refused naming the node, its
bytes and the setting; raised through read_onnx_model, ConvertArgs, the YAML config or the command line, the
model folds and matches onnxruntime."""

import pathlib

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper
from opbridge import cli
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs, load_convert_args
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.frontends.onnx.preparation import MAX_FOLDED_BYTES
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()
ROWS, COLUMNS = 16, 32  # the weights: 16 x 32 float32, 2,048 bytes
WEIGHT_BYTES = ROWS * COLUMNS * 4


def weights_model() -> bytes:
    """x [1, 32] @ W^T with W a ConstantOfShape of 0.02 (as the light models make their weights), + bias."""
    nodes = [
        helper.make_node(
            "ConstantOfShape",
            ["w_shape"],
            ["w"],
            name="make_weights",
            value=numpy_helper.from_array(np.array([0.02], np.float32)),
        ),
        helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1),
    ]
    graph = helper.make_graph(
        nodes,
        "weights",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, COLUMNS])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, ROWS])],
        [
            numpy_helper.from_array(np.array([ROWS, COLUMNS], np.int64), "w_shape"),
            numpy_helper.from_array(np.linspace(-1, 1, ROWS).astype(np.float32), "b"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_the_default_limit_is_64_mib() -> None:
    assert MAX_FOLDED_BYTES == 64 * 1024 * 1024
    assert ConvertArgs(model="m.onnx", output_dir="out").onnx_max_folded_bytes == MAX_FOLDED_BYTES


def test_a_constant_above_the_limit_is_refused_with_its_size_node_and_setting() -> None:
    with pytest.raises(UnsupportedOperatorError) as refused:
        read_onnx_model(weights_model(), CONTEXT, source="weights.onnx", max_folded_bytes=WEIGHT_BYTES - 1)
    message, hint = refused.value.message, refused.value.hint
    assert message.startswith("weights.onnx: 1 node(s) of constant inputs")
    assert 'node 0 (ai.onnx.ConstantOfShape "make_weights", 2,048 bytes)' in message
    assert "2,047-byte limit" in message
    assert f"onnx_max_folded_bytes: {WEIGHT_BYTES}" in hint
    assert f"--onnx-max-folded-bytes {WEIGHT_BYTES}" in hint


def test_at_the_limit_the_constant_folds_and_matches_onnxruntime() -> None:
    graph = read_onnx_model(weights_model(), CONTEXT, source="weights.onnx", max_folded_bytes=WEIGHT_BYTES)
    assert [node.op_type for node in graph.nodes] == ["FULLY_CONNECTED"]
    x = np.linspace(-2, 2, COLUMNS, dtype=np.float32).reshape(1, COLUMNS)
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    session = onnxruntime.InferenceSession(weights_model(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(ours, session.run(None, {"x": x})[0], rtol=1e-5, atol=1e-6)


def test_the_setting_reaches_the_import_from_the_config_and_the_command_line(tmp_path: pathlib.Path) -> None:
    model = tmp_path / "weights.onnx"
    model.write_bytes(weights_model())
    small = ConvertArgs(model=model, output_dir=tmp_path / "small", onnx_max_folded_bytes=WEIGHT_BYTES - 1)
    with pytest.raises(UnsupportedOperatorError, match="make_weights"):
        AotConverter(small, registry_context=CONTEXT).plan()
    config = tmp_path / "config.yaml"
    config.write_text(f"onnx_max_folded_bytes: {WEIGHT_BYTES}\n")
    raised = load_convert_args(config, {"model": model, "output_dir": tmp_path / "raised"})
    assert raised.onnx_max_folded_bytes == WEIGHT_BYTES
    AotConverter(raised, registry_context=CONTEXT).plan()
    out = tmp_path / "cli"
    assert cli.main(["convert", str(model), "-o", str(out), "--onnx-max-folded-bytes", str(WEIGHT_BYTES)]) == 0
    assert (out / "includes-api" / "model.h").is_file()
    assert cli.main(["convert", str(model), "-o", str(out), "--onnx-max-folded-bytes", "100"]) != 0


def test_run_and_analyze_take_the_setting_too(tmp_path: pathlib.Path) -> None:
    """`opbridge run` (the reference) and `opbridge analyze` read the model as convert does."""
    model = tmp_path / "weights.onnx"
    model.write_bytes(weights_model())
    x = tmp_path / "x.npy"
    np.save(x, np.linspace(-2, 2, COLUMNS, dtype=np.float32).reshape(1, COLUMNS))
    y = tmp_path / "y.npy"
    run = ["run", str(model), "--input", str(x), "--output", str(y)]
    assert cli.main([*run, "--onnx-max-folded-bytes", "100"]) != 0
    assert not y.exists()
    assert cli.main([*run, "--onnx-max-folded-bytes", str(WEIGHT_BYTES)]) == 0
    session = onnxruntime.InferenceSession(weights_model(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(np.load(y), session.run(None, {"x": np.load(x)})[0], rtol=1e-5, atol=1e-6)
    analyze = ["analyze", str(model), "--format", "json", "-o", str(tmp_path / "report.json"), "--quiet"]
    assert cli.main([*analyze, "--onnx-max-folded-bytes", "100"]) != 0
    assert cli.main([*analyze, "--onnx-max-folded-bytes", str(WEIGHT_BYTES)]) == 0


def test_unfolded_constants_and_unsupported_nodes_are_listed_in_one_error() -> None:
    """The oversized ConstantOfShape (with its bytes and the setting) and the nodes no converter takes, at once."""
    model = onnx.load_from_string(weights_model())
    model.graph.node.append(helper.make_node("Hardmax", ["y"], ["h"], name="hardmax"))
    model.graph.node.append(helper.make_node("Shrink", ["h"], ["s"], name="shrink"))
    model.graph.output[0].name = "s"
    with pytest.raises(UnsupportedOperatorError) as refused:
        read_onnx_model(model.SerializeToString(), CONTEXT, source="weights.onnx", max_folded_bytes=WEIGHT_BYTES - 1)
    message, hint = refused.value.message, refused.value.hint
    assert message.startswith("weights.onnx: 2 node(s) use 2 operator(s) opbridge does not support")
    assert "Hardmax x1 (hardmax)" in message and "Shrink x1 (shrink)" in message
    assert "ConstantOfShape x1" not in message  # listed once, with its size
    assert "and 1 node(s) of constant inputs" in message
    assert 'node 0 (ai.onnx.ConstantOfShape "make_weights", 2,048 bytes)' in message
    assert "2,047-byte limit" in message
    assert f"onnx_max_folded_bytes: {WEIGHT_BYTES}" in hint and "supported: " in hint
