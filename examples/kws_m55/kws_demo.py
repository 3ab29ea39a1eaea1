# SPDX-License-Identifier: Apache-2.0
"""opbridge's main job, end to end: a real model compiled for a Cortex-M55 and run.

Bazel has converted MLPerf Tiny's keyword-spotting model (kws_ref_model.tflite)
with opbridge into a C module, compiled it with arm-none-eabi-gcc for the
Cortex-M55 (Helium) into a program that classifies one fixed input, and this
runs that program on an emulated Arm MPS3 AN547 board (qemu-system-arm),
then reports the top class, the arena and the flash the model uses.

    ./bazelw run //examples/...
"""

import json
import pathlib
import subprocess
import sys

from opbridge.backends.c.flash import flash_breakdown

# The runfiles tree (not resolved: its entries are symlinks into the source tree).
RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
PROGRAM = RUNFILES_ROOT / "examples" / "kws_m55" / "kws_demo_cortex_m55"
PLAN = RUNFILES_ROOT / "tests" / "models" / "kws_module_plan.json"
RUNNER = RUNFILES_ROOT / "toolchains" / "run_emulated.sh"
TIMEOUT_SECONDS = 60


def main() -> int:
    print(__doc__.split("\n\n")[1].replace("\n", " ").strip(), "\n")
    result = subprocess.run(
        [str(RUNNER), "mps3-an547", str(TIMEOUT_SECONDS), str(PROGRAM)], capture_output=True, text=True, check=False
    )
    print(result.stdout.strip())
    if result.returncode != 0:
        print(result.stderr, file=sys.stderr)
        print(f"FAILED: the program exited with status {result.returncode}")
        return 1
    plan = json.loads(PLAN.read_text())
    flash = flash_breakdown(PROGRAM, "kws")
    print(f"arena: {plan['arena_bytes']} bytes (liveness lower bound {plan['lower_bound_bytes']} bytes)")
    print(
        f"flash: {flash.total} bytes = kernels {flash.kernels} + module code {flash.module_code} "
        f"+ constants {flash.constants} (Cortex-M55, from the ELF's symbol table)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
