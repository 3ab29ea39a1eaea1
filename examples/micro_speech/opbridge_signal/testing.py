# SPDX-License-Identifier: Apache-2.0
"""Runs one Signal operator's emitted C on the host, frame by frame, for tests.

`run_c` wraps the statements of an operator's `emit_c` in a small C99
program, the same statements the opbridge plugin puts into a module's
`_init` and `_run`: init once, then one run per frame. The inputs are
compiled in as arrays; the program writes each frame's outputs to stdout as
raw bytes, which come back as NumPy arrays.
"""

import pathlib
import subprocess
import tempfile
import wave
from collections.abc import Callable

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs

KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernels"
# The workspace root: the kernels include opbridge's cc/kernels/opbridge_kernel_variant.h by that path.
WORKSPACE_ROOT = pathlib.Path(__file__).parents[3]
COMPILER = "gcc"

_C_TYPES = {
    np.dtype(np.int8): "int8_t",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int32_t",
    np.dtype(np.int64): "int64_t",
    np.dtype(np.uint8): "uint8_t",
    np.dtype(np.uint16): "uint16_t",
    np.dtype(np.uint32): "uint32_t",
    np.dtype(np.uint64): "uint64_t",
}


def _c_array(ctype: str, symbol: str, values: np.ndarray) -> str:
    flat = values.ravel()
    # A zero-length array is not C99; keep one unused element.
    items = ", ".join(f"({ctype}){int(v)}{'u' if ctype.startswith('u') else ''}" for v in flat) or "0"
    return f"static const {ctype} {symbol}[{max(flat.size, 1)}] = {{{items}}};"


def _program(code: NodeCode, frames: list[list[np.ndarray]], outputs: list[tuple[np.dtype, tuple[int, ...]]],
             args: SignalEmitArgs, scratch_bytes: int, persistent_bytes: int) -> str:  # fmt: skip
    input_dtypes = [np.dtype(value.dtype) for value in frames[0]]
    lines = ["#include <stdint.h>", "#include <stdio.h>", "#include <string.h>"]
    lines += [f'#include "{include}"' for include in code.includes]
    for frame_index, frame in enumerate(frames):
        for position, value in enumerate(frame):
            lines.append(_c_array(_C_TYPES[input_dtypes[position]], f"frame_{frame_index}_input_{position}", value))
    lines += code.definitions
    for position, (dtype, shape) in enumerate(outputs):
        count = max(int(np.prod(shape, dtype=np.int64)), 1)
        lines.append(f"static {_C_TYPES[np.dtype(dtype)]} output_{position}[{count}];")
    for position, dtype in enumerate(input_dtypes):
        lines.append(f"static const {_C_TYPES[dtype]} *input_{position};")
    # 8-byte aligned, as the planner aligns scratch and state.
    lines.append(f"static uint64_t scratch_words[{max((scratch_bytes + 7) // 8, 1)}];")
    lines.append(f"static uint64_t state_words[{max((persistent_bytes + 7) // 8, 1)}];")
    lines.append("static uint8_t *const scratch = (uint8_t *)scratch_words;")
    lines.append("static uint8_t *const state = (uint8_t *)state_words;")
    lines.append("static int32_t init_node(void) {\n  int32_t status = 0;")
    lines += [f"  {statement}" for statement in code.init_statements]
    lines.append("  return status;\n}")
    lines.append("static int32_t run_node(void) {\n  int32_t status = 0;")
    lines += [f"  {statement}" for statement in code.statements]
    lines.append("  return status;\n}")
    lines.append("int main(void) {\n  int32_t status = init_node();")
    lines.append('  if (status != 0) { fprintf(stderr, "init failed: %d\\n", (int)status); return 2; }')
    for frame_index, frame in enumerate(frames):
        for position in range(len(frame)):
            lines.append(f"  input_{position} = frame_{frame_index}_input_{position};")
        lines.append("  status = run_node();")
        lines.append(
            f'  if (status != 0) {{ fprintf(stderr, "frame {frame_index}: status %d\\n", (int)status); return 3; }}'
        )
        for position in range(len(outputs)):
            lines.append(f"  fwrite(output_{position}, 1, sizeof(output_{position}), stdout);")
    lines.append("  (void)scratch;\n  (void)state;\n  return 0;\n}")
    return "\n".join(lines) + "\n"


