# SPDX-License-Identifier: Apache-2.0
"""Each operator's `c_kernels` are where its kernels are: every opbridge_* function the C emitted for the
operator's seeded graph calls is defined in the kernel files its definition names (compiled with the host
gcc, read with nm), and those files are among what aot_model links (this test's data is
//cc/kernels:linked_sources). A kernel moved to another file, or a new kernel file not named, fails here."""

import pathlib
import re
import subprocess
import tempfile

import pytest
from kernel_cases import REGISTRY, operator_graph, registry_operators
from opbridge.aot.compile import compile_graph
from opbridge.backends.c.emitter import shortened_prefix
from opbridge_testing.host_build import KernelSet, kernel_objects

KERNELS = pathlib.Path("cc/kernels")
# What every kernel may call besides its own file: the fixed-point helpers (//cc/kernels:fixed_point) and
# gemmlowp's (linked with every kernel set).
SUPPORT = ("opbridge_fixed_point.c", "opbridge_gemmlowp.c")
CALL = re.compile(r"\b(opbridge_[a-z0-9_]+)\s*\(")


def defined_functions(sources: list[pathlib.Path]) -> set[str]:
    """The global functions the kernel files define (compiled once per process, as the op tests do)."""
    defined: set[str] = set()
    for obj in kernel_objects(KernelSet(pathlib.Path("."), tuple(sources))):
        listed = subprocess.run(["nm", "--defined-only", "-g", str(obj)], check=True, capture_output=True, text=True)
        defined |= {line.split()[-1] for line in listed.stdout.splitlines() if line.strip()}
    return defined


def called_kernels(module: pathlib.Path, prefix: str) -> set[str]:
    """The opbridge_* functions the nodes' code calls (the module's own source calls the nodes, and
    in benchmark builds the per-node timer the program defines)."""
    calls = set()
    for source in (module / "src").glob(f"{prefix}_node_*.c"):
        calls |= {name for name in CALL.findall(source.read_text()) if not name.startswith(prefix)}
    return calls


@pytest.mark.parametrize("op_type", [o for o in registry_operators() if REGISTRY[o].emit_c is not None])
def test_called_kernels_are_defined_in_the_named_files(op_type: str) -> None:
    definition = REGISTRY[op_type]
    missing_files = [name for name in definition.c_kernels if not (KERNELS / name).is_file()]
    assert not missing_files, f"{op_type} names kernel files aot_model does not link: {missing_files}"
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = pathlib.Path(scratch_name)
        prefix = shortened_prefix(f"check_{op_type.lower()}")
        compile_graph(operator_graph(op_type), REGISTRY, prefix, scratch / "module", bundle_kernels=False)
        called = called_kernels(scratch / "module", prefix)
        support = [KERNELS / name for name in SUPPORT if (KERNELS / name).is_file()]
        defined = defined_functions([KERNELS / name for name in definition.c_kernels] + support)
    undefined = sorted(called - defined)
    assert not undefined, (
        f"{op_type}'s C calls {undefined}, which its c_kernels {list(definition.c_kernels)} do not define: "
        "name the kernel's file in the definition (ops/<op>/__init__.py, c_kernels=)"
    )
