# SPDX-License-Identifier: Apache-2.0
"""Instruction benchmark: one inference of each model's module on the emulated Cortex-M55.

    bazel run -c opt //tests/benchmarks:cycles

Runs cycles_main.c (one <prefix>_run after init, inputs zero) under
`qemu-system-arm -M mps3-an547 -icount shift=5`, where SysTick on the 32 MHz
CPU clock gives instructions = ticks x 31.25 / 32 (deterministic to a few
instructions; QEMU counts instructions, not cycles: no MVE beats or wait
states). Flash is split into kernels, module code and constants from the
ELF's symbols. Reference figures of TFLite Micro with CMSIS-NN Helium
kernels and heliaAOT are quoted from issue 3 (measured there at -O2).
"""

import pathlib
import re
import subprocess
import sys

from opbridge.backends.c.flash import flash_breakdown

RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
TIMEOUT_SECONDS = 600
# model -> (TFLM + CMSIS-NN Helium, heliaAOT generic kernels), instructions, quoted from issue 3.
QUOTED = {"kws": (1815403, 1783777), "resnet": (4911854, 4425270), "ad01": (150150, 64094)}
MODELS = ["kws", "resnet", "ad01", "micro_speech", "hello_world"]


def instructions(program: pathlib.Path) -> tuple[int, int]:
    result = subprocess.run(
        [
            "qemu-system-arm",
            "-M",
            "mps3-an547",
            "-cpu",
            "cortex-m55",
            "-icount",
            "shift=5",
            "-nographic",
            "-monitor",
            "none",
            "-serial",
            "null",
            "-semihosting-config",
            "enable=on,target=native",
            "-kernel",
            str(program),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    found = dict(re.findall(r"^(ticks_\w+)=(\d+)$", result.stdout, re.MULTILINE))
    if result.returncode != 0 or "ticks_run" not in found:
        raise RuntimeError(f"{program} failed ({result.returncode}): {result.stdout}{result.stderr}")
    to_instructions = 31.25 / 32
    return round(int(found["ticks_run"]) * to_instructions), round(int(found["ticks_empty"]) * to_instructions)


def main(argv: list[str]) -> int:
    mode = next((arg.split("=", 1)[1] for arg in argv if arg.startswith("--compilation-mode=")), "?")
    print(__doc__.split("\n\n")[2].replace("\n", " "), "\n")
    print(f"compilation mode: {mode} (fastbuild is -O1, opt is -O2)\n")
    header = (
        f"{'model':<14}{'instructions':>13}{'TFLM+CMSIS-NN':>15}{'heliaAOT':>10}   "
        f"{'flash':>7} = {'kernels':>7} + {'module':>7} + {'constants':>9}"
    )
    print(header)
    print("-" * len(header))
    for model in MODELS:
        program = RUNFILES_ROOT / "tests" / "benchmarks" / f"{model}_cycles_cortex_m55"
        run, empty = instructions(program)
        flash = flash_breakdown(program, model)
        tflm, heliaaot = QUOTED.get(model, ("", ""))
        print(
            f"{model:<14}{run:>13}{tflm!s:>15}{heliaaot!s:>10}   "
            f"{flash.total:>7} = {flash.kernels:>7} + {flash.module_code:>7} + {flash.constants:>9}"
        )
    print(f"\ninstructions include the timer reads around the call (an empty timed region: {empty})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
