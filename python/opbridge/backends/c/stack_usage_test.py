# SPDX-License-Identifier: Apache-2.0
"""The stack analysis on small programs compiled by arm-none-eabi-gcc: frames chained along the deepest
path, pointer tables resolved, recursion and dynamic frames reported unbounded, frames pushed by inline
assembly and library frames counted. The whole against QEMU: tests/stack."""

import pathlib
import shutil

import pytest

from opbridge.backends.c.stack_usage import ModuleSources, stack_bound

pytestmark = pytest.mark.skipif(shutil.which("arm-none-eabi-gcc") is None, reason="needs arm-none-eabi-gcc")


def _bound(tmp_path: pathlib.Path, source: str, core: str = "cortex-m4"):
    path = tmp_path / "program.c"
    path.write_text(source)
    return stack_bound(ModuleSources(groups=(((path,), (tmp_path,)),)), ("entry",), core)


def test_deepest_path_sums_frames_of_the_deeper_branch(tmp_path: pathlib.Path) -> None:
    bound = _bound(
        tmp_path,
        """
        void sink(volatile char *p);
        __attribute__((noinline)) void small(void) { volatile char b[16]; sink(b); }
        __attribute__((noinline)) void big(void) { volatile char b[400]; sink(b); }
        __attribute__((noinline)) void sink(volatile char *p) { p[0] = 1; }
        int entry(int x) { if (x) big(); else small(); return 0; }
        """,
    )
    assert bound.kind == "exact-static"
    assert [frame.function for frame in bound.path][:2] == ["entry", "big"]
    assert bound.bytes == sum(frame.bytes for frame in bound.path)
    assert bound.path[1].bytes >= 400


def test_function_pointer_table_resolves_to_the_functions_it_holds(tmp_path: pathlib.Path) -> None:
    bound = _bound(
        tmp_path,
        """
        void sink(volatile char *p);
        __attribute__((noinline)) void sink(volatile char *p) { p[0] = 1; }
        static void a(void) { volatile char b[64]; sink(b); }
        static void c(void) { volatile char b[512]; sink(b); }
        static void (*const table[2])(void) = {a, c};
        void entry(int i) { table[i & 1](); }
        """,
    )
    assert bound.kind == "exact-static", bound.reason
    assert [frame.function for frame in bound.path][:2] == ["entry", "c"]


def test_recursion_is_unbounded_and_named(tmp_path: pathlib.Path) -> None:
    bound = _bound(tmp_path, "int entry(int n) { volatile int x = n; return n > 0 ? entry(n - 1) + x : 0; }")
    assert bound.kind == "unbounded" and "recursion" in bound.reason and "entry" in bound.reason
    assert bound.bytes is None


def test_variable_length_array_is_unbounded(tmp_path: pathlib.Path) -> None:
    bound = _bound(
        tmp_path,
        "void sink(volatile char *p);\nvoid sink(volatile char *p) { p[0] = 1; }\n"
        "void entry(int n) { volatile char b[n]; sink(b); }",
    )
    assert bound.kind == "unbounded" and "dynamic frame" in bound.reason


def test_inline_assembly_pushes_and_library_calls_are_counted(tmp_path: pathlib.Path) -> None:
    bound = _bound(
        tmp_path,
        """
        #include <string.h>
        __attribute__((naked, noinline)) void pushes(void) {
          __asm__ volatile("push {r4-r11, lr}\\n sub sp, sp, #64\\n add sp, sp, #64\\n pop {r4-r11, pc}\\n");
        }
        void entry(char *d, const char *s, unsigned n) { pushes(); memmove(d, s, n); }
        """,
    )
    assert bound.kind == "exact-static", bound.reason
    frames = {frame.function: frame for frame in bound.path}
    assert "pushes" in frames and frames["pushes"].bytes == 9 * 4 + 64  # GCC itself reports 0 for naked
    # memmove's frame comes from the toolchain's library; it may be below pushes' and then not on the path.
    assert bound.bytes >= frames["entry"].bytes + 100


def test_missing_compiler_is_reported_not_raised(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    bound = _bound(tmp_path, "void entry(void) {}")
    assert bound.kind == "unavailable" and "arm-none-eabi-gcc is not on PATH" in bound.reason
