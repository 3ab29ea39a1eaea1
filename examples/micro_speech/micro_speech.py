# SPDX-License-Identifier: Apache-2.0
"""opbridge's main job: keyword spotting from raw audio on an emulated Cortex-M55.

Bazel has compiled, with opbridge, TFLM's audio front end (nine Signal
custom operators, through the opbridge_signal plugin) and the micro_speech
classifier into one C program for the Cortex-M55. This feeds it 1 s of
16 kHz audio, which it turns into 49 frames of 40 features (30 ms window,
20 ms stride) and classifies, on an emulated Arm MPS3 AN547 board.

    ./bazelw run //examples/micro_speech:m55 -- [WAV] [--platform cortex_m55|cortex_m4|aarch64_linux|x86_64_linux]

With no WAV it uses yes_1000ms.wav from the shared data.
"""

import argparse
import dataclasses
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from opbridge.backends.c.flash import flash_breakdown
from opbridge.data_files import read_wav
from opbridge.errors import DataFileError

# The runfiles tree (not resolved: its entries are symlinks into the source tree).
RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
HERE = RUNFILES_ROOT / "examples" / "micro_speech"
PROGRAMS = {
    "cortex_m55": HERE / "micro_speech_cortex_m55",
    "cortex_m4": HERE / "micro_speech_cortex_m4",
    "aarch64_linux": HERE / "micro_speech_aarch64_linux",
    "x86_64_linux": HERE / "micro_speech_x86_64_linux",
}
EMULATORS = {"cortex_m55": "mps3-an547", "cortex_m4": "mps2-an386", "aarch64_linux": "qemu-aarch64"}
# The clocks of the time estimates: typical parts run a Cortex-M55 at 160 MHz or more, a Cortex-M4 at 80 MHz.
ESTIMATE_CLOCK_HZ = {"cortex_m55": 160_000_000, "cortex_m4": 80_000_000}
FRAMES = 49  # 1 s of audio: 30 ms windows every 20 ms
# Bazel's compilation mode -> how the output names the build (toolchains/cc_toolchain_config.bzl's levels).
BUILDS = {"fastbuild": "the default build (-O1)", "opt": "the -c opt build (-O2)", "dbg": "the -c dbg build (-O0)"}
PLANS = {
    "frontend": HERE / "frontend_module_plan.json",
    "micro_speech": RUNFILES_ROOT / "tests" / "models" / "micro_speech_module_plan.json",
}
RUNNER = RUNFILES_ROOT / "toolchains" / "run_emulated.sh"
DEFAULT_CLIP = RUNFILES_ROOT.parent / "shared_models" / "data" / "micro_speech" / "yes_1000ms.wav"
SAMPLE_RATE = 16000
CLIP_NAME = "micro_speech_clip.raw"  # what micro_speech_main.c reads
TIMEOUT_SECONDS = 120


class ClipError(DataFileError, ValueError):
    """The WAV file is not 16 kHz mono 16-bit audio of at least 1 s (or not a whole, readable WAV file)."""


@dataclasses.dataclass(frozen=True)
class Recognition:
    features: np.ndarray  # int8 [49, 40]
    scores: dict[str, int]
    word: str
    output: str
    # Instructions of the front end (all 49 frames) and of the classifier; emulated boards only.
    instructions: dict[str, int] = dataclasses.field(default_factory=dict)


def read_clip(path: pathlib.Path) -> np.ndarray:
    """The first second of a 16 kHz mono 16-bit WAV file, as int16 samples. The file is checked whole in
    Python (opbridge.data_files.read_wav: header, format, data all there), so the board never sees a bad clip."""
    try:
        clip = read_wav(path, sample_rate=SAMPLE_RATE, channels=1, role="file")
    except DataFileError as error:
        raise ClipError(f"cannot read the clip: {error.message}", hint=error.hint) from None
    frames = clip.samples.shape[0]
    if frames < SAMPLE_RATE:
        raise ClipError(
            f"clip {path} holds {frames} samples ({clip.seconds:.2f} s); micro_speech needs 1 s (16000 samples)",
            hint=f"pass a longer clip, or pad this one with silence, e.g. `sox {path} {path.stem}_1s.wav pad 0 "
            f"{(SAMPLE_RATE - frames) / SAMPLE_RATE:.3f}`",
        )
    return clip.samples[:SAMPLE_RATE, 0].copy()


