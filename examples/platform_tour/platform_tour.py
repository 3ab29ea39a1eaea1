"""The platform tour: one C program, built by Bazel for four platforms and run.

Runs the requantization demo (rescale_demo.c, using opbridge's fixed-point
kernel) natively on x86_64, under qemu-aarch64, and on emulated Cortex-M55
(mps3-an547) and Cortex-M4 (mps2-an386) boards, then prints what was built
and whether every platform computed the same bits.

    ./bazelw run //examples/...
"""

import dataclasses
import pathlib
import re
import subprocess
import sys

# The runfiles tree (not resolved: its entries are symlinks into the source tree).
RUNFILES_ROOT = pathlib.Path(__file__).absolute().parents[2]
RUNNER = RUNFILES_ROOT / "toolchains" / "run_emulated.sh"


@dataclasses.dataclass(frozen=True)
class Platform:
    name: str
    label: str  # the Bazel platform the program was built for
    emulator: str | None  # None: run natively


PLATFORMS = [
    Platform("x86_64 Linux", "//platforms:x86_64_linux", None),
    Platform("aarch64 Linux", "//platforms:aarch64_linux", "qemu-aarch64"),
    Platform("Cortex-M55 (MVE)", "//platforms:cortex_m55", "mps3-an547"),
    Platform("Cortex-M4", "//platforms:cortex_m4", "mps2-an386"),
]


def program_path(platform: Platform) -> pathlib.Path:
    suffix = platform.label.split(":")[1]
    return RUNFILES_ROOT / "examples" / "platform_tour" / f"rescale_demo_{suffix}"


def describe(program: pathlib.Path) -> str:
    """'ELF 32-bit ARM, 54 KiB' and the compiler that built it."""
    kind = subprocess.run(["file", "-bL", str(program)], capture_output=True, text=True, check=False).stdout
    fields = [field.strip() for field in kind.split(",")]
    architecture = f"{fields[0].split(' LSB')[0]} {fields[1]}" if len(fields) > 1 else kind.strip()
    comment = subprocess.run(
        ["readelf", "-p", ".comment", str(program)], capture_output=True, text=True, check=False
    ).stdout
    compiler = re.search(r"GCC: \(([^)]*)\) ([0-9.]+)", comment)
    built_by = f"gcc {compiler.group(2)} ({compiler.group(1)})" if compiler else "unknown compiler"
    return f"{architecture}, {program.stat().st_size // 1024} KiB, {built_by}"


def run(platform: Platform) -> tuple[int, str]:
    program = program_path(platform)
    command = [str(program)] if platform.emulator is None else [str(RUNNER), platform.emulator, "30", str(program)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    return result.returncode, result.stdout + result.stderr


def main() -> int:
    print(__doc__.split("\n\n")[1].replace("\n", " ").strip(), "\n")
    checksums = {}
    for platform in PLATFORMS:
        status, output = run(platform)
        found = re.search(r"checksum=(0x[0-9a-f]{8})", output)
        checksum = found.group(1) if status == 0 and found else "FAILED"
        checksums[platform.name] = checksum
        where = "natively" if platform.emulator is None else f"under {platform.emulator}"
        print(f"{platform.name}: built for {platform.label}")
        print(f"    binary:   {describe(program_path(platform))}")
        print(f"    ran {where}: exit {status}, checksum {checksum}")
        if status != 0:
            print(output, file=sys.stderr)
    same = len(set(checksums.values())) == 1 and "FAILED" not in checksums.values()
    print("\nbit-exact on every platform:", "yes" if same else "NO")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
