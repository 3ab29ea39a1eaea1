"""Float32 ONNX models (an MLP and a CNN, built with onnx.helper) through opbridge's
ONNX frontend: the reference interpreter matches onnxruntime within FLOAT_TOLERANCE,
on drawn inputs, for every opset version 13..21. (The emitted C is checked against the
reference on all four platforms by the aot_model golden tests in this package.)"""

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from models import MODELS
from opbridge.backends.host.interpreter import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.converters import MAX_OPSET, MIN_OPSET
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.passes.constant_folding import fold_constants
from opbridge.passes.transposes import cancel_transposes
from opbridge.registry import default_registry_context

# float32 results of different summation orders and libm's expf: relative and absolute.
FLOAT_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
CONTEXT = default_registry_context()


def convert(model: onnx.ModelProto):  # type: ignore[no-untyped-def]
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    return cancel_transposes(fold_constants(graph, CONTEXT.operators), CONTEXT.operators)


def onnxruntime_outputs(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"input": x})[0]


@pytest.mark.parametrize("name", sorted(MODELS))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_reference_matches_onnxruntime(name: str, data: st.DataObject) -> None:
    model = MODELS[name]()
    graph = convert(model)
    shape = tuple(d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim)
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-4, 4, width=32)))
    (actual,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE)


@pytest.mark.parametrize("opset", range(MIN_OPSET, MAX_OPSET + 1))
def test_every_declared_opset_converts(opset: int) -> None:
    for name, build in MODELS.items():
        model = build(opset=opset)
        x = np.linspace(-3, 3, num=int(np.prod([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim])))
        x = x.astype(np.float32).reshape([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim])
        (actual,) = ReferenceInterpreter(convert(model), CONTEXT).run([x])
        np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE, err_msg=name)


def test_transposes_between_nhwc_ops_cancel() -> None:
    graph = convert(MODELS["cnn"]())
    ops = [node.op_type for node in graph.nodes]
    # Without the pass there are two per convolution or pool (14). Left: one into NHWC at the input,
    # the chain conv1 .. depthwise (relu, pool, add included) in NHWC, and the three that the
    # NCHW readers (GlobalAveragePool's MEAN, the Flattens) and the AveragePool after them need.
    assert ops.count("TRANSPOSE") == 4, ops
    assert ops[:8] == ["TRANSPOSE", "CONV_2D", "RELU", "MAX_POOL_2D", "CONV_2D", "CONV_2D", "ADD", "DEPTHWISE_CONV_2D"]


def test_opsets_outside_the_range_and_unknown_ops_are_refused() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"opset 12; opbridge converts opsets 13..21"):
        read_onnx_model(MODELS["mlp"](opset=12).SerializeToString(), CONTEXT)
    model = MODELS["mlp"]()
    model.graph.node[1].op_type = "Selu"
    with pytest.raises(UnsupportedOperatorError, match=r"no converter for these ONNX operators: Selu"):
        read_onnx_model(model.SerializeToString(), CONTEXT)
