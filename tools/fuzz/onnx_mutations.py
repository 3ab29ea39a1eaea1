# SPDX-License-Identifier: Apache-2.0
"""Seeded mutations of ONNX models, read by opbridge and by onnxruntime, and the two verdicts compared.

The models are those real converters write (torch.onnx.export of a small CNN, and onnxruntime's
quantize_static of it as QDQ and as QOperator) and the model-zoo CNNs the onnx wheel ships
(onnx/backend/test/data/light) that opbridge converts. Each gets N seeded mutations: bits flipped,
the file cut short, or a chunk of the file copied over another place (or inserted there).

Each mutated file goes through opbridge's convert path in this process (AotConverter(...).plan(): the
file read, imported, checked and planned, as `opbridge convert` does before it writes C), with a
timeout per case, and through onnxruntime (an InferenceSession, then one run on zeros) in a pool of
worker processes: a worker that crashes or hangs counts as onnxruntime rejecting the file.

Verdicts, one row per model:
- both refuse, both accept: agreement;
- opbridge refuses what onnxruntime accepts: allowed (opbridge is stricter: it refuses graphs without
  nodes, unsorted graphs, unsupported operators...), counted;
- opbridge accepts what onnxruntime rejects: a FAILURE (listed with onnxruntime's reason);
- an exception that is not opbridge's own typed error (a traceback), an error without a message or
  not naming the file, or a case over the timeout: a FAILURE.
The exit status is 1 when any failure is found.

`--kinds "field edit"` mutates the parsed model instead (an attribute, dims, an element type, a node's
input or op type, a node removed): files that parse and are wrong deeper in. Measured on 2026-12-07
(300 of each model): one file accepted that onnxruntime rejects, and it is valid: com.microsoft
QLinearAdd with a scale of shape [1] instead of a scalar, which onnxruntime's contrib schema refuses
and opbridge reads as the one scale it holds (as ONNX's own QLinear ops allow).

    python tools/fuzz/onnx_mutations.py --mutations 500 --seed 2026
    python tools/fuzz/onnx_mutations.py --models squeezenet --mutations 20 --keep /tmp/cases
    python tools/fuzz/onnx_mutations.py --kinds "field edit" --mutations 300
"""

import argparse
import dataclasses
import os
import pathlib
import queue
import random
import resource
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from peer_process import PeerProcess

ZOO = ("squeezenet", "shufflenet", "inception_v1")
TORCH = ("torch_cnn", "torch_cnn_qdq", "torch_cnn_qoperator")
MODELS = TORCH + ZOO
KINDS = ("bit flips", "truncation", "splice")
# Structure-aware edits (--kinds "field edit"): the file parses, and a value deeper in it is wrong.
FIELD_EDIT = "field edit"

# The onnxruntime worker: one path a line in, one JSON verdict a line out.
WORKER = r"""
import json, sys, resource
import numpy as np
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import onnxruntime
onnxruntime.set_default_logger_severity(4)
TYPES = {"tensor(float)": np.float32, "tensor(double)": np.float64, "tensor(int8)": np.int8,
         "tensor(uint8)": np.uint8, "tensor(int32)": np.int32, "tensor(int64)": np.int64,
         "tensor(bool)": np.bool_, "tensor(int16)": np.int16, "tensor(float16)": np.float16}
for line in sys.stdin:
    path = line.strip()
    try:
        options = onnxruntime.SessionOptions()
        options.add_session_config_entry("session.qdqisint8allowed", "1")
        options.intra_op_num_threads = 1
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        feeds = {}
        for value in session.get_inputs():
            shape = [d if isinstance(d, int) and d >= 0 else 1 for d in value.shape]
            feeds[value.name] = np.zeros(shape, TYPES.get(value.type, np.float32))
        session.run(None, feeds)
        verdict = {"ok": True, "error": ""}
    except BaseException as error:
        verdict = {"ok": False, "error": (str(error).strip().splitlines() or [type(error).__name__])[0][:300]}
    sys.stdout.write(json.dumps(verdict) + "\n")
    sys.stdout.flush()
"""


@dataclasses.dataclass
class Case:
    model: str
    index: int
    kind: str
    path: pathlib.Path
    opbridge: str = ""  # "accept", "refuse", "traceback", "timeout", "unnamed"
    opbridge_message: str = ""
    ort_ok: bool | None = None
    ort_error: str = ""


# Seed models -------------------------------------------------------------------------------------


def _light(name: str) -> bytes:
    import onnx

    return (pathlib.Path(onnx.__file__).parent / "backend/test/data/light" / f"light_{name}.onnx").read_bytes()


