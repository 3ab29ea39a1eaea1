# SPDX-License-Identifier: Apache-2.0
"""Classic CNNs of the ONNX model zoo, as the onnx wheel ships them (onnx/backend/test/data/light:
ShuffleNet, SqueezeNet, ResNet-50, AlexNet, and GoogLeNet / Inception v1), through opbridge's reference
interpreter against onnxruntime on a seeded input.

The light models make most of their weights with ConstantOfShape (every weight 0.02), so every class gets the
same logit and the softmax output is 0.001 everywhere whatever the arithmetic: comparing that alone could not
fail. Each model is therefore run twice, each time with its logits (the Softmax's input) as an extra output:
- as shipped (AlexNet's fc6 weights, 151 MB, fold only with onnx_max_folded_bytes raised);
- with seeded weights: each ConstantOfShape of weights under 64 MiB replaced by seeded values (convolution and
  Gemm weights He-scaled normal, biases and BatchNormalization parameters near identity), and AlexNet's fc6
  weights (over 64 MiB) by the outer product of a seeded column and a seeded row (a Mul that the import folds
  with the raised limit: a small model and the same run time as all 0.02, yet each of fc6's 9216 inputs gets
  its own weight), so that channels, positions and classes differ and a wrong layout, window or pad (a wrong
  flatten or channel order before fc6 included) shows in the logits.

Tolerance: rtol 1e-3 (the acceptance's) with an atol of 1e-4 times the largest magnitude of the compared output:
opbridge and onnxruntime sum the convolutions' products in different orders (and onnxruntime's MLAS uses FMAs),
and the logits come out of 50+ layers of such sums, so an output near zero (a logit of either sign) carries the
absolute error of the large terms that cancelled in it, not an error relative to its own size.

Run times (2 cores, the reference; onnxruntime takes well under a second each): see docs/onnx.md, "The model
zoo's classic CNNs". ResNet-50 is the slowest; this test is `large`.
"""

import math
import pathlib
import time

import numpy as np
import onnx
import onnx.numpy_helper
import onnxruntime
import pytest
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context

LIGHT = pathlib.Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
MODELS = ("shufflenet", "squeezenet", "resnet50", "bvlc_alexnet", "inception_v1")
# The acceptance's four, as shipped (Inception v1 with seeded weights only, to keep the test's time down).
SHIPPED = MODELS[:4]
CONTEXT = default_registry_context()
RTOL, ATOL_OF_RANGE = 1e-3, 1e-4
SEED = 2026
# AlexNet's fc6 weights (4096 x 9216 float32, 150,994,944 bytes) are over the 64 MiB default.
MAX_FOLDED_BYTES = 160 * 1000 * 1000
RANDOMIZED_BYTES = 64 * 1024 * 1024


def with_logits(model: onnx.ModelProto) -> tuple[onnx.ModelProto, str]:
    """The model with its Softmax's input as a second graph output."""
    (softmax,) = [node for node in model.graph.node if node.op_type == "Softmax"]
    logits = softmax.input[0]
    model.graph.output.append(onnx.helper.make_empty_tensor_value_info(logits))
    return model, logits


def seeded_weights(model: onnx.ModelProto, seed: int) -> onnx.ModelProto:
    """The model with each ConstantOfShape of weights (under RANDOMIZED_BYTES) an initializer of seeded values,
    and each larger one of Gemm weights the outer product of two seeded vectors."""
    rng = np.random.default_rng(seed)
    graph = model.graph
    initializers = {i.name: onnx.numpy_helper.to_array(i) for i in graph.initializer}
    role: dict[str, str] = {}
    for node in graph.node:
        if node.op_type in ("Conv", "Gemm"):
            role[node.input[1]] = "weights"
            if len(node.input) > 2:
                role[node.input[2]] = "bias"
        elif node.op_type == "BatchNormalization":
            role.update(zip(node.input[1:5], ("scale", "bias", "mean", "variance"), strict=True))
    kept = []
    for node in graph.node:
        if node.op_type != "ConstantOfShape" or node.input[0] not in initializers:
            kept.append(node)
            continue
        shape = tuple(int(d) for d in initializers[node.input[0]])
        name = node.output[0]
        kind = role.get(name, "bias")
        if 4 * math.prod(shape) > RANDOMIZED_BYTES:
            if kind != "weights" or len(shape) != 2:
                kept.append(node)  # stays as shipped (folded with the raised limit)
                continue
            # Gemm weights (AlexNet's fc6): the outer product of a seeded column and a seeded row, as a Mul
            # folded at import with the raised limit (onnxruntime folds it too).
            column, row = f"{name}/column", f"{name}/row"
            rows, columns = shape
            for part, values in (
                (column, rng.standard_normal((rows, 1), dtype=np.float32)),
                (row, rng.standard_normal((1, columns), dtype=np.float32) * np.float32(math.sqrt(2.0 / columns))),
            ):
                graph.initializer.append(onnx.numpy_helper.from_array(values, part))
                graph.input.append(onnx.helper.make_tensor_value_info(part, onnx.TensorProto.FLOAT, values.shape))
            kept.append(onnx.helper.make_node("Mul", [column, row], [name], name=f"{name}/outer"))
            continue
        if kind == "weights":
            fan_in = math.prod(shape[1:])
            values = rng.standard_normal(shape, dtype=np.float32) * np.float32(math.sqrt(2.0 / fan_in))
        elif kind in ("scale", "variance"):
            values = rng.uniform(0.5, 1.5, shape).astype(np.float32)
        else:
            values = rng.uniform(-0.1, 0.1, shape).astype(np.float32)
        graph.initializer.append(onnx.numpy_helper.from_array(values.astype(np.float32), name))
        # IR version 3 (these models') lists every initializer among the graph inputs too.
        graph.input.append(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, shape))
    del graph.node[:]
    graph.node.extend(kept)
    return model


def compare(model: onnx.ModelProto, source: str) -> dict[str, float]:
    model, logits = with_logits(model)
    data = model.SerializeToString()
    started = time.monotonic()
    graph = read_onnx_model(data, CONTEXT, source=source, max_folded_bytes=MAX_FOLDED_BYTES)
    (input_tensor,) = graph.input_tensors()
    x = np.random.default_rng(SEED).standard_normal(input_tensor.shape).astype(np.float32)
    ours = ReferenceInterpreter(graph, CONTEXT).run([x])
    seconds = time.monotonic() - started
    session = onnxruntime.InferenceSession(data, providers=["CPUExecutionProvider"])
    theirs = session.run(None, {input_tensor.name: x})
    figures = {"seconds": seconds}
    for name, mine, expected in zip(("probabilities", logits), ours, theirs, strict=True):
        assert mine.shape == expected.shape, name
        atol = ATOL_OF_RANGE * float(np.abs(expected).max())
        np.testing.assert_allclose(mine, expected, rtol=RTOL, atol=atol, err_msg=f"{source}: {name}")
        figures[f"{name} max abs error"] = float(np.abs(mine - expected).max())
        figures[f"{name} largest magnitude"] = float(np.abs(expected).max())
    return figures


def light_model(name: str) -> onnx.ModelProto:
    return onnx.load(str(LIGHT / f"light_{name}.onnx"))


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_model_matches_onnxruntime(name: str) -> None:
    print(name, "as shipped", compare(light_model(name), f"light_{name}.onnx"))


@pytest.mark.parametrize("name", MODELS)
def test_model_with_seeded_weights_matches_onnxruntime(name: str) -> None:
    model = seeded_weights(light_model(name), SEED)
    print(name, "seeded weights", compare(model, f"light_{name}.onnx (seeded weights)"))