def run_c(
    make_code: Callable[[SignalEmitArgs], NodeCode],
    frames: list[list[np.ndarray]],
    outputs: list[tuple[np.dtype, tuple[int, ...]]],
    *,
    scratch_bytes: int = 0,
    persistent_bytes: int = 0,
) -> list[list[np.ndarray]]:
    """Each frame's outputs from the C statements of `make_code(args)`.

    `frames[k]` holds every input of the node for frame k (constant inputs
    repeated), in node order; `outputs` gives each output's dtype and shape.
    """
    if not frames:
        raise ValueError("run_c needs at least one frame")
    input_dtypes = [np.dtype(value.dtype) for value in frames[0]]
    args = SignalEmitArgs(
        inputs=[f"input_{position}" for position in range(len(input_dtypes))],
        input_shapes=[tuple(value.shape) for value in frames[0]],
        outputs=[f"output_{position}" for position in range(len(outputs))],
        output_shapes=[tuple(shape) for _, shape in outputs],
        scratch="scratch" if scratch_bytes else None,
        state="state" if persistent_bytes else None,
        symbol="node_under_test",
    )
    code = make_code(args)
    kernels = sorted(KERNEL_DIRECTORY.glob("*.c"))
    with tempfile.TemporaryDirectory() as scratch_directory:
        directory = pathlib.Path(scratch_directory)
        source = directory / "program.c"
        source.write_text(_program(code, frames, outputs, args, scratch_bytes, persistent_bytes))
        program = directory / "program"
        compiled = subprocess.run(
            [COMPILER, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-unused-variable",
             f"-I{KERNEL_DIRECTORY}", f"-I{WORKSPACE_ROOT}", str(source), *map(str, kernels), "-o", str(program)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if compiled.returncode != 0:
            raise AssertionError(
                f"the test program does not compile:\n{compiled.stderr}\n--- program.c ---\n{source.read_text()}"
            )
        ran = subprocess.run([str(program)], capture_output=True, timeout=120, check=False)
        if ran.returncode != 0:
            raise AssertionError(f"the test program failed: {ran.stderr.decode(errors='replace')}")
    results: list[list[np.ndarray]] = []
    data = memoryview(ran.stdout)
    offset = 0
    for _ in frames:
        frame_outputs = []
        for dtype, shape in outputs:
            count = int(np.prod(shape, dtype=np.int64))
            size = max(count, 1) * np.dtype(dtype).itemsize
            values = np.frombuffer(data[offset : offset + size], dtype=dtype)[:count].reshape(shape).copy()
            frame_outputs.append(values)
            offset += size
        results.append(frame_outputs)
    if offset != len(data):
        raise AssertionError(f"the test program wrote {len(data)} bytes, expected {offset}")
    return results


def shared_file(relative: str) -> pathlib.Path:
    """A file of the shared models/data: from Bazel's @shared_models in a test's
    runfiles, else from ../shared beside the checkout (running pytest by hand)."""
    candidates = [
        pathlib.Path("../shared_models") / relative,
        pathlib.Path(__file__).resolve().parents[4] / "shared" / relative,
    ]
    for candidate in candidates:
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"{relative} is in neither {candidates[0]} nor {candidates[1]}; add @shared_models to data")


# TFLite tensor types of the front end's constant inputs.
_CONSTANT_DTYPES = {
    schema.TensorType.INT16: np.int16,
    schema.TensorType.INT32: np.int32,
    schema.TensorType.UINT32: np.uint32,
    schema.TensorType.UINT64: np.uint64,
}
FRONTEND_MODEL = "models/tflm/audio_preprocessor_int8.tflite"
WINDOW_SAMPLES, STRIDE_SAMPLES = 480, 320  # 30 ms every 20 ms at 16 kHz


def real_model_node(custom_code: str) -> tuple[bytes, list[np.ndarray | None]]:
    """The real front end's node `custom_code`: its custom options, and each
    input's constant data in the tensor's dtype and shape (None for activations)."""
    model = schema.ModelT.InitFromPackedBuf(shared_file(FRONTEND_MODEL).read_bytes(), 0)
    graph = model.subgraphs[0]
    for operator in graph.operators:
        if model.operatorCodes[operator.opcodeIndex].customCode == custom_code.encode():
            constants: list[np.ndarray | None] = []
            for index in operator.inputs:
                tensor = graph.tensors[index]
                data = model.buffers[tensor.buffer].data
                if data is None or len(data) == 0:
                    constants.append(None)
                    continue
                values = np.frombuffer(bytes(bytearray(data)), dtype=_CONSTANT_DTYPES[tensor.type])
                constants.append(values.reshape(tensor.shape).copy())
            options = operator.customOptions if operator.customOptions is not None else []
            return bytes(bytearray(options)), constants
    raise LookupError(f"{custom_code} is not in {FRONTEND_MODEL}")


def real_frames() -> list[np.ndarray]:
    """30 ms frames every 20 ms of the 'yes' recording, as the model is invoked."""
    with wave.open(str(shared_file("data/micro_speech/yes_1000ms.wav")), "rb") as audio:
        samples = np.frombuffer(audio.readframes(audio.getnframes()), dtype=np.int16)
    last_start = len(samples) - WINDOW_SAMPLES
    return [
        samples[start : start + WINDOW_SAMPLES].reshape(1, WINDOW_SAMPLES)
        for start in range(0, last_start + 1, STRIDE_SAMPLES)
    ]
