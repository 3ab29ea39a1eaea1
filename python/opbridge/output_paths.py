# SPDX-License-Identifier: Apache-2.0
"""The paths a conversion writes (output_dir, plan_json, golden_test): checked before anything is written.

A path that cannot be written (an existing file where a directory is
expected, a folder under a file, a folder the user cannot write) is a
ConfigError naming the setting, the path and the fix, instead of an OSError
traceback after the module has been half written. What the checks cannot
foresee (a read-only file system seen by root, a full disk) is reported the
same way by `writing_to`.
"""

import contextlib
import os
import pathlib
from collections.abc import Iterator

from opbridge.errors import ConfigError


def check_output_directory(directory: pathlib.Path, setting: str, flag: str) -> None:
    """Raises ConfigError unless `directory` is a writable directory or can be created.

    `setting` and `flag` name it for the user: the config key and the command-line option.
    """
    where = _where(directory, setting, flag)
    if _exists(directory):
        if not directory.is_dir():
            raise ConfigError(
                f"{where} is an existing file; expected a directory (new or existing)",
                hint=f"pass {flag} a directory (it is created if missing), or move the file {directory} away",
            )
        _check_writable(directory, where, flag)
    # The module is written beside the directory first, then moved into it.
    _check_creatable(directory, where, flag, "a directory")


def check_output_file(path: pathlib.Path, setting: str, flag: str, example_name: str) -> None:
    """Raises ConfigError unless the file `path` can be written (created, or replaced)."""
    where = _where(path, setting, flag)
    if _exists(path):
        if path.is_dir():
            raise ConfigError(
                f"{where} is an existing directory; expected a file path",
                hint=f"pass {flag} a file path, e.g. {path / example_name}",
            )
        if not os.access(path, os.W_OK):
            raise ConfigError(
                f"{where} cannot be replaced: the file is not writable",
                hint=f"pass {flag} another path, or make the file writable (chmod u+w {path})",
            )
    _check_creatable(path, where, flag, "a file path")


@contextlib.contextmanager
def writing_to(path: pathlib.Path, setting: str, flag: str) -> Iterator[None]:
    """Turns an OSError raised while writing `path` into a ConfigError naming the setting."""
    try:
        yield
    except OSError as error:
        failed = f" ({error.filename})" if error.filename else ""
        raise ConfigError(
            f"{_where(path, setting, flag)} cannot be written: {error.strerror or error}{failed}",
            hint=f"pass {flag} a path on a file system you can write to, with free space",
        ) from None


def _where(path: pathlib.Path, setting: str, flag: str) -> str:
    return f"{setting} ({flag}) {path}"


def _exists(path: pathlib.Path) -> bool:
    return path.exists() or path.is_symlink()


def _check_creatable(path: pathlib.Path, where: str, flag: str, expected: str) -> None:
    """The nearest existing folder above `path` is a directory the user can write into."""
    ancestor = next((p for p in (path.parent, *path.parent.parents) if _exists(p)), None)
    if ancestor is None:
        return  # not even the root or the working directory exists: writing_to reports what the OS says
    if not ancestor.is_dir():
        raise ConfigError(
            f"{where} cannot be created: {ancestor} is a file, not a directory; expected {expected} "
            "whose existing parts are directories",
            hint=f"pass {flag} a path that is not under the file {ancestor}, or move that file away",
        )
    _check_writable(ancestor, where, flag)


def _check_writable(directory: pathlib.Path, where: str, flag: str) -> None:
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConfigError(
            f"{where} cannot be written: the directory {directory} is not writable",
            hint=f"pass {flag} a directory you can write to, or make it writable (chmod u+wx {directory})",
        )
