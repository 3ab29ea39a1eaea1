# SPDX-License-Identifier: Apache-2.0
"""Coverage-guided fuzzing of opbridge's readers of untrusted files (docs/fuzzing.md).

    python tools/fuzz/fuzz.py --target NAME|all --seconds N [--timeout S] [--work DIR] [--keep-going]

Runs atheris (libFuzzer for Python) on each target (tools/fuzz/targets.py)
in a subprocess, time-boxed, with opbridge's modules instrumented for
coverage. Seeds: tools/fuzz/corpus/<target>/, the target's shared models
(OPBRIDGE_SHARED_DIR or ../shared) and the regression files. An input that
breaks the contract (an exception other than an OpbridgeError, a crash, a
hang over --timeout seconds, memory over --rss-limit-mb) is a finding: it is
copied to tools/fuzz/regressions/<target>/ and the run exits with status 1.
With --keep-going a target restarts after a finding and ignores inputs that
fail the same way (same exception type at the same line), until its time
is up.

The path to opbridge (python/), to torch and to the compiled schema host
comes from the environment's PYTHONPATH; see docs/fuzzing.md for the
command that sets it.
"""

import argparse
import contextlib
import hashlib
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import targets

FINDING_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")
HANG_PREFIXES = ("timeout-", "oom-", "slow-unit-")


def signature(error: BaseException) -> str:
    """A finding's identity: the exception type and the innermost frame in opbridge (or the innermost)."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if "/opbridge/" in frame.filename] or frames
    frame = ours[-1] if ours else None
    where = f"{pathlib.Path(frame.filename).name}:{frame.lineno}:{frame.name}" if frame else "?"
    return f"{type(error).__name__} at {where}"


class Overran(BaseException):
    """Raised by the per-input alarm; a BaseException, so no reader's `except Exception` swallows it."""


def worker(name: str, known_path: pathlib.Path | None, libfuzzer_args: list[str]) -> None:
    """Runs inside the subprocess: atheris on target `name`."""
    import atheris

    known = set(json.loads(known_path.read_text())) if known_path and known_path.exists() else set()
    with atheris.instrument_imports(include=["opbridge"]):
        call = targets.call(name)
    targets.schema_library_outcome = atheris.instrument_func(targets.schema_library_outcome)
    # Findings saved before and not fixed yet (regressions_test.py's OPEN_FINDINGS): said, then ignored, so
    # that only new ones stop the run. Hangs are not replayed (they are not seeds either).
    for path in targets.regression_files(name):
        if path.name.startswith(HANG_PREFIXES):
            continue
        try:
            targets.run_target(name, path.read_bytes())
        except Exception as error:
            print(f"{name}: open finding {path.name}: {signature(error)} (ignored in this run)", flush=True)
            known.add(signature(error))
    artifacts = pathlib.Path(os.environ["OPBRIDGE_FUZZ_ARTIFACTS"])
    timeout = float(os.environ.get("OPBRIDGE_FUZZ_TIMEOUT", "10"))

    def save(kind: str, data: bytes, what: str) -> None:
        """Keeps the input and what it did, and ends the process: the runner takes it from there. (Done here,
        not by libFuzzer: its crash and timeout paths do not reliably save the input of a Python target.)"""
        (artifacts / f"{kind}-{hashlib.sha1(data).hexdigest()}").write_bytes(data)
        (artifacts / "signature.txt").write_text(what)
        print(f"=== {kind}: {what}", flush=True)
        os._exit(70)

    def overran(signum: int, frame: object) -> None:
        raise Overran

    signal.signal(signal.SIGALRM, overran)

    def test_one_input(data: bytes) -> None:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            targets.run_target(name, data)
        except Overran:
            save("timeout", data, f"over {timeout:g} s on one input")
        except Exception as error:  # the contract allows OpbridgeError only (run_target let this one out)
            found = signature(error)
            if found not in known:
                traceback.print_exc()
                save("crash", data, found)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    # One seed first, without the per-input limit: the first .pt2 load imports much of torch lazily.
    # Warming up only: the fuzzer replays every seed under the contract.
    for path in targets.seed_files(name)[:1]:
        with contextlib.suppress(Exception):
            targets.run_target(name, path.read_bytes())
    del call
    atheris.Setup([sys.argv[0], *libfuzzer_args], test_one_input)
    atheris.Fuzz()


