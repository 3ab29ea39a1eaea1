# SPDX-License-Identifier: Apache-2.0
"""Native plugin host benchmark: time per run, opbridge's hosts against ONNX Runtime.

    bazel run -c opt //tests/benchmarks:native_plugins

The same LeakyRelu library (examples/native_plugins/libort_leaky_relu.so)
runs in opbridge's ORT-ABI host (CustomOpSession) and in real onnxruntime
(register_custom_ops_library); the opbridge-ABI LeakyRelu runs in opbridge's
own host, and the ORT-ABI host runs it once more isolated (CustomOpSession(...,
isolate=True): the library in a child process, arrays pickled across a pipe).
Each figure is the median wall time of one `run` over many runs
(after warm-up) on float32 inputs of the given size; it includes the input
copy and output allocation each host does. Wall time on a shared machine
varies: compare the columns of one run, not figures across machines.
"""

import os
import pathlib
import statistics
import time
from collections.abc import Callable

import numpy as np
import onnxruntime as ort
from opbridge.backends.host_plugins import CustomOpSession
from opbridge_testing.onnx_models import leaky_relu_model

RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
ORT_LIBRARY = str(RUNFILES_ROOT / "examples/native_plugins/libort_leaky_relu.so")
OPBRIDGE_LIBRARY = str(RUNFILES_ROOT / "examples/native_plugins/libleaky_relu_plugin.so")


def median_seconds(run: Callable[[], object], budget: float = 0.5) -> float:
    for _ in range(5):  # warm-up: kernels are created on the first run
        run()
    times: list[float] = []
    deadline = time.perf_counter() + budget
    while time.perf_counter() < deadline or len(times) < 20:
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    model = leaky_relu_model("float32", 0.1, input_shape=None)
    options = ort.SessionOptions()
    options.register_custom_ops_library(ORT_LIBRARY)
    options.intra_op_num_threads = 1
    onnxruntime = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    print(f"onnxruntime {ort.__version__}, {os.cpu_count()} CPUs; median microseconds per run\n")
    print(
        f"{'elements':>10} {'opbridge ORT host':>18} {'isolated':>10} {'overhead':>9} "
        f"{'opbridge ABI host':>18} {'onnxruntime':>12}"
    )
    with (
        CustomOpSession(ORT_LIBRARY, model) as ort_host,
        CustomOpSession(ORT_LIBRARY, model, isolate=True) as isolated_host,
        CustomOpSession(OPBRIDGE_LIBRARY, model, abi="opbridge") as native_host,
    ):
        for size in (1, 1_000, 100_000, 1_000_000):
            x = np.random.default_rng(0).standard_normal(size).astype(np.float32)
            ours = median_seconds(lambda: ort_host.run([x]))  # noqa: B023 - used within this iteration
            isolated = median_seconds(lambda: isolated_host.run([x]))  # noqa: B023
            native = median_seconds(lambda: native_host.run([x]))  # noqa: B023
            theirs = median_seconds(lambda: onnxruntime.run(None, {"x0": x}))  # noqa: B023
            assert np.array_equal(ort_host.run([x])[0], onnxruntime.run(None, {"x0": x})[0])
            assert np.array_equal(isolated_host.run([x])[0], ort_host.run([x])[0])
            print(
                f"{size:>10} {ours * 1e6:>18.1f} {isolated * 1e6:>10.1f} {(isolated - ours) * 1e6:>9.1f} "
                f"{native * 1e6:>18.1f} {theirs * 1e6:>12.1f}"
            )


if __name__ == "__main__":
    main()
