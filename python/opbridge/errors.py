# SPDX-License-Identifier: Apache-2.0
"""Typed errors for everything a user can get wrong.

Each error says where (model node, tensor or config key), what was expected,
what was found, and the fix, so the CLI can print it without a traceback.
`nearest` gives the "did you mean ...?" of a misspelt name.
"""

import difflib
from collections.abc import Iterable


def nearest(name: str, candidates: Iterable[str], *, prefix: str = "") -> str:
    """A "did you mean 'X'?" hint: the candidate closest to `name` (difflib's ratio), or "" when none is close.
    `prefix` is shown before the match (a config group, e.g. "patch_based.") but not compared."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1)
    return f"did you mean {prefix + matches[0]!r}?" if matches else ""


class OpbridgeError(Exception):
    """Base of every error opbridge raises on purpose."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(self._text())

    def _text(self) -> str:
        return f"{self.message}\n  hint: {self.hint}" if self.hint else self.message

    def add_context(self, where: str) -> None:
        """Prefixes the message with `where` (the node, tensor or key being read) unless it names it already:
        for code that catches an error raised where that was not known, and raises it again."""
        if where not in self.message:
            self.message = f"{where}: {self.message}"
            self.args = (self._text(),)


class ConfigError(OpbridgeError):
    """A conversion setting (config key, operator rule, plugin) is unknown or invalid."""


class ModelFormatError(OpbridgeError):
    """The model file is not a readable model (corrupt, truncated, wrong format)."""


class UnsupportedOperatorError(OpbridgeError):
    """The model uses operators (or operator versions) opbridge does not have."""


class UnsupportedTensorError(OpbridgeError):
    """A tensor opbridge cannot handle: dtype, dynamic shape, missing quantization."""


class InvalidInputError(OpbridgeError, ValueError):
    """Input arrays given to a model do not match its inputs (also a ValueError)."""


class PluginLoadError(OpbridgeError):
    """A native plugin library cannot be loaded, or what it registers is invalid."""


class PluginKernelError(OpbridgeError):
    """A native plugin's kernel reported an error (or failed) while creating or running."""


class OperatorPluginError(OpbridgeError):
    """A plugin's parser, operator class, transform or hook failed or broke its contract."""


class SchemaError(OpbridgeError):
    """A schema (or an opset domain) is malformed, or conflicts with what is registered."""


class ArenaBudgetError(OpbridgeError):
    """The memory plan does not fit the RAM budget (`max_arena_bytes`)."""


class DataFileError(OpbridgeError):
    """A data file (a .npy array, a .wav clip) cannot be read or written: missing, damaged or of the wrong kind."""
