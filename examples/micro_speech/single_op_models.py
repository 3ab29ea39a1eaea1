# SPDX-License-Identifier: Apache-2.0
"""Writes Signal operators of TFLM's audio front end as one-operator models.

    single_op_models.py MODEL CLIP.wav CUSTOM_CODE OUT.tflite [CUSTOM_CODE OUT.tflite ...]

The node keeps the real model's custom options and constant tables, so
`aot_model` can compile it alone and check its C against the reference on
all four platforms with seeded inputs. Inputs whose valid range the seeded
inputs would not respect (the square root's scale shift, PCAN's noise
estimate) become constants holding what the real pipeline gives them on a
voiced frame of CLIP.
"""

import pathlib
import sys

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import Graph
from opbridge.registry import build_default_registry_context
from opbridge_signal.plugin import customize_registry

# Custom code -> node input positions taken from the real pipeline.
PIPELINE_INPUTS = {
    "SignalFilterBankSquareRoot": (1,),
    "SignalPCAN": (1,),
}
VOICED_FRAME = 20  # of the clip: 30 ms windows every 20 ms
WINDOW, STRIDE = 480, 320


def pipeline_values(model: bytes, clip: pathlib.Path, tensors: list[int]) -> dict[int, np.ndarray]:
    """The values of `tensors` when the front end processes VOICED_FRAME of `clip`."""
    import wave

    with wave.open(str(clip), "rb") as audio:
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype="<i2").astype(np.int16)
    context = build_default_registry_context([customize_registry])
    graph = read_litert_model(model, context)
    probe = Graph(graph.name, graph.tensors, graph.nodes, graph.inputs, tensors)
    interpreter = ReferenceInterpreter(probe, context)
    values: list[np.ndarray] = []
    for frame in range(VOICED_FRAME + 1):
        window = samples[frame * STRIDE : frame * STRIDE + WINDOW].reshape(1, WINDOW)
        values = interpreter.run([window])
    return dict(zip(tensors, values, strict=True))


def single_op_model(model: bytes, custom_code: str, clip: pathlib.Path | None) -> bytes:
    full = schema.ModelT.InitFromPackedBuf(model, 0)
    subgraph = full.subgraphs[0]
    matches = [
        op
        for op in subgraph.operators
        if (full.operatorCodes[op.opcodeIndex].customCode or b"") == custom_code.encode()
    ]
    if len(matches) != 1:
        raise SystemExit(f"{custom_code}: the model has {len(matches)} such nodes, expected 1")
    (operator,) = matches
    from_pipeline = [operator.inputs[p] for p in PIPELINE_INPUTS.get(custom_code, ())]
    if from_pipeline and clip is None:
        raise SystemExit(f"{custom_code} needs a clip for the values of inputs {PIPELINE_INPUTS[custom_code]}")
    pipeline = pipeline_values(model, clip, from_pipeline) if from_pipeline else {}

    buffers = [schema.BufferT()]
    tensors, remap = [], {}
    for old in [*operator.inputs, *operator.outputs]:
        if old in remap:
            continue
        tensor = subgraph.tensors[old]
        data = full.buffers[tensor.buffer].data if tensor.buffer else None
        if old in pipeline:
            data = np.ascontiguousarray(pipeline[old]).tobytes()
        tensor.buffer = 0
        if data is not None and len(data):
            buffer = schema.BufferT()
            buffer.data = bytes(bytearray(data))
            buffers.append(buffer)
            tensor.buffer = len(buffers) - 1
        remap[old] = len(tensors)
        tensors.append(tensor)
    code = full.operatorCodes[operator.opcodeIndex]
    operator.opcodeIndex = 0
    operator.inputs = [remap[i] for i in operator.inputs]
    operator.outputs = [remap[i] for i in operator.outputs]
    single = schema.SubGraphT()
    single.tensors = tensors
    single.operators = [operator]
    single.inputs = [i for i in operator.inputs if tensors[i].buffer == 0]
    single.outputs = list(operator.outputs)
    single.name = custom_code
    out = schema.ModelT()
    out.version = 3
    out.operatorCodes = [code]
    out.subgraphs = [single]
    out.buffers = buffers
    out.description = f"{custom_code} from audio_preprocessor_int8.tflite (opbridge single-operator model)"
    builder = flatbuffers.Builder(4096)
    builder.Finish(out.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def main(argv: list[str]) -> int:
    if len(argv) < 4 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    model, clip = pathlib.Path(argv[0]).read_bytes(), pathlib.Path(argv[1])
    for custom_code, out in zip(argv[2::2], argv[3::2], strict=True):
        pathlib.Path(out).write_bytes(single_op_model(model, custom_code, clip))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
