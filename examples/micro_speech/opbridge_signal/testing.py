# SPDX-License-Identifier: Apache-2.0
"""Runs one Signal operator's emitted C, frame by frame, for tests: on the host,
or on an emulated Cortex-M55 or Cortex-M4 board under qemu-system-arm.

`run_c` wraps the statements of an operator's `emit_c` in a small C99
program, the same statements the opbridge plugin puts into a module's
`_init` and `_run`: init once, then one run per frame. The inputs are
compiled in as const arrays (flash on the boards); the program prints each
frame's outputs as lines of hex text (the boards' stdout is semihosting,
where raw bytes are not safe), which come back as NumPy arrays.
"""

import dataclasses
import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import wave
from collections.abc import Callable

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from opbridge.backends.c.cmake import CPU_FLAGS
from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs

KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernels"
# The workspace root: the kernels include opbridge's cc/kernels/opbridge_kernel_variant.h by that path.
WORKSPACE_ROOT = pathlib.Path(__file__).parents[3]
COMPILER = "gcc"
BOARDS_DIRECTORY = WORKSPACE_ROOT / "platforms" / "boards"
EMULATOR = "qemu-system-arm"
# Seconds a program may run (host or emulated) before the test fails as a hang.
RUN_TIMEOUT_SECONDS = 120


@dataclasses.dataclass(frozen=True)
class _Board:
    """A Cortex-M platform as the repository's Bazel boards build and run it
    (WORKSPACE's gcc_cortex_m* toolchains, platforms/boards/*/BUILD.bazel, toolchains/run_emulated.sh)."""

    cpu_flags: tuple[str, ...]  # the toolchains' target flags (opbridge.backends.c.cmake.CPU_FLAGS)
    linker_script: str  # under platforms/boards
    cpu_hz: int  # the board's OPBRIDGE_BOARD_CPU_HZ
    machine: str  # qemu-system-arm -M
    cpu: str  # qemu-system-arm -cpu


BOARDS = {
    "cortex_m55": _Board(
        cpu_flags=CPU_FLAGS["cortex-m55"],
        linker_script="mps3_an547/mps3_an547.ld",
        cpu_hz=32_000_000,
        machine="mps3-an547",
        cpu="cortex-m55",
    ),
    "cortex_m4": _Board(
        cpu_flags=CPU_FLAGS["cortex-m4"],
        linker_script="mps2_an386/mps2_an386.ld",
        cpu_hz=25_000_000,
        machine="mps2-an386",
        cpu="cortex-m4",
    ),
}
PLATFORMS = ("host", *BOARDS)
CORTEX_M_PLATFORMS = tuple(BOARDS)
# Examples per board and size kind of an operator's test_c_matches_reference_on_cortex_m.
BOARD_EXAMPLES = 8


def on_the_boards(test: Callable[..., None]) -> Callable[..., None]:
    """Makes `test(platform, sizes, data)` a drawn-input test on each emulated board (`platform`), with the
    front end's own sizes and with drawn ones (`sizes`: "front_end" or "drawn"). No shrinking on the boards:
    each example is a cross-compile and an emulator run, and shrinking a failure took minutes; the failure
    names the sizes and frame (and the host test shrinks the portable C's failures)."""
    drawn = given(st.data())(test)
    tuned = settings(max_examples=BOARD_EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])(
        drawn
    )
    on_each_board = pytest.mark.parametrize("platform", CORTEX_M_PLATFORMS)(tuned)
    return pytest.mark.parametrize("sizes", ["front_end", "drawn"])(on_each_board)


CROSS_COMPILER = "arm-none-eabi-gcc"
# The Bazel toolchains' C flags (toolchains/cc_toolchain_config.bzl, --compilation_mode=opt); the test
# program alone adds -Wno-unused-variable.
_CROSS_C_FLAGS = ("-std=c99", "-ffp-contract=off", "-O2", "-DNDEBUG", "-Wall", "-Wextra", "-Werror",
                  "-ffunction-sections", "-fdata-sections")  # fmt: skip

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


# One line per output and frame: '@' and the output's bytes in memory order (little-endian everywhere) as hex.
_PRINT_HEX = r"""static void print_hex(const void *data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *bytes = (const uint8_t *)data;
  char line[128];
  size_t done = 0;
  fputc('@', stdout);
  while (done < size) {
    size_t length = 0;
    for (; length + 2 <= sizeof(line) && done < size; ++done) {
      line[length++] = digits[bytes[done] >> 4];
      line[length++] = digits[bytes[done] & 0xFu];
    }
    fwrite(line, 1, length, stdout);
  }
  fputc('\n', stdout);
}"""


