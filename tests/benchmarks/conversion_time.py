# SPDX-License-Identifier: Apache-2.0
"""Conversion-time benchmark: how conversion time grows with the model.

    bazel run //tests/benchmarks:conversion_time [-- --nodes 100 200 --repeat 3]

Over generated int8 residual chains (python/opbridge_testing/residual_chain.py:
a stem convolution, then inverted residual blocks of 1x1 convolution, 3x3
depthwise convolution, 1x1 convolution and ADD, quantized as TFLite's
converter does) of 100 to 2,000 nodes, it prints per chain: the wall time of
`opbridge convert` in a fresh Python (start-up included, as a user sees it;
the best of `--repeat` runs), the time the memory planner took inside one
such conversion (plan_graph: in-place choices, layout, placement), and the
arena. A measurement, not a test: the machine's load moves the figures
(docs/memory_planner.md, "Conversion time").
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from opbridge import cli, converter
from opbridge_testing.residual_chain import residual_chain

NODES = [100, 200, 500, 1000, 2000]


def _convert_arguments(model: pathlib.Path, output: pathlib.Path) -> list[str]:
    return ["convert", str(model), "-o", str(output), "--no-bundle-kernels", "-q"]


def convert_seconds(model: pathlib.Path, output: pathlib.Path) -> float:
    """Wall time of the CLI in a fresh interpreter."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "opbridge.cli", *_convert_arguments(model, output)], check=True, env=environment
    )
    return time.perf_counter() - start


def planning_seconds(model: pathlib.Path, output: pathlib.Path) -> float:
    """The time plan_graph takes in one conversion, in this process."""
    spent: list[float] = []
    original: Callable[..., Any] = converter.plan_graph

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    converter.plan_graph = timed  # type: ignore[assignment]
    try:
        if cli.main(_convert_arguments(model, output)) != 0:
            raise RuntimeError(f"converting {model} failed")
    finally:
        converter.plan_graph = original  # type: ignore[assignment]
    return sum(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=NODES, help="chain lengths (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per chain; the best counts (default: 1)")
    arguments = parser.parse_args()
    print(f"{'nodes':>6} {'convert s':>10} {'planning s':>11} {'arena B':>8}")
    with tempfile.TemporaryDirectory(prefix="conversion_time.") as scratch:
        folder = pathlib.Path(scratch)
        for nodes in arguments.nodes:
            model = folder / f"chain_{nodes}.tflite"
            model.write_bytes(residual_chain(nodes))
            walls, plans = [], []
            for run in range(arguments.repeat):
                walls.append(convert_seconds(model, folder / f"cli_{nodes}_{run}"))
                plans.append(planning_seconds(model, folder / f"in_process_{nodes}_{run}"))
            arena = json.loads((folder / f"cli_{nodes}_0" / "plan.json").read_text())["arena_bytes"]
            print(f"{nodes:>6} {min(walls):>10.2f} {min(plans):>11.2f} {arena:>8}", flush=True)


if __name__ == "__main__":
    main()
