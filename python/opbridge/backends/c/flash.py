# SPDX-License-Identifier: Apache-2.0
"""Flash used by an emitted module in a Cortex-M ELF, from its symbol table.

Every symbol the emitter defines starts with the module's prefix (constants
are `<prefix>_constant_*`), and every kernel symbol starts with
`opbridge_`, so `arm-none-eabi-nm` sizes split the model's flash into
kernels, module code (node functions and their parameters) and constants.
A plugin's kernels have names of their own (e.g. `channel_shuffle_kernel`):
name their prefixes in `kernel_prefixes` to count them as kernels.
"""

import dataclasses
import pathlib
import subprocess
from collections.abc import Sequence

NM = "arm-none-eabi-nm"
FLASH_SYMBOL_TYPES = set("TtRr")  # code and read-only data


@dataclasses.dataclass(frozen=True)
class FlashBreakdown:
    kernels: int
    module_code: int
    constants: int

    @property
    def total(self) -> int:
        return self.kernels + self.module_code + self.constants


def flash_breakdown(elf: pathlib.Path, prefix: str, kernel_prefixes: Sequence[str] = ()) -> FlashBreakdown:
    listing = subprocess.run(
        [NM, "--print-size", "--size-sort", str(elf)], capture_output=True, text=True, check=True
    ).stdout
    kernels = module_code = constants = 0
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) != 4 or fields[2] not in FLASH_SYMBOL_TYPES:
            continue
        size, name = int(fields[1], 16), fields[3]
        if name.startswith(f"{prefix}_constant_"):
            constants += size
        elif name.startswith(f"{prefix}_"):
            module_code += size
        elif _is_kernel(name, kernel_prefixes):
            kernels += size
    return FlashBreakdown(kernels=kernels, module_code=module_code, constants=constants)


def _is_kernel(name: str, kernel_prefixes: Sequence[str]) -> bool:
    """opbridge's kernels (not the board's opbridge_* symbols), and the plugins' named by prefix."""
    if name.startswith("opbridge_"):
        return not name.startswith("opbridge_board") and name not in BOARD_SYMBOLS
    return name.startswith(tuple(kernel_prefixes))


# Board support (platforms/boards) defines opbridge_* symbols that are not kernels.
BOARD_SYMBOLS = frozenset(
    {
        "opbridge_reset_handler",
        "opbridge_fault_handler",
        "opbridge_default_handler",
        "opbridge_report_fault",
        "opbridge_vector_table",
    }
)