def run_program(samples: np.ndarray, platform: str = "cortex_m55") -> Recognition:
    """Runs the compiled program on `platform` with these 16000 samples."""
    program = PROGRAMS[platform]
    with tempfile.TemporaryDirectory() as directory:
        (pathlib.Path(directory) / CLIP_NAME).write_bytes(samples.astype("<i2").tobytes())
        if platform in EMULATORS:
            command = [str(RUNNER), EMULATORS[platform], str(TIMEOUT_SECONDS), str(program)]
        else:
            command = [str(program)]
        try:
            # run_emulated.sh has its own timeout; this one guards the native program.
            # Exact instruction counts on the boards: QEMU's -icount (toolchains/run_emulated.sh).
            environment = {**os.environ, "OPBRIDGE_COUNT_INSTRUCTIONS": "1"}
            result = subprocess.run(
                command,
                capture_output=True,
                text=True,
                check=False,
                cwd=directory,
                timeout=TIMEOUT_SECONDS + 30,
                env=environment,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise RuntimeError(f"cannot run {program} on {platform}: {error}") from None
    if result.returncode != 0:
        raise RuntimeError(
            f"the micro_speech program failed on {platform} (status {result.returncode}):\n"
            f"{result.stdout}{result.stderr}"
        )
    features, scores, word, instructions = [], {}, "", {}
    for line in result.stdout.splitlines():
        if line.startswith("instructions:"):
            parts = line.split(":", 1)[1].replace("front end", "front_end").replace(",", " ").split()
            instructions = {parts[i]: int(parts[i + 1]) for i in range(0, len(parts) - 1, 2)}
        if line.startswith("features"):
            features.append([int(value) for value in line.split(":", 1)[1].split()])
        elif line.startswith("scores:"):
            scores = {label: int(value) for label, value in (item.split("=") for item in line.split()[1:])}
        elif line.startswith("word:"):
            word = line.split()[1]
    return Recognition(np.array(features, dtype=np.int8), scores, word, result.stdout, instructions)


def instruction_lines(instructions: dict[str, int], platform: str, mode: str) -> list[str]:
    """The run's instructions: in all, per front end frame and per classification, and per second of audio
    (49 frames and one classification) as a share of a typical part's clock."""
    front, classifier = instructions["front_end"], instructions["classifier"]
    clock = ESTIMATE_CLOCK_HZ[platform]
    build = BUILDS.get(mode, "this build")
    per_second = front + classifier
    return [
        f"instructions: {per_second} (front end {front} for {FRAMES} frames, classifier {classifier}), {build}",
        f"  front end: {front / FRAMES:,.0f} a frame (30 ms of audio, every 20 ms); classifier: {classifier:,} an "
        "inference",
        f"  1 s of audio ({FRAMES} frames and one inference): {per_second:,} instructions, about "
        f"{per_second / clock * 1000:.1f} ms, {100 * per_second / clock:.1f}% of a {platform.replace('_', '-')} at "
        f"{clock // 1_000_000} MHz if each took one cycle (an estimate: QEMU counts instructions, not cycles)",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("wav", nargs="?", type=pathlib.Path, help="16 kHz mono 16-bit WAV (default: yes_1000ms.wav)")
    parser.add_argument("--platform", choices=sorted(PROGRAMS), default="cortex_m55")
    # Set by the BUILD rule from Bazel's -c: the instructions depend on the build.
    parser.add_argument("--compilation-mode", default="", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    clip = arguments.wav or DEFAULT_CLIP
    if arguments.wav is not None and not clip.is_absolute() and "BUILD_WORKING_DIRECTORY" in os.environ:
        clip = pathlib.Path(os.environ["BUILD_WORKING_DIRECTORY"]) / clip  # bazel run starts us elsewhere
    print(__doc__.split("\n\n")[1].replace("\n", " ").strip(), "\n")
    try:
        recognition = run_program(read_clip(clip), arguments.platform)
    except ClipError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RuntimeError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    print(f"clip: {clip.name} on {arguments.platform}")
    print(f"word: {recognition.word}")
    print("scores: " + ", ".join(f"{label} {score}" for label, score in recognition.scores.items()))
    plans = {name: json.loads(path.read_text()) for name, path in PLANS.items()}
    print(
        f"arena: {sum(p['arena_bytes'] for p in plans.values())} bytes "
        f"(front end {plans['frontend']['arena_bytes']}, classifier {plans['micro_speech']['arena_bytes']})"
    )
    if recognition.instructions:
        print("\n".join(instruction_lines(recognition.instructions, arguments.platform, arguments.compilation_mode)))
    if arguments.platform.startswith("cortex_m"):
        program = PROGRAMS[arguments.platform]
        front, classifier = flash_breakdown(program, "frontend"), flash_breakdown(program, "micro_speech")
        # Kernels are shared: count them once (both breakdowns see every opbridge_* symbol).
        total = front.kernels + front.module_code + front.constants + classifier.module_code + classifier.constants
        print(
            f"flash: {total} bytes = kernels {front.kernels} + front end {front.module_code + front.constants} "
            f"+ classifier {classifier.module_code + classifier.constants} ({arguments.platform}, from the ELF)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
