# SPDX-License-Identifier: Apache-2.0
"""The Cortex-M55 toolchain builds for Helium (MVE) and the M4 one does not."""

import subprocess

# Runfiles paths of the smoke test's ELFs (data of this test).
M55_ELF = "tests/toolchains/smoke_test_cortex_m55_elf"
M4_ELF = "tests/toolchains/smoke_test_cortex_m4_elf"


def build_attributes(elf: str) -> str:
    return subprocess.run(["arm-none-eabi-readelf", "-A", elf], capture_output=True, text=True, check=True).stdout


def test_m55_elf_has_mve_integer_and_float() -> None:
    attributes = build_attributes(M55_ELF)
    assert 'Tag_CPU_name: "cortex-m55"' in attributes
    assert "Tag_MVE_arch: MVE Integer and FP" in attributes
    assert "Tag_ABI_VFP_args: VFP registers" in attributes  # -mfloat-abi=hard


def test_m4_elf_has_single_precision_fpu_and_no_mve() -> None:
    attributes = build_attributes(M4_ELF)
    assert 'Tag_CPU_name: "7E-M"' in attributes
    assert "Tag_FP_arch: VFPv4-D16" in attributes
    assert "Tag_MVE_arch" not in attributes
    assert "Tag_ABI_VFP_args: VFP registers" in attributes
