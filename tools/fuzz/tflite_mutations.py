# SPDX-License-Identifier: Apache-2.0
"""Seeded mutations of the shared .tflite models, judged by opbridge, TFLite Micro and LiteRT.

Each shared model gets N seeded mutations: bits flipped (half of them aimed at the FlatBuffer's tables
rather than at the weights), the file cut short, or a chunk copied over another place or inserted there
(from elsewhere in the file or from another model). Every mutated file goes through

- opbridge's conversion path in this process: `AotConverter(ConvertArgs(model=...)).convert()` as
  `opbridge convert` runs it (the file read and verified, checked, rewritten, planned, its C written), with
  a timeout per case;
- TFLite Micro (`tflite_micro`'s Python interpreter: constructing it verifies the model and allocates its
  tensors, running every kernel's Prepare) and LiteRT (`ai_edge_litert`'s Interpreter and
  allocate_tensors), each in a worker process of its own, so that a peer which crashes or hangs on a file
  counts as rejecting it ("crashed", "hung") and is restarted.

Verdicts against TFLite Micro, one row per model:
- both refuse, both accept: agreement;
- opbridge refuses what TFLite Micro accepts: allowed (opbridge supports fewer operators and types, and
  refuses a subgraph without operators or inputs), counted and its reasons listed;
- opbridge accepts what TFLite Micro rejects: a FAILURE unless `explained` gives the reason it is valid;
- a traceback (an exception that is not opbridge's own typed error), an error without a message, or a
  case over the timeout in opbridge: a FAILURE.
The exit status is 1 when there is a failure.

    python tools/fuzz/tflite_mutations.py --mutations 500 --plugin opbridge_signal.plugin
    python tools/fuzz/tflite_mutations.py --models hello_world_int8 --mutations 30 --keep /tmp/cases
"""

import argparse
import collections
import dataclasses
import json
import os
import pathlib
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from peer_process import PeerProcess

SHARED_MODELS = (
    "mlperf_tiny/ad01_int8.tflite",
    "mlperf_tiny/kws_ref_model.tflite",
    "mlperf_tiny/pretrainedResnet_quant.tflite",
    "tflm/audio_preprocessor_int8.tflite",
    "tflm/hello_world_int8.tflite",
    "tflm/micro_speech_quantized.tflite",
)
# Where the shared models are: under Bazel (runfiles) and from a checkout.
MODEL_FOLDERS = ("../shared_models/models", str(pathlib.Path(__file__).resolve().parents[3] / "shared/models"))
PEERS = ("tflite_micro", "litert")
TFLITE_MICRO_ARENA_BYTES = 16 * 1024 * 1024
ACCEPTS, REFUSES, TRACEBACK, HANG = "accepts", "refuses", "traceback", "hang"


# Mutations --------------------------------------------------------------------------------------------


def weight_ranges(data: bytes) -> list[tuple[int, int]]:
    """The byte ranges of the model's constant buffers: flips there change weights, not structure."""
    import tflite

    model = tflite.Model.GetRootAs(data, 0)
    ranges = []
    for index in range(model.BuffersLength()):
        buffer = model.Buffers(index)
        if buffer.DataLength():
            start = buffer._tab.Vector(buffer._tab.Offset(4))
            ranges.append((start, start + buffer.DataLength()))
    return ranges


def mutate(data: bytes, others: list[bytes], weights: list[tuple[int, int]], rng: random.Random) -> tuple[str, bytes]:
    """One seeded mutation of `data`: its kind (for the report) and the bytes."""
    kind = rng.choice(("bit flips", "bit flips", "truncation", "splice"))
    mutated = bytearray(data)
    if kind == "truncation":
        return kind, bytes(mutated[: rng.randrange(0, len(data))])
    if kind == "bit flips":
        for _ in range(rng.choice((1, 1, 2, 4, 8, 32))):
            position = rng.randrange(len(data))
            for _ in range(20):  # half of the flips aim at the tables and offsets, away from the weights
                if rng.random() < 0.5 or not any(start <= position < end for start, end in weights):
                    break
                position = rng.randrange(len(data))
            mutated[position] ^= 1 << rng.randrange(8)
        return kind, bytes(mutated)
    source = data if rng.random() < 0.6 or not others else rng.choice(others)
    start = rng.randrange(len(source))
    chunk = source[start : start + rng.randint(1, 256)]
    position = rng.randrange(len(data))
    if rng.random() < 0.7:
        mutated[position : position + len(chunk)] = chunk
    else:
        mutated[position:position] = chunk
    return kind, bytes(mutated)