def _program(code: NodeCode, frames: list[list[np.ndarray]], outputs: list[tuple[np.dtype, tuple[int, ...]]],
             args: SignalEmitArgs, scratch_bytes: int, persistent_bytes: int) -> str:  # fmt: skip
    input_dtypes = [np.dtype(value.dtype) for value in frames[0]]
    lines = ["#include <stddef.h>", "#include <stdint.h>", "#include <stdio.h>", "#include <string.h>"]
    lines += [f'#include "{include}"' for include in code.includes]
    lines.append(_PRINT_HEX)
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
            lines.append(f"  print_hex(output_{position}, sizeof(output_{position}));")
    lines.append("  (void)scratch;\n  (void)state;\n  fflush(stdout);\n  return 0;\n}")
    return "\n".join(lines) + "\n"


def under_bazel() -> bool:
    """Whether this runs as a Bazel test (which must have every tool it needs: a missing one fails, never skips)."""
    return "TEST_SRCDIR" in os.environ or "BAZEL_TEST" in os.environ


def require_platform(platform: str) -> None:
    """Skips the calling test if `platform`'s compiler or emulator is missing, when run by hand;
    under Bazel they are part of the pinned toolchains, so their absence fails the test."""
    if platform not in PLATFORMS:
        raise ValueError(f"unknown platform {platform!r}: expected one of {', '.join(PLATFORMS)}")
    tools = [COMPILER] if platform == "host" else [CROSS_COMPILER, EMULATOR]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if platform != "host":
        board = BOARDS[platform]
        board_files = [
            BOARDS_DIRECTORY / "common" / "cortex_m_startup.c",
            BOARDS_DIRECTORY / "common" / "cortex_m_sections.ld",
            BOARDS_DIRECTORY / board.linker_script,
        ]
        missing += [str(path) for path in board_files if not path.exists()]
    if not missing:
        return
    message = f"{platform} needs {', '.join(missing)} (./bazelw installs the pinned toolchains and qemu packages)"
    if under_bazel():
        pytest.fail(f"{message}; under Bazel they must be present (board files: the test's data)", pytrace=False)
    pytest.skip(message)


