# SPDX-License-Identifier: Apache-2.0
"""Kernel objects are compiled once per process and per kernel contents; errors say what did not compile."""

import os
import pathlib
import subprocess
import sys

import pytest

from opbridge_testing.host_build import CompileError, KernelSet, build_program, kernel_objects

LIBRARY_HEADER = "int twice(int value);\n"
LIBRARY_SOURCE = '#include "lib/twice.h"\nint twice(int value) { return 2 * value; }\n'
PROGRAM = '#include <stdio.h>\n#include "lib/twice.h"\nint main(void) { printf("%d\\n", twice(21)); return 0; }\n'


def kernel_tree(root: pathlib.Path, source: str = LIBRARY_SOURCE) -> KernelSet:
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "twice.h").write_text(LIBRARY_HEADER)
    (root / "lib" / "twice.c").write_text(source)
    return KernelSet(root, (pathlib.Path("lib/twice.c"),))


def run(program: pathlib.Path) -> str:
    return subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout


def test_a_program_links_the_compiled_kernels(tmp_path: pathlib.Path) -> None:
    kernels = kernel_tree(tmp_path / "kernels")
    (tmp_path / "main.c").write_text(PROGRAM)
    program = build_program([tmp_path / "main.c"], [kernels.root], [kernels], tmp_path / "main")
    assert run(program) == "42\n"


def test_kernels_are_compiled_once_per_contents(tmp_path: pathlib.Path) -> None:
    first = kernel_objects(kernel_tree(tmp_path / "first"))
    modified = {path: path.stat().st_mtime_ns for path in first}
    # The same files in another folder (a bundled copy): the same objects, not compiled again.
    assert kernel_objects(kernel_tree(tmp_path / "copy")) == first
    assert {path: path.stat().st_mtime_ns for path in first} == modified
    # An edited kernel is compiled again.
    edited = kernel_objects(kernel_tree(tmp_path / "edited", LIBRARY_SOURCE.replace("2 *", "3 *")))
    assert edited != first


def test_other_flags_compile_again(tmp_path: pathlib.Path) -> None:
    kernels = kernel_tree(tmp_path / "kernels")
    assert kernel_objects(kernels, flags=["-std=c99", "-O0"]) != kernel_objects(kernels, flags=["-std=c99", "-O1"])


def test_a_kernel_that_does_not_compile_is_named_with_the_compiler_output(tmp_path: pathlib.Path) -> None:
    kernels = kernel_tree(tmp_path / "kernels", LIBRARY_SOURCE + "int unused(int x) { int y; return x; }\n")
    (tmp_path / "main.c").write_text(PROGRAM)
    for _ in range(2):  # reported again from the cache
        with pytest.raises(CompileError, match="the kernels do not compile") as error:
            build_program([tmp_path / "main.c"], [kernels.root], [kernels], tmp_path / "main")
        assert "twice.c" in str(error.value) and "unused variable" in str(error.value)


def test_a_program_that_does_not_compile_is_reported_with_the_compiler_output(tmp_path: pathlib.Path) -> None:
    kernels = kernel_tree(tmp_path / "kernels")
    (tmp_path / "main.c").write_text(PROGRAM.replace("twice(21)", "twice(21, 1)"))
    with pytest.raises(CompileError, match="the emitted module does not compile") as error:
        build_program([tmp_path / "main.c"], [kernels.root], [kernels], tmp_path / "main")
    assert "main.c" in str(error.value) and "too many arguments" in str(error.value)


def test_the_objects_are_removed_at_exit(tmp_path: pathlib.Path) -> None:
    kernel_tree(tmp_path / "kernels")
    script = (
        "import pathlib, sys\n"
        "from opbridge_testing.host_build import KernelSet, kernel_objects\n"
        "root = pathlib.Path(sys.argv[1])\n"
        "print(kernel_objects(KernelSet(root, (pathlib.Path('lib/twice.c'),)))[0])\n"
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    ran = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "kernels")],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    object_file = pathlib.Path(ran.stdout.strip())
    assert object_file.name.endswith("twice.o")
    assert not object_file.parent.parent.exists()