# The peers, each in a worker process ------------------------------------------------------------------


def peer_worker(peer: str, memory_bytes: int) -> int:
    """The worker's loop: a path a line on stdin, a JSON verdict a line on the reply stream (a copy of
    stdout). What the peer prints cannot mix with the replies: its stdout goes to /dev/null, its stderr
    (where TFLite Micro says why a kernel's Prepare failed) into the rejection's reason."""
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    reply = os.fdopen(os.dup(1), "w")
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    if peer == "tflite_micro":
        from tflite_micro.python.tflite_micro import runtime

        def judge(data: bytes) -> None:
            runtime.Interpreter.from_bytes(data, arena_size=TFLITE_MICRO_ARENA_BYTES)
    else:
        from ai_edge_litert.interpreter import Interpreter

        def judge(data: bytes) -> None:
            Interpreter(model_content=data).allocate_tensors()

    with tempfile.TemporaryFile() as report:  # what the peer prints: TFLite Micro's reasons go to stderr
        os.dup2(report.fileno(), 2)
        for line in sys.stdin:
            report.seek(0)
            report.truncate()
            try:
                judge(pathlib.Path(line.strip()).read_bytes())
                verdict = {"accepts": True, "reason": ""}
            except Exception as error:  # every peer error is a rejection
                sys.stderr.flush()
                report.seek(0)
                printed = " ".join(report.read().decode(errors="replace").split())[-300:]
                reason = f"{type(error).__name__}: {' '.join(str(error).split())[:300]}"
                verdict = {"accepts": False, "reason": f"{reason} ({printed})" if printed else reason}
            reply.write(json.dumps(verdict) + "\n")
            reply.flush()
    return 0


def _verdict(received: dict[str, Any] | str) -> tuple[bool, str]:
    """(accepts, reason) from a worker's answer; a worker that crashed or hung rejects."""
    if isinstance(received, str):
        return False, received
    return bool(received["accepts"]), str(received["reason"])


# opbridge, in this process ----------------------------------------------------------------------------


class _Timeout(BaseException):
    """Raised by the alarm: a BaseException, so that no `except Exception` in opbridge swallows it."""


def judge_with_opbridge(path: pathlib.Path, context: Any, output_dir: pathlib.Path, timeout: float) -> tuple[str, str]:
    """(verdict, detail): what `opbridge convert` makes of the file."""
    from opbridge.converter import AotConverter, ConvertArgs
    from opbridge.errors import OpbridgeError

    def alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        config = ConvertArgs(model=path, output_dir=output_dir, bundle_kernels=False, cmake_lists=False)
        AotConverter(config, registry_context=context).convert()
        return ACCEPTS, ""
    except _Timeout:
        return HANG, f"no verdict within {timeout:.0f} s"
    except OpbridgeError as error:
        message = str(error).strip()
        if not error.message.strip():
            return TRACEBACK, f"{type(error).__name__} without a message"
        return REFUSES, f"{type(error).__name__}: {message}"
    except Exception:
        return TRACEBACK, traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        shutil.rmtree(output_dir, ignore_errors=True)


# Cases and verdicts -----------------------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    model: str
    number: int
    kind: str
    data: bytes
    opbridge: str = ""
    opbridge_detail: str = ""
    tflite_micro: bool = False
    tflite_micro_reason: str = ""
    litert: bool = False
    litert_reason: str = ""
    opbridge_seconds: float = 0.0

    @property
    def verdict(self) -> str:
        if self.opbridge in (TRACEBACK, HANG):
            return f"opbridge {self.opbridge}"
        ours = self.opbridge == ACCEPTS
        if ours and self.tflite_micro:
            return "both accept"
        if not ours and not self.tflite_micro:
            return "both refuse"
        return "opbridge accepts, TFLM rejects" if ours else "opbridge refuses, TFLM accepts"

    @property
    def failure(self) -> bool:
        verdict = self.verdict
        if verdict.startswith("opbridge ") and verdict.split()[1] in (TRACEBACK, HANG):
            return True
        return verdict == "opbridge accepts, TFLM rejects" and explained(self) is None


