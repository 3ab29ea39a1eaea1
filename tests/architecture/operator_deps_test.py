# SPDX-License-Identifier: Apache-2.0
"""python/opbridge/operator_deps.bzl is what tests/architecture/operator_deps.py generates from the source, and the
generator follows imports through the test helpers and reads USES_OPERATORS."""

import pathlib

import pytest

from tests.architecture import operator_deps


def test_operator_deps_bzl_is_current() -> None:
    assert operator_deps.OUTPUT.read_text() == operator_deps.render(), (
        f"{operator_deps.OUTPUT} is stale (an import between operator folders changed); "
        "rewrite it with `python3 -m tests.architecture.operator_deps --write` from the repository root"
    )


def test_a_folder_imported_by_a_library_module_is_a_dependency() -> None:
    # ops/mul imports ADD's attributes; ops/tanh shares LOGISTIC's emitter and reference.
    modules = operator_deps.all_modules()
    assert "add" in operator_deps.library_deps("mul", modules)
    assert "logistic" in operator_deps.library_deps("tanh", modules)


def test_an_op_test_needs_what_its_helpers_import() -> None:
    # ops/max_pool_2d/op_test.py imports opbridge_testing.pool_2d_tests, which imports ops/average_pool_2d.
    modules = operator_deps.all_modules()
    assert "average_pool_2d" in operator_deps.op_test_deps("max_pool_2d", modules)
    assert "max_pool_2d" not in operator_deps.op_test_deps("max_pool_2d", modules)


def test_uses_operators_is_read_and_checked(tmp_path: pathlib.Path) -> None:
    test = tmp_path / "op_test.py"
    test.write_text('USES_OPERATORS = ("quantize", "transpose")\n')
    assert operator_deps.declared_uses(test) == {"quantize", "transpose"}
    test.write_text('USES_OPERATORS = ("no_such_operator",)\n')
    with pytest.raises(SystemExit, match="no_such_operator"):
        operator_deps.declared_uses(test)
    test.write_text('USES_OPERATORS = ["quantize"]\n')
    with pytest.raises(SystemExit, match="tuple"):
        operator_deps.declared_uses(test)