def _torch_models(folder: pathlib.Path) -> dict[str, bytes]:
    """A small CNN exported by torch.onnx.export, and quantize_static's QDQ and QOperator models of
    it, each as one file (the external data read in)."""
    import onnx
    import torch
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Cnn(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
            self.conv3 = torch.nn.Conv2d(8, 16, 1)
            self.fc = torch.nn.Linear(16, 10)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = torch.nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
            y = torch.relu(y + self.conv2(y))
            y = torch.nn.functional.adaptive_avg_pool2d(torch.sigmoid(self.conv3(y)), 1).flatten(1)
            return torch.softmax(self.fc(y), dim=-1)

    class Calibration(CalibrationDataReader):
        def __init__(self, name: str) -> None:
            rng = np.random.default_rng(7)
            self.batches = iter([{name: rng.standard_normal((1, 3, 16, 16)).astype(np.float32)} for _ in range(4)])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.batches, None)

    torch.manual_seed(0)
    exported = folder / "torch_cnn.onnx"
    torch.onnx.export(Cnn().eval(), (torch.randn(1, 3, 16, 16),), str(exported))
    paths = {"torch_cnn": exported}
    name = onnx.load(exported, load_external_data=False).graph.input[0].name
    for key, quant_format in (("torch_cnn_qdq", QuantFormat.QDQ), ("torch_cnn_qoperator", QuantFormat.QOperator)):
        paths[key] = folder / f"{key}.onnx"
        quantize_static(
            str(exported),
            str(paths[key]),
            Calibration(name),
            quant_format=quant_format,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
        )
    return {key: onnx.load(path).SerializeToString() for key, path in paths.items()}


def seed_models(names: list[str]) -> dict[str, bytes]:
    seeds = {name: _light(name) for name in names if name in ZOO}
    if any(name in TORCH for name in names):
        with tempfile.TemporaryDirectory() as folder:
            built = _torch_models(pathlib.Path(folder))
        seeds.update({name: built[name] for name in names if name in TORCH})
    return {name: seeds[name] for name in names}


# Mutations ---------------------------------------------------------------------------------------


INTS = (-(2**31), -7, -1, 0, 1, 2, 3, 5, 64, 2**31 - 1, 2**40)


def field_edit(data: bytes, rng: random.Random) -> bytes:
    """One value of the parsed model changed: an attribute, an initializer's dims or element type, a
    graph input's dimension or element type, a node's input or op type, or a node removed."""
    import onnx

    model = onnx.ModelProto.FromString(data)
    graph = model.graph
    nodes = list(graph.node)
    node = rng.choice(nodes)
    choice = rng.randrange(8)
    if choice == 0 and node.attribute:
        attribute = rng.choice(node.attribute)
        if attribute.type == onnx.AttributeProto.INT:
            attribute.i = rng.choice(INTS)
        elif attribute.type == onnx.AttributeProto.INTS and attribute.ints:
            values = list(attribute.ints)
            action = rng.randrange(3)
            if action == 0:
                values[rng.randrange(len(values))] = rng.choice(INTS)
            elif action == 1:
                values.pop(rng.randrange(len(values)))
            else:
                values.append(rng.choice(INTS))
            del attribute.ints[:]
            attribute.ints.extend(values)
        elif attribute.type == onnx.AttributeProto.FLOAT:
            attribute.f = rng.choice((0.0, -1.0, float("nan"), float("inf"), 1e30))
        else:
            attribute.type = rng.choice((onnx.AttributeProto.INT, onnx.AttributeProto.FLOAT))
    elif choice == 1 and graph.initializer:
        tensor = rng.choice(graph.initializer)
        dims = list(tensor.dims)
        if dims and rng.random() < 0.7:
            dims[rng.randrange(len(dims))] = rng.choice(INTS[2:9])
        elif dims:
            dims.pop()
        else:
            dims = [rng.choice(INTS[3:9])]
        del tensor.dims[:]
        tensor.dims.extend(dims)
    elif choice == 2 and graph.initializer:
        rng.choice(graph.initializer).data_type = rng.choice((1, 2, 3, 6, 7, 9, 10, 11, 16))
    elif choice == 3 and graph.input:
        tensor_type = rng.choice(graph.input).type.tensor_type
        if tensor_type.shape.dim and rng.random() < 0.6:
            rng.choice(tensor_type.shape.dim).dim_value = rng.choice(INTS[3:9])
        else:
            tensor_type.elem_type = rng.choice((1, 3, 6, 7, 10, 11))
    elif choice == 4 and node.input:
        values = [v for n in nodes for v in n.output] + [t.name for t in graph.initializer]
        node.input[rng.randrange(len(node.input))] = rng.choice(values) if rng.random() < 0.8 else ""
    elif choice == 5:
        node.op_type = rng.choice(nodes).op_type
    elif choice == 6 and len(nodes) > 1:
        graph.node.remove(node)
    elif node.input:
        del node.input[-1]
    return model.SerializeToString()