# TFLite Micro's Prepare of int8 convolutions and fully connected layers (kernel_util.cc).
BIAS_SCALE_CHECK = "scale_diff / output_scale <= 0.02"


def explained(case: Case) -> str | None:
    """Why a file opbridge accepts and TFLite Micro rejects is valid nonetheless, when it is; None otherwise."""
    if BIAS_SCALE_CHECK in case.tflite_micro_reason and case.litert:
        return (
            "TFLite Micro checks that an int8 layer's bias scale is its input scale times its filter scale (within "
            "2% of the output scale); no kernel reads the bias scale (TFLite Micro's and opbridge's rescale by input "
            "x filter / output scale), and LiteRT accepts the file"
        )
    return None


COLUMNS = (
    "both refuse",
    "both accept",
    "opbridge refuses, TFLM accepts",
    "opbridge accepts, TFLM rejects",
    "opbridge traceback",
    "opbridge hang",
)


def table(cases: list[Case], seconds: dict[str, float]) -> str:
    """One row per model: the verdicts counted, LiteRT's acceptances beside TFLite Micro's."""
    header = ("model", "cases", *COLUMNS, "LiteRT accepts", "seconds")
    rows = [header]
    for model in dict.fromkeys(case.model for case in cases):
        mine = [case for case in cases if case.model == model]
        counts = collections.Counter(case.verdict for case in mine)
        rows.append(
            (
                model,
                str(len(mine)),
                *(str(counts[column]) for column in COLUMNS),
                str(sum(case.litert for case in mine)),
                f"{seconds[model]:.0f}",
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    return "\n".join(" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in rows)


def reason_summary(cases: list[Case], verdict: str, reason: Callable[[Case], str], count: int = 8) -> str:
    """The commonest reasons (numbers and quotes blanked so that alike messages group) of one verdict."""
    reasons = collections.Counter(
        re.sub(r"\d[\d,]*|'[^']*'|\"[^\"]*\"|0x[0-9a-f]+", "#", reason(case).splitlines()[0])[:150]
        for case in cases
        if case.verdict == verdict
    )
    return "\n".join(f"  {number:4d} x {text}" for text, number in reasons.most_common(count))


def cases_of(models: dict[str, bytes], chosen: list[str], mutations: int, seed: int) -> Iterator[Case]:
    """The mutations of the `chosen` models; the same ones whichever are chosen (the seed of a case
    depends on its model's name and number, and chunks are spliced from all the models)."""
    for name in chosen:
        data = models[name]
        others = [other for other_name, other in models.items() if other_name != name]
        weights = weight_ranges(data)
        for number in range(mutations):
            rng = random.Random(f"{seed}/{name}/{number}")
            kind, mutated = mutate(data, others, weights, rng)
            yield Case(name, number, kind, mutated)


def find_models(folder: str | None) -> dict[str, bytes]:
    """The six shared models by name (file stem)."""
    folders = [folder] if folder else list(MODEL_FOLDERS)
    for candidate in map(pathlib.Path, folders):
        if (candidate / SHARED_MODELS[0]).is_file():
            return {pathlib.Path(path).stem: (candidate / path).read_bytes() for path in SHARED_MODELS}
    raise SystemExit(f"the shared models are in none of {folders}: pass --models-dir")


def run(arguments: argparse.Namespace) -> int:
    from opbridge.plugins import build_plugin_context

    models = find_models(arguments.models_dir)
    unknown = sorted(set(arguments.models or ()) - set(models))
    if unknown:
        raise SystemExit(f"no shared model is named {', '.join(unknown)}; the models: {', '.join(models)}")
    chosen = [name for name in models if not arguments.models or name in arguments.models]
    context = build_plugin_context(arguments.plugin, entry_points=False)
    memory = arguments.memory_mb << 20
    workers = {
        peer: PeerProcess(
            peer, [sys.executable, __file__, "--peer-worker", peer, "--memory-mb", str(memory >> 20)], arguments.timeout
        )
        for peer in PEERS
    }
    cases: list[Case] = []
    seconds: collections.Counter[str] = collections.Counter()
    keep = pathlib.Path(arguments.keep) if arguments.keep else None
    with tempfile.TemporaryDirectory() as folder:
        try:
            for case in cases_of(models, chosen, arguments.mutations, arguments.seed):
                start = time.monotonic()
                path = pathlib.Path(folder) / f"{case.model}.tflite"
                path.write_bytes(case.data)
                sent = {peer: worker.send(path) for peer, worker in workers.items()}
                case.opbridge, case.opbridge_detail = judge_with_opbridge(
                    path, context, pathlib.Path(folder) / "module", arguments.timeout
                )
                case.opbridge_detail = case.opbridge_detail.replace(f"{folder}/", "")
                case.opbridge_seconds = time.monotonic() - start
                case.tflite_micro, case.tflite_micro_reason = _verdict(
                    workers["tflite_micro"].receive(sent["tflite_micro"])
                )
                case.litert, case.litert_reason = _verdict(workers["litert"].receive(sent["litert"]))
                seconds[case.model] += time.monotonic() - start
                cases.append(case)
                if keep is not None and case.failure:
                    keep.mkdir(parents=True, exist_ok=True)
                    (keep / f"{case.model}_{case.number}.tflite").write_bytes(case.data)
        finally:
            for worker in workers.values():
                worker.close()
    print(f"{arguments.mutations} seeded mutations (seed {arguments.seed}) of each model:\n")
    print(table(cases, seconds))
    print("\nopbridge refuses what TFLite Micro accepts (allowed), commonest reasons:")
    print(reason_summary(cases, "opbridge refuses, TFLM accepts", lambda case: case.opbridge_detail) or "  none")
    print("\nboth refuse, opbridge's commonest reasons:")
    print(reason_summary(cases, "both refuse", lambda case: case.opbridge_detail) or "  none")
    for case in cases:
        if case.verdict == "opbridge accepts, TFLM rejects":
            reason = explained(case)
            state = f"explained: {reason}" if reason else "FAILURE"
            litert = "accepts" if case.litert else case.litert_reason
            print(f"\n{state}: {case.model} mutation {case.number} ({case.kind}) accepted; TFLite Micro: "
                  f"{case.tflite_micro_reason}; LiteRT: {litert}")  # fmt: skip
    slowest = max(cases, key=lambda case: case.opbridge_seconds)
    print(f"\nslowest opbridge case: {slowest.opbridge_seconds:.2f} s ({slowest.model} mutation {slowest.number})")
    failures = [case for case in cases if case.failure]
    for case in failures:
        if case.verdict != "opbridge accepts, TFLM rejects":
            print(
                f"\nFAILURE: {case.model} mutation {case.number} ({case.kind}): {case.verdict}\n{case.opbridge_detail}"
            )
    print(f"\n{len(failures)} failure(s) in {len(cases)} cases")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutations", type=int, default=500, help="mutations per model (default 500)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--models", nargs="*", help="model names (file stems) to mutate; default: all six")
    parser.add_argument("--models-dir", help="the folder holding mlperf_tiny/ and tflm/")
    parser.add_argument("--plugin", action="append", default=[], help="a plugin module, as for `opbridge convert`")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per case and judge (default 30)")
    parser.add_argument("--memory-mb", type=int, default=8192, help="address space of a peer's worker process")
    parser.add_argument("--keep", help="write the failing cases' files into this folder")
    parser.add_argument("--peer-worker", choices=PEERS, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.peer_worker:
        return peer_worker(arguments.peer_worker, arguments.memory_mb << 20)
    return run(arguments)


if __name__ == "__main__":
    sys.exit(main())
