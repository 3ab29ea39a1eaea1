# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's arena for a .tflite model, when the `tflite-micro` package is importable.

TFLite Micro's Python runtime builds the model with its recording allocator;
after one invocation `print_allocations()` reports the arena's head (tensors,
planned by TFLite Micro's greedy planner) and tail (its own structures and
kernels' persistent buffers). That total is what TFLite Micro keeps; the
smallest arena it runs in can be a few hundred bytes larger on small models
(allocations made and freed while it sets up), which the memory benchmark
finds by bisection at the cost of a dozen runs. The probe runs in a child
process: TFLite Micro prints from C and may abort the process on a model it
refuses.
"""

import dataclasses
import importlib.metadata
import importlib.util
import pathlib
import re
import subprocess
import sys

PROBE_ARENA_BYTES = 64 * 1024 * 1024
PROBE_TIMEOUT_SECONDS = 60

PROBE = """
import sys
import numpy as np
from tflite_micro.python.tflite_micro import runtime
interpreter = runtime.Interpreter.from_file(sys.argv[1], arena_size=int(sys.argv[2]))
for index in range(int(sys.argv[3])):
    details = interpreter.get_input_details(index)
    interpreter.set_input(np.zeros(details["shape"], dtype=details["dtype"]), index)
interpreter.invoke()
interpreter.print_allocations()
"""


@dataclasses.dataclass(frozen=True)
class TflmArena:
    version: str
    total_bytes: int | None  # None: TFLite Micro could not run the model (see note)
    head_bytes: int | None = None
    tail_bytes: int | None = None
    note: str = ""


def run_probe(
    model: pathlib.Path, arena_bytes: int, input_count: int, timeout: float = PROBE_TIMEOUT_SECONDS
) -> subprocess.CompletedProcess[str]:
    """TFLite Micro runs `model` once, on zero inputs, in an arena of `arena_bytes` (exit 0 if it
    could), then prints its allocations; also the memory benchmark's bisection step."""
    return subprocess.run(
        [sys.executable, "-c", PROBE, str(model), str(arena_bytes), str(input_count)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def tflm_arena(model: pathlib.Path, input_count: int) -> TflmArena | None:
    """TFLite Micro's arena for `model` (run once on zero inputs); None when it is not a .tflite
    file or tflite-micro is not installed."""
    if model.suffix != ".tflite" or importlib.util.find_spec("tflite_micro") is None:
        return None
    version = importlib.metadata.version("tflite-micro")
    try:
        result = run_probe(model, PROBE_ARENA_BYTES, input_count)
    except subprocess.TimeoutExpired:
        return TflmArena(version, None, note=f"no figure: the probe took over {PROBE_TIMEOUT_SECONDS} s")
    figures = dict(re.findall(r"Arena allocation (total|head|tail) (\d+) bytes", result.stdout + result.stderr))
    if result.returncode != 0 or "total" not in figures:
        last = (result.stderr.strip().splitlines() or ["(no message)"])[-1]
        return TflmArena(version, None, note=f"could not run the model ({last})")
    return TflmArena(version, int(figures["total"]), int(figures["head"]), int(figures["tail"]))