def mutate(data: bytes, rng: random.Random, kinds: tuple[str, ...] = KINDS) -> tuple[str, bytes]:
    """One seeded mutation of `data`: 1 to 16 bits flipped, the file cut at a random length, a chunk
    of it copied over (or inserted at) another place, or (FIELD_EDIT) one value of the parsed model changed."""
    kind = rng.choice(kinds)
    if kind == FIELD_EDIT:
        return kind, field_edit(data, rng)
    out = bytearray(data)
    if kind == "bit flips":
        for _ in range(rng.randint(1, 16)):
            position = rng.randrange(len(out))
            out[position] ^= 1 << rng.randrange(8)
    elif kind == "truncation":
        out = out[: rng.randrange(len(out))]
    else:
        size = rng.randint(1, min(256, len(out)))
        start, at = rng.randrange(len(out) - size + 1), rng.randrange(len(out))
        chunk = out[start : start + size]
        if rng.random() < 0.5:
            out[at : at + size] = chunk
        else:
            out[at:at] = chunk
    return kind, bytes(out)


# onnxruntime in worker processes -----------------------------------------------------------------


def judge_with_onnxruntime(cases: list[Case], workers: int, timeout: float, memory: int) -> threading.Thread:
    """Fills each case's ort_ok and ort_error in background threads (one worker process each)."""
    jobs: queue.Queue[Case] = queue.Queue()
    for case in cases:
        jobs.put(case)

    def serve() -> None:
        worker = PeerProcess("onnxruntime", [sys.executable, "-c", WORKER, str(memory)], timeout)
        try:
            while True:
                try:
                    case = jobs.get_nowait()
                except queue.Empty:
                    return
                verdict = worker.judge(case.path)
                if isinstance(verdict, str):  # the worker crashed or hung: a rejection
                    case.ort_ok, case.ort_error = False, verdict
                else:
                    case.ort_ok, case.ort_error = bool(verdict["ok"]), str(verdict["error"])
        finally:
            worker.close()

    threads = [threading.Thread(target=serve, daemon=True) for _ in range(workers)]
    for thread in threads:
        thread.start()

    def join_all() -> None:
        for thread in threads:
            thread.join()

    joiner = threading.Thread(target=join_all, daemon=True)
    joiner.start()
    return joiner


# opbridge in this process ------------------------------------------------------------------------


class CaseTimeout(BaseException):
    """Raised by the alarm when a case takes longer than the timeout."""


