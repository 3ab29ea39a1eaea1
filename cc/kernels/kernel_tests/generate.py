# SPDX-License-Identifier: Apache-2.0
"""Writes the per-kernel golden tests: for each operator, a C module of its seeded graph and a golden test program.

    generate.py --output-dir DIR --operators add,conv_2d,...

writes DIR/<op>_module/ (the emitted module, kernels not bundled: Bazel
links //cc/kernels) and DIR/<op>_golden_test.c (the golden program: seeded
inputs, the NumPy reference's outputs, float32 within the golden ULP
tolerance). toolchains/kernel_golden_test.bzl runs it once for all
operators at build time.

    generate.py --output-dir DIR --forms conv_2d_folded,fully_connected_folded,...

does the same for the folded kernel forms' differential tests: DIR/<form>_module/
and DIR/<form>_golden_test.c, of the hypothesis-drawn graphs of form_cases.py
(failing unless every node's emitted C calls the form's kernel).

    generate.py --write-operator-list cc/kernels/kernel_tests/operators.bzl

rewrites the list of operators Bazel makes targets for: those whose folders have a
kernel_cases.py naming them, in the registry's order (kernel_cases_test.py fails while the
checked-in list differs). Under
`bazel run`, relative paths are relative to the workspace.
"""

import argparse
import os
import pathlib
import re
import sys

from form_cases import FORMS, form_graph
from kernel_cases import NODES_PER_PATH, operator_graph, operator_seed, operator_target_name, tested_operators
from opbridge.aot.compile import compile_graph
from opbridge.backends.c.emitter import shortened_prefix
from opbridge.backends.c.golden import golden_test_source
from opbridge.ops.builtin import build_builtin_registry

# Seeded input cases per golden program (each run with the module's arena and a caller's).
GOLDEN_CASES = 4
GOLDEN_SEED = 1
# C prefix of an operator's module: test_add.h, test_add_run(), TEST_ADD_ARENA_BYTES; cut to the 32
# characters a prefix may have (test_unidirectional_sequence_lst).
PREFIX = "test_{name}"


def module_prefix(name: str) -> str:
    return shortened_prefix(PREFIX.format(name=name))


OPERATOR_LIST_HEADER = '''# SPDX-License-Identifier: Apache-2.0
"""The operators that get a per-kernel golden test (//cc/kernels:<name>_kernel_test).

Generated from the operator folders' kernel_cases.py (python/opbridge/ops/<op>/kernel_cases.py) by
    bazel run //cc/kernels:kernel_golden_generator -- --write-operator-list cc/kernels/kernel_tests/operators.bzl
Do not edit; //cc/kernels:kernel_cases_test fails while this list differs from them.
"""

'''


def operator_list_source() -> str:
    """operators.bzl as the operator folders' kernel_cases.py give it (in the registry's order)."""
    names = "".join(f'    "{operator_target_name(op_type)}",\n' for op_type in tested_operators())
    return f"{OPERATOR_LIST_HEADER}KERNEL_TEST_OPERATORS = [\n{names}]\n"


def write_golden_test(op_type: str, output_dir: pathlib.Path) -> None:
    registry = build_builtin_registry()
    name = operator_target_name(op_type)
    prefix = module_prefix(name)
    graph = operator_graph(op_type)
    compile_graph(graph, registry, prefix, output_dir / f"{name}_module", bundle_kernels=False, cmake_lists=False)
    source = golden_test_source(graph, registry, prefix, GOLDEN_CASES, GOLDEN_SEED)
    stamp = (
        f"/* Per-kernel golden test of {op_type}: {len(graph.nodes)} nodes ({NODES_PER_PATH} per dtype path) "
        f"drawn by cc/kernels/kernel_tests/kernel_cases.py, seed {operator_seed(op_type)}. */\n"
    )
    (output_dir / f"{name}_golden_test.c").write_text(stamp + source)


def write_form_test(name: str, output_dir: pathlib.Path) -> None:
    registry = build_builtin_registry()
    form = FORMS[name]
    prefix = module_prefix(name)
    graph = form_graph(name)
    _, module = compile_graph(
        graph, registry, prefix, output_dir / f"{name}_module", bundle_kernels=False, cmake_lists=False
    )
    emitted = "".join((module.directory / f).read_text() for f in module.files if f.endswith(".c"))
    # The form's entry points: its kernel and the shape-specialised ones (<kernel>_patch, ...).
    calls = len(re.findall(rf"\b{form.kernel}\w*\(", emitted))
    if calls != len(graph.nodes):
        raise RuntimeError(
            f"{name}: {calls} of {len(graph.nodes)} nodes call {form.kernel}*; "
            "every node of cc/kernels/kernel_tests/form_cases.py must take the folded form"
        )
    source = golden_test_source(graph, registry, prefix, GOLDEN_CASES, GOLDEN_SEED)
    stamp = (
        f"/* Differential test of the folded form {form.kernel}: {len(graph.nodes)} {form.op_type} nodes "
        "drawn with hypothesis by cc/kernels/kernel_tests/form_cases.py. */\n"
    )
    (output_dir / f"{name}_golden_test.c").write_text(stamp + source)


def workspace_path(path: pathlib.Path) -> pathlib.Path:
    """`path` relative to the workspace under `bazel run` (whose working directory is the runfiles tree)."""
    workspace = os.environ.get("BUILD_WORKSPACE_DIRECTORY")
    return pathlib.Path(workspace) / path if workspace and not path.is_absolute() else path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--output-dir", type=pathlib.Path, help="where to write <op>_module/ and <op>_golden_test.c")
    parser.add_argument("--operators", default="", help="comma-separated operator names (add,conv_2d,...)")
    parser.add_argument("--forms", default="", help="comma-separated folded forms (conv_2d_folded,...)")
    parser.add_argument("--write-operator-list", type=pathlib.Path, metavar="BZL", help="rewrite operators.bzl")
    arguments = parser.parse_args(argv)
    if arguments.write_operator_list is not None:
        workspace_path(arguments.write_operator_list).write_text(operator_list_source())
        return 0
    if arguments.output_dir is None:
        parser.error("--output-dir is required (or --write-operator-list)")
    by_name = {operator_target_name(op_type): op_type for op_type in tested_operators()}
    names = [name for name in arguments.operators.split(",") if name]
    unknown = sorted(set(names) - set(by_name))
    if unknown:
        parser.error(
            f"unknown operators {unknown}; the operator folders' kernel_cases.py have {sorted(by_name)} "
            "(regenerate cc/kernels/kernel_tests/operators.bzl with --write-operator-list)"
        )
    forms = [name for name in arguments.forms.split(",") if name]
    unknown_forms = sorted(set(forms) - set(FORMS))
    if unknown_forms:
        parser.error(f"unknown forms {unknown_forms}; form_cases.py has {sorted(FORMS)}")
    output_dir = workspace_path(arguments.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        write_golden_test(by_name[name], output_dir)
    for name in forms:
        write_form_test(name, output_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
