# SPDX-License-Identifier: Apache-2.0
"""py_test runs on the pinned venv: the locked packages, not the system's."""

import pathlib
import sys
from importlib import metadata

import numpy
from packaging.requirements import Requirement

LOCK_FILE = pathlib.Path("third_party/python/requirements_lock.txt")


def locked_versions() -> dict[str, str]:
    """Package -> pinned version, for the pins whose markers apply here."""
    pins = {}
    for line in LOCK_FILE.read_text().splitlines():
        if not line or line[0] in "# ":
            continue
        requirement = Requirement(line.rstrip(" \\"))
        if requirement.marker is None or requirement.marker.evaluate():
            (specifier,) = requirement.specifier
            pins[requirement.name.lower()] = specifier.version
    return pins


def test_interpreter_is_pinned_python_in_a_venv() -> None:
    assert sys.version_info[:2] == (3, 11)
    assert sys.prefix != sys.base_prefix, "not running inside a venv"
    assert sys.base_prefix == "/usr", f"venv not made from Debian's python3.11: {sys.base_prefix}"


def test_numpy_comes_from_the_venv() -> None:
    numpy_path = pathlib.Path(numpy.__file__)
    assert pathlib.Path(sys.prefix) in numpy_path.parents, f"numpy imported from {numpy_path}"
    assert "dist-packages" not in numpy_path.parts
    assert numpy.__version__ == locked_versions()["numpy"]


def test_every_locked_package_is_installed_at_its_pinned_version() -> None:
    for name, version in locked_versions().items():
        assert metadata.version(name) == version, name


def test_peer_runtimes_import() -> None:
    from ai_edge_litert.interpreter import Interpreter  # noqa: F401
    from tflite_micro.python.tflite_micro import runtime  # noqa: F401
