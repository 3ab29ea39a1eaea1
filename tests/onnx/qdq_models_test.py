# SPDX-License-Identifier: Apache-2.0
"""QDQ int8 ONNX models (qdq_models.py: an MLP and a CNN) through opbridge's ONNX
frontend: they convert to int8 built-ins only, and the reference interpreter's
outputs equal onnxruntime's bit for bit, on drawn inputs (saturating ones
included) and at every opset 13..21; so do the same float models quantized
by onnxruntime's own static quantizer. The emitted C is checked against the
reference on all four platforms by the aot_model golden tests in this package.
"""

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from models import cnn1d_layers_model, cnn_layers_model, mlp_layers_model
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType
from opbridge.ops.definition import MAX_OPSET, MIN_OPSET
from opbridge.registry import default_registry_context
from qdq_models import QDQ_MODELS, calibration_inputs

CONTEXT = default_registry_context()


def convert(model: onnx.ModelProto):  # type: ignore[no-untyped-def]
    return read_onnx_model(model.SerializeToString(), CONTEXT)


def session(model: onnx.ModelProto, optimized: bool = True) -> onnxruntime.InferenceSession:
    options = onnxruntime.SessionOptions()
    if not optimized:
        options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    # Keep the fused QLinear ops on int8: by default onnxruntime moves QDQ int8 activations to uint8 on
    # x86, and its uint8 x int8 kernels for AVX2 without VNNI (vpmaddubsw) saturate pairs of products at
    # int16, so on such CPUs (AMD EPYC here) its results are not the exact int8 arithmetic.
    options.add_session_config_entry("session.qdqisint8allowed", "1")
    return onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def input_shape(model: onnx.ModelProto) -> tuple[int, ...]:
    return tuple(d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim)


@pytest.mark.parametrize("name", sorted(QDQ_MODELS))
def test_qdq_models_compute_in_int8(name: str) -> None:
    graph = convert(QDQ_MODELS[name]())
    ops = [node.op_type for node in graph.nodes]
    assert ops[0] == "QUANTIZE" and ops[-1] == "DEQUANTIZE", ops
    for node in graph.nodes[1:-1]:
        assert all(graph.tensor(i).dtype is DType.INT8 for i in node.outputs), node.describe()
    expected = {
        "qdq_mlp": ["FULLY_CONNECTED"] * 3,
        "qdq_cnn": ["CONV_2D", "MAX_POOL_2D", "DEPTHWISE_CONV_2D"],
        "qdq_cnn1d": ["CONV_2D", "MAX_POOL_2D", "CONV_2D", "CONV_2D", "DEPTHWISE_CONV_2D"],
    }
    assert [op for op in ops if op in ("FULLY_CONNECTED", "CONV_2D", "MAX_POOL_2D", "DEPTHWISE_CONV_2D")][
        : len(expected[name])
    ] == expected[name]


@pytest.mark.parametrize("name", sorted(QDQ_MODELS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_reference_equals_onnxruntime_bit_for_bit(name: str, data: st.DataObject) -> None:
    model = QDQ_MODELS[name]()
    graph = convert(model)
    limit = data.draw(st.sampled_from([1.0, 4.0, 100.0]))  # beyond the calibration range: saturation
    x = data.draw(hnp.arrays(np.float32, input_shape(model), elements=st.floats(-limit, limit, width=32)))
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    (theirs,) = session(model).run(None, {"input": x})
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("opset", range(MIN_OPSET, MAX_OPSET + 1))
def test_every_declared_opset_converts(opset: int) -> None:
    for name, build in QDQ_MODELS.items():
        model = build(opset=opset)
        x = calibration_inputs(model, count=4, seed=opset)
        graph = convert(model)
        for sample in x:
            (ours,) = ReferenceInterpreter(graph, CONTEXT).run([sample[None]])
            (theirs,) = session(model).run(None, {"input": sample[None]})
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{name} at opset {opset}")


@pytest.mark.parametrize("name", sorted(QDQ_MODELS))
def test_unfused_float_semantics_are_within_one_step(name: str) -> None:
    # Without graph optimizations onnxruntime runs the QDQ model as written (float32 ops
    # between DequantizeLinear and QuantizeLinear); integer and float arithmetic then
    # round a few values to the neighbouring int8 step, never further.
    model = QDQ_MODELS[name]()
    graph = convert(model)
    output_scale_name = model.graph.output[0].name.removesuffix("_dq") + "_scale"
    output_scale = float(
        onnx.numpy_helper.to_array(next(i for i in model.graph.initializer if i.name == output_scale_name))
    )
    unfused = session(model, optimized=False)
    for sample in calibration_inputs(model, count=50, seed=5):
        (ours,) = ReferenceInterpreter(graph, CONTEXT).run([sample[None]])
        (theirs,) = unfused.run(None, {"input": sample[None]})
        steps = np.abs(ours.astype(np.float64) - theirs.astype(np.float64)) / output_scale
        assert steps.max() <= 1.0 + 1e-6, steps


class _Calibration(CalibrationDataReader):
    def __init__(self, samples: np.ndarray) -> None:
        self._feeds = iter([{"input": sample[None]} for sample in samples])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._feeds, None)


@pytest.mark.parametrize("build", [mlp_layers_model, cnn_layers_model, cnn1d_layers_model], ids=["mlp", "cnn", "cnn1d"])
def test_models_quantized_by_onnxruntime_match_bit_for_bit(build, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # What users bring: the float model quantized by onnxruntime's own static quantizer
    # (QDQ, int8 activations and weights, per-channel weights; it folds each Relu away).
    model = build()
    onnx.save(model, tmp_path / "float.onnx")
    quantize_static(
        str(tmp_path / "float.onnx"),
        str(tmp_path / "qdq.onnx"),
        _Calibration(calibration_inputs(model)),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
    )
    quantized = onnx.load(tmp_path / "qdq.onnx")
    graph = convert(quantized)
    assert not any(node.op_type == "DEQUANTIZE" for node in graph.nodes[:-1]), [n.op_type for n in graph.nodes]
    ort_session = session(quantized)
    for sample in calibration_inputs(model, count=50, seed=3):
        (ours,) = ReferenceInterpreter(graph, CONTEXT).run([sample[None]])
        (theirs,) = ort_session.run(None, {"input": sample[None]})
        np.testing.assert_array_equal(ours, theirs)
