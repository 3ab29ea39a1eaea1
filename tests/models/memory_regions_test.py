# SPDX-License-Identifier: Apache-2.0
"""Named memory regions: hello_world converted with `arena_section: .dtcm.arena`
and `constants_section: .weights` (hello_world_dtcm.yaml). Its golden
test passes on every platform (bazel test //tests/models/...); here the M55
program's symbol table shows where the linker put the arena, the weights and the golden data."""

import json
import pathlib
import re
import subprocess

PACKAGE = pathlib.Path("tests/models")
ELF = PACKAGE / "hello_world_dtcm_golden_test_cortex_m55_elf"
# platforms/boards/mps3_an547/mps3_an547.ld
DTCM = range(0x20000000, 0x20000000 + 512 * 1024)
SRAM = range(0x01000000, 0x01000000 + 2 * 1024 * 1024)


def _symbols() -> dict[str, tuple[int, int, str]]:
    """name -> (address, size, section) from arm-none-eabi-objdump's symbol table."""
    listing = subprocess.run(["arm-none-eabi-objdump", "-t", str(ELF)], capture_output=True, text=True, check=True)
    symbols = {}
    for line in listing.stdout.splitlines():
        # "20000000 l     O .dtcm<TAB>00000020 hello_world_dtcm_static_arena"
        match = re.fullmatch(r"([0-9a-f]{8}) .{7} (\S+)\t([0-9a-f]{8})\s+(?:\.hidden\s+)?(\S+)", line)
        if match:
            address, section, size, name = match.groups()
            symbols[name] = (int(address, 16), int(size, 16), section)
    return symbols


def test_the_arena_is_in_dtcm_and_the_weights_in_their_section() -> None:
    symbols = _symbols()
    plan = json.loads((PACKAGE / "hello_world_dtcm_module_plan.json").read_text())
    assert plan["arena_section"] == ".dtcm.arena" and plan["constants_section"] == ".weights"

    address, size, section = symbols["hello_world_dtcm_static_arena"]
    assert section == ".dtcm"  # the output section the board's linker script gathers .dtcm.* into
    assert address in DTCM and size == plan["arena_bytes"]
    assert symbols["__dtcm_start__"][0] <= address and address + size <= symbols["__dtcm_end__"][0]

    # Constant tensors and per-node tables (the requantization multipliers) are in
    # .weights, which the board's layout gathers with golden data into .bulk, in the 2 MiB SRAM (not ITCM).
    weights = [name for name in symbols if name.startswith("hello_world_dtcm_constant_")]
    weights.append("hello_world_dtcm_node_0_fully_connected_multipliers")
    assert len(weights) > 1, "no constant tensors in the symbol table"
    for name in weights:
        address, _, section = symbols[name]
        assert section == ".bulk" and address in SRAM, (name, hex(address), section)


def test_the_golden_data_is_in_the_large_region() -> None:
    symbols = _symbols()
    golden = [name for name in symbols if name.startswith(("golden_input_", "golden_output_"))]
    assert len(golden) == 2, golden
    for name in golden:
        address, _, section = symbols[name]
        assert section == ".bulk" and address in SRAM, (name, hex(address), section)