def _compile_command(platform: str) -> list[str]:
    """The compiler and C flags of `platform`'s optimised build (without inputs and outputs)."""
    if platform == "host":
        return [COMPILER, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror"]
    board = BOARDS[platform]
    return [CROSS_COMPILER, *board.cpu_flags, *_CROSS_C_FLAGS, f"-DOPBRIDGE_BOARD_CPU_HZ={board.cpu_hz}"]


def _link_flags(platform: str) -> list[str]:
    """What links a program for `platform`: on the boards, their start-up code, linker script and semihosting."""
    if platform == "host":
        return []
    board = BOARDS[platform]
    return [*board.cpu_flags, "-nostartfiles", "--specs=rdimon.specs", f"-T{BOARDS_DIRECTORY / board.linker_script}",
            f"-L{BOARDS_DIRECTORY / 'common'}", "-Wl,--gc-sections", "-lm"]  # fmt: skip


# Compiled kernels (and board start-up) per platform and source contents: most drawn examples differ only in
# program.c, so each platform's kernels compile once per session (and again whenever a kernel source changes).
_OBJECT_CACHE: dict[tuple[str, str], list[pathlib.Path]] = {}
_object_directory: tempfile.TemporaryDirectory | None = None


def _library_sources(platform: str) -> list[pathlib.Path]:
    sources = sorted(KERNEL_DIRECTORY.glob("*.c"))
    if platform != "host":
        sources.append(BOARDS_DIRECTORY / "common" / "cortex_m_startup.c")
    return sources


def _library_objects(platform: str) -> list[pathlib.Path]:
    """The kernels (and on the boards, the start-up code) compiled for `platform`."""
    global _object_directory
    sources = _library_sources(platform)
    headers = [*sorted(KERNEL_DIRECTORY.glob("*.h")), WORKSPACE_ROOT / "cc" / "kernels" / "opbridge_kernel_variant.h"]
    digest = hashlib.sha256(" ".join(_compile_command(platform)).encode())
    for path in [*sources, *headers]:
        digest.update(str(path).encode() + b"\0")
        digest.update(path.read_bytes() if path.exists() else b"(missing)")
    key = (platform, digest.hexdigest())
    if key in _OBJECT_CACHE:
        return _OBJECT_CACHE[key]
    if _object_directory is None:
        _object_directory = tempfile.TemporaryDirectory(prefix="opbridge_signal_objects_")
    directory = pathlib.Path(_object_directory.name) / f"{platform}_{key[1][:16]}"
    directory.mkdir(parents=True, exist_ok=True)
    objects = []
    for source in sources:
        target = directory / f"{source.stem}.o"
        compiled = subprocess.run(
            [*_compile_command(platform), f"-I{KERNEL_DIRECTORY}", f"-I{WORKSPACE_ROOT}", "-c", str(source),
             "-o", str(target)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if compiled.returncode != 0:
            raise AssertionError(f"{source.name} does not compile for {platform}:\n{compiled.stderr}")
        objects.append(target)
    _OBJECT_CACHE[key] = objects
    return objects


def _run_program(platform: str, program: pathlib.Path) -> subprocess.CompletedProcess:
    if platform == "host":
        command = [str(program)]
    else:
        board = BOARDS[platform]
        command = [
            EMULATOR,
            "-M",
            board.machine,
            "-cpu",
            board.cpu,
            "-nographic",
            "-monitor",
            "none",
            "-serial",
            "null",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
            str(program),
        ]
    try:
        return subprocess.run(command, capture_output=True, timeout=RUN_TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired as error:
        raise AssertionError(f"the test program did not finish within {RUN_TIMEOUT_SECONDS} s on {platform}") from error


def _parse_outputs(text: str, frames: int, outputs: list[tuple[np.dtype, tuple[int, ...]]]) -> list[list[np.ndarray]]:
    lines = text.splitlines()
    if len(lines) != frames * len(outputs) or not all(line.startswith("@") for line in lines):
        raise AssertionError(
            f"the test program printed {len(lines)} lines, expected {frames * len(outputs)} of '@' and hex:\n"
            + text[:2000]
        )
    results: list[list[np.ndarray]] = []
    for frame in range(frames):
        frame_outputs = []
        for position, (dtype, shape) in enumerate(outputs):
            data = bytes.fromhex(lines[frame * len(outputs) + position][1:])
            count = int(np.prod(shape, dtype=np.int64))
            size = max(count, 1) * np.dtype(dtype).itemsize
            if len(data) != size:
                raise AssertionError(f"frame {frame} output {position}: {len(data)} bytes, expected {size}")
            # Little-endian on the host (x86_64, aarch64) and the boards alike.
            values = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<"))[:count]
            frame_outputs.append(values.astype(dtype).reshape(shape))
        results.append(frame_outputs)
    return results


def run_c(
    make_code: Callable[[SignalEmitArgs], NodeCode],
    frames: list[list[np.ndarray]],
    outputs: list[tuple[np.dtype, tuple[int, ...]]],
    *,
    scratch_bytes: int = 0,
    persistent_bytes: int = 0,
    platform: str = "host",
    constant_inputs: tuple[int, ...] = (),
) -> list[list[np.ndarray]]:
    """Each frame's outputs from the C statements of `make_code(args)`.

    `frames[k]` holds every input of the node for frame k (constant inputs
    repeated), in node order; `outputs` gives each output's dtype and shape.
    `platform` is "host" (gcc, run natively) or a Cortex-M board ("cortex_m55":
    mps3-an547, "cortex_m4": mps2-an386), cross-compiled with arm-none-eabi-gcc
    at -O2 with the board's start-up code and linker script and run under
    qemu-system-arm. Missing tools skip the test by hand and fail it under Bazel.
    `constant_inputs` are the positions of inputs that are model constants (the same
    in every frame): the emitter sees their values (SignalEmitArgs.input_values), as
    in a converted model, and may precompute tables from them.
    """
    require_platform(platform)
    if not frames:
        raise ValueError("run_c needs at least one frame")
    for position in constant_inputs:
        if any(not np.array_equal(frame[position], frames[0][position]) for frame in frames):
            raise ValueError(f"run_c: input {position} is named constant but differs between frames")
    input_dtypes = [np.dtype(value.dtype) for value in frames[0]]
    args = SignalEmitArgs(
        inputs=[f"input_{position}" for position in range(len(input_dtypes))],
        input_shapes=[tuple(value.shape) for value in frames[0]],
        outputs=[f"output_{position}" for position in range(len(outputs))],
        output_shapes=[tuple(shape) for _, shape in outputs],
        scratch="scratch" if scratch_bytes else None,
        state="state" if persistent_bytes else None,
        symbol="node_under_test",
        input_values=tuple(
            frames[0][position] if position in constant_inputs else None for position in range(len(input_dtypes))
        ),
    )
    code = make_code(args)
    objects = _library_objects(platform)
    with tempfile.TemporaryDirectory() as scratch_directory:
        directory = pathlib.Path(scratch_directory)
        source = directory / "program.c"
        source.write_text(_program(code, frames, outputs, args, scratch_bytes, persistent_bytes))
        program = directory / ("program" if platform == "host" else "program.elf")
        compiled = subprocess.run(
            [*_compile_command(platform), "-Wno-unused-variable", f"-I{KERNEL_DIRECTORY}", f"-I{WORKSPACE_ROOT}",
             str(source), *map(str, objects), *_link_flags(platform), "-o", str(program)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if compiled.returncode != 0:
            raise AssertionError(
                f"the test program does not compile for {platform}:\n{compiled.stderr}\n"
                f"--- program.c ---\n{source.read_text()}"
            )
        ran = _run_program(platform, program)
    stdout = ran.stdout.decode(errors="replace")
    if ran.returncode != 0:
        printed = f"\n--- its output ---\n{stdout[-2000:]}" if stdout.strip() else ""
        raise AssertionError(
            f"the test program failed on {platform} (exit status {ran.returncode}): "
            f"{ran.stderr.decode(errors='replace').strip()}{printed}"
        )
    return _parse_outputs(stdout, len(frames), outputs)


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