@dataclasses.dataclass
class Opbridge:
    context: Any
    output: pathlib.Path
    timeout: float

    def judge(self, case: Case) -> None:
        from opbridge.converter import AotConverter, ConvertArgs
        from opbridge.errors import OpbridgeError

        def alarm(signum: int, frame: Any) -> None:
            raise CaseTimeout()

        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            with np.errstate(all="ignore"):
                AotConverter(ConvertArgs(model=case.path, output_dir=self.output, prefix="m"), self.context).plan()
            case.opbridge = "accept"
        except OpbridgeError as error:
            message = str(error).strip()
            case.opbridge_message = message.splitlines()[0][:300] if message else ""
            named = case.path.name in message
            case.opbridge = "refuse" if message and named else "unnamed"
        except CaseTimeout:
            case.opbridge = "timeout"
        except BaseException as error:
            case.opbridge = "traceback"
            frames = traceback.extract_tb(error.__traceback__)[-3:]
            where = " <- ".join(f"{pathlib.Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
            case.opbridge_message = f"{type(error).__name__}: {str(error)[:200]} at {where}"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


# The run -----------------------------------------------------------------------------------------


def cases_of(
    seeds: dict[str, bytes], mutations: int, seed: int, folder: pathlib.Path, kinds: tuple[str, ...] = KINDS
) -> Iterator[Case]:
    for name, data in seeds.items():
        rng = random.Random(f"{seed}:{name}")  # each model's cases the same whichever models run
        for index in range(mutations):
            kind, mutated = mutate(data, rng, kinds)
            path = folder / f"{name}_{index:04d}.onnx"
            path.write_bytes(mutated)
            yield Case(name, index, kind, path)


@dataclasses.dataclass
class Report:
    cases: list[Case]

    def failures(self) -> list[Case]:
        return [case for case in self.cases if failure(case)]

    def table(self) -> str:
        columns = ("model", "cases", "both refuse", "both accept", "ob refuses/ort accepts", "ob accepts/ort rejects")
        columns += ("traceback", "timeout", "unnamed", "ort crash/hang")
        rows = []
        for model in dict.fromkeys(case.model for case in self.cases):
            mine = [case for case in self.cases if case.model == model]
            rows.append((model, *counts(mine)))
        rows.append(("total", *counts(self.cases)))
        widths = [max(len(str(row[i])) for row in [columns, *rows]) for i in range(len(columns))]
        lines = ["  ".join(str(value).rjust(width) for value, width in zip(row, widths, strict=True)) for row in rows]
        header = "  ".join(name.rjust(width) for name, width in zip(columns, widths, strict=True))
        return "\n".join([header, *lines])


def counts(cases: list[Case]) -> tuple[int, ...]:
    def count(predicate: Callable[[Case], bool]) -> int:
        return sum(1 for case in cases if predicate(case))

    return (
        len(cases),
        count(lambda c: c.opbridge == "refuse" and not c.ort_ok),
        count(lambda c: c.opbridge == "accept" and bool(c.ort_ok)),
        count(lambda c: c.opbridge == "refuse" and bool(c.ort_ok)),
        count(lambda c: c.opbridge == "accept" and not c.ort_ok),
        count(lambda c: c.opbridge == "traceback"),
        count(lambda c: c.opbridge == "timeout"),
        count(lambda c: c.opbridge == "unnamed"),
        count(lambda c: c.ort_error.startswith("onnxruntime ")),
    )


def failure(case: Case) -> bool:
    return case.opbridge in ("traceback", "timeout", "unnamed") or (case.opbridge == "accept" and not case.ort_ok)


def run(
    models: list[str],
    mutations: int,
    seed: int,
    *,
    timeout: float = 30.0,
    workers: int = 2,
    keep: pathlib.Path | None = None,
    kinds: tuple[str, ...] = KINDS,
    log: Callable[[str], None] = print,
) -> Report:
    from opbridge.registry import default_registry_context

    seeds = seed_models(models)
    context = default_registry_context()
    with tempfile.TemporaryDirectory() as scratch:
        folder = keep if keep is not None else pathlib.Path(scratch) / "cases"
        folder.mkdir(parents=True, exist_ok=True)
        cases = list(cases_of(seeds, mutations, seed, folder, kinds))
        memory = 4 * 1024**3
        joiner = judge_with_onnxruntime(cases, workers, timeout, memory)
        opbridge = Opbridge(context, pathlib.Path(scratch) / "out", timeout)
        started = time.monotonic()
        for number, case in enumerate(cases, 1):
            opbridge.judge(case)
            if number % 100 == 0:
                log(f"  {number}/{len(cases)} read by opbridge ({time.monotonic() - started:.0f} s)")
        joiner.join()
        if (pathlib.Path(scratch) / "out").exists():
            raise AssertionError("opbridge's plan() wrote to the output folder")
    return Report(cases)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="*", default=list(MODELS), choices=MODELS)
    parser.add_argument("--mutations", type=int, default=500, help="per model (default 500)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case, each side")
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--keep", type=pathlib.Path, help="write the mutated files here (kept)")
    parser.add_argument(
        "--kinds", nargs="*", default=list(KINDS), choices=(*KINDS, FIELD_EDIT), help="default: the byte-level ones"
    )
    arguments = parser.parse_args(argv)
    # A mutation declaring a huge tensor must be refused, not fill the host's memory: address space
    # beyond what the process holds now plus 4 GiB ends as a MemoryError (a traceback, a failure).
    with open("/proc/self/statm") as statm:
        held = int(statm.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (held + 4 * 1024**3, resource.RLIM_INFINITY))
    started = time.monotonic()
    report = run(
        arguments.models,
        arguments.mutations,
        arguments.seed,
        timeout=arguments.timeout,
        workers=arguments.workers,
        keep=arguments.keep,
        kinds=tuple(arguments.kinds),
    )
    print(report.table())
    failures = report.failures()
    for case in failures[:50]:
        print(f"FAIL {case.path.name} ({case.kind}): opbridge {case.opbridge}: {case.opbridge_message or '-'}")
        print(f"     onnxruntime: {'accepts' if case.ort_ok else case.ort_error}")
    allowed = [case for case in report.cases if case.opbridge == "refuse" and case.ort_ok]
    for case in allowed[:10]:
        print(f"stricter {case.path.name} ({case.kind}): {case.opbridge_message}")
    print(
        f"{len(report.cases)} cases in {time.monotonic() - started:.0f} s: {len(failures)} failure(s), "
        f"{len(allowed)} refused by opbridge only (allowed)"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