def fuzz_target(name: str, arguments: argparse.Namespace, shared: pathlib.Path | None) -> list[pathlib.Path]:
    """Fuzzes target `name` for arguments.seconds; returns the regression files of its new findings."""
    target = targets.TARGETS[name]
    missing = targets.missing_modules(name)
    if missing:
        print(f"{name}: skipped, cannot import {', '.join(missing)} (see docs/fuzzing.md for PYTHONPATH)")
        return []
    work = arguments.work / name if arguments.work else pathlib.Path(tempfile.mkdtemp(prefix=f"fuzz_{name}_"))
    grown, seeds, artifacts = work / "corpus", work / "seeds", work / "artifacts"
    for folder in (grown, seeds, artifacts):
        folder.mkdir(parents=True, exist_ok=True)
    regressions = [path for path in targets.regression_files(name) if not path.name.startswith(HANG_PREFIXES)]
    for path in [*targets.seed_files(name, shared), *regressions]:
        data = path.read_bytes()
        if len(data) <= target.max_len:
            (seeds / hashlib.sha1(data).hexdigest()).write_bytes(data)
    known: list[str] = []
    known_path = work / "known.json"
    signature_path = artifacts / "signature.txt"
    found: list[pathlib.Path] = []
    deadline = time.monotonic() + arguments.seconds
    while (remaining := int(deadline - time.monotonic())) > 0:
        known_path.write_text(json.dumps(known))
        signature_path.unlink(missing_ok=True)
        command = [
            sys.executable, str(pathlib.Path(__file__).resolve()), "--worker", name, "--known", str(known_path), "--",
            # -timeout=0: the worker times each input itself (SIGALRM is its own).
            f"-max_total_time={remaining}", "-timeout=0", f"-rss_limit_mb={arguments.rss_limit_mb}",
            f"-max_len={target.max_len}", f"-artifact_prefix={artifacts}/", "-print_final_stats=1",
            str(grown), str(seeds),
        ]  # fmt: skip
        environment = {
            **os.environ,
            "OPBRIDGE_FUZZ_SCRATCH": str(work / "scratch"),
            "OPBRIDGE_FUZZ_ARTIFACTS": str(artifacts),
            "OPBRIDGE_FUZZ_TIMEOUT": str(arguments.timeout),
        }
        log = work / "fuzz.log"
        started = time.monotonic()
        with log.open("w") as output:
            # The worker stops itself (max_total_time); this bounds a worker hung in a native call.
            try:
                status = subprocess.run(
                    command, stdout=output, stderr=subprocess.STDOUT, env=environment,
                    timeout=remaining + 60 + arguments.timeout, check=False,
                ).returncode  # fmt: skip
            except subprocess.TimeoutExpired:
                status = -1
        runs = _stat(log, "stat::number_of_executed_units")
        print(f"{name}: {runs} inputs in {time.monotonic() - started:.0f} s, exit {status}, corpus {_count(grown)}")
        new = [path for path in sorted(artifacts.iterdir()) if path.name.startswith(FINDING_PREFIXES)]
        what = signature_path.read_text() if signature_path.exists() else ""
        for artifact in new:
            kind = artifact.name.split("-", 1)[0]
            data = artifact.read_bytes()
            destination = targets.REGRESSIONS / name / f"{kind}-{hashlib.sha1(data).hexdigest()[:16]}"
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(data)
            artifact.unlink()
            found.append(destination)
            print(f"{name}: FINDING {what or kind}: {destination}")
            print(_excerpt(log), end="")
        if status != 0 and not new:
            print(f"{name}: the fuzzer stopped with status {status} and no input saved:\n{_excerpt(log)}")
            found.append(log)
        # Go on only past a Python exception, which the next worker can tell apart and ignore.
        if not (arguments.keep_going and new and what and not what.startswith("over ")):
            break
        known.append(what)
    shutil.rmtree(work / "scratch", ignore_errors=True)
    if not arguments.work:
        shutil.rmtree(work, ignore_errors=True)
    return found


def _stat(log: pathlib.Path, key: str) -> str:
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith(key):
            return line.split(":")[-1].strip()
    return "?"


def _count(folder: pathlib.Path) -> int:
    return sum(1 for _ in folder.iterdir())


def _excerpt(log: pathlib.Path, lines: int = 40) -> str:
    text = log.read_text(errors="replace").splitlines()
    start = next((i for i, line in enumerate(text) if "Traceback" in line or "ERROR: libFuzzer" in line), None)
    chosen = text[start : start + lines] if start is not None else text[-lines:]
    return "".join(f"    {line}\n" for line in chosen)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        separator = argv.index("--")
        known = pathlib.Path(argv[3]) if argv[2:3] == ["--known"] else None
        worker(argv[1], known, argv[separator + 1 :])
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", required=True, choices=[*targets.TARGETS, "all"])
    parser.add_argument("--seconds", type=int, default=40, help="fuzzing time per target (default 40)")
    parser.add_argument("--timeout", type=int, default=10, help="seconds one input may take (default 10)")
    parser.add_argument("--rss-limit-mb", type=int, default=4096, help="memory limit (default 4096 MB)")
    parser.add_argument(
        "--work", type=pathlib.Path, help="keep each target's grown corpus and logs here (reused by the next run)"
    )
    parser.add_argument("--keep-going", action="store_true", help="go on after a finding, to find others")
    parser.add_argument(
        "--require-all", action="store_true", help="fail when a target cannot run (a module it needs is missing)"
    )
    arguments = parser.parse_args(argv)
    names = list(targets.TARGETS) if arguments.target == "all" else [arguments.target]
    missing = {name: targets.missing_modules(name) for name in names}
    if arguments.require_all and any(missing.values()):
        for name, modules in missing.items():
            if modules:
                print(f"{name}: cannot import {', '.join(modules)} (docs/fuzzing.md: PYTHONPATH)")
        return 2
    shared = targets.shared_dir()
    print(f"seeds: tools/fuzz/corpus, regressions, and {shared or 'no shared models (set OPBRIDGE_SHARED_DIR)'}")
    findings = [path for name in names for path in fuzz_target(name, arguments, shared)]
    if findings:
        print(f"{len(findings)} finding(s); each input is saved for tools/fuzz:regressions_test:")
        print("".join(f"  {path}\n" for path in findings), end="")
        return 1
    print(f"no findings in {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
