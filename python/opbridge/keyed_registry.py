# SPDX-License-Identifier: Apache-2.0
"""Registry: values by key, with where each came from (built-in or a plugin), frozen once built.

Each extension point of a conversion (operator definitions, parsers, C emitters, transforms, ...) is one
Registry; `opbridge.registry_context.RegistryContext` holds one of each."""

from collections.abc import Iterator
from typing import Generic, TypeVar

from opbridge.errors import OpbridgeError, nearest

T = TypeVar("T")


BUILTIN_ORIGIN = "builtin"


class RegistryError(OpbridgeError):
    """A registration conflicts with what is registered, or a registry is used wrongly."""


class Registry(Generic[T]):
    """Values by key, with the origin (built-in or plugin) of each. Frozen once built."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._values: dict[str, T] = {}
        self._origins: dict[str, str] = {}
        self._frozen = False
        self._origin = BUILTIN_ORIGIN  # who is registering now; set by the context

    def register(self, key: str, value: T, *, overwrite: bool = False) -> None:
        """Adds `value` under `key`; an existing key needs overwrite=True, and overwrite=True needs an existing key."""
        self._check_writable(key)
        if not isinstance(key, str) or not key:
            raise RegistryError(f"{self.name}: keys are non-empty strings, got {key!r}")
        if key in self._values and not overwrite:
            raise RegistryError(
                f"{self.name}: {key!r} is already registered (by {self._origins[key]})",
                hint="pass overwrite=True to replace it deliberately",
            )
        if overwrite and key not in self._values:
            # A misspelt key would add a new entry beside the one meant to be replaced.
            fix = "to add a new key, leave out overwrite=True"
            suggestion = nearest(key, self._values)
            raise RegistryError(
                f"{self.name}: cannot overwrite {key!r}: it is not registered",
                hint=f"{suggestion} {fix}" if suggestion else fix,
            )
        self._values[key] = value
        self._origins[key] = self._origin

    def remove(self, key: str) -> None:
        self._check_writable(key)
        if key not in self._values:
            raise RegistryError(f"{self.name}: {key!r} is not registered", hint=self._known_keys_hint(key))
        del self._values[key]
        del self._origins[key]

    def get(self, key: str) -> T | None:
        return self._values.get(key)

    def __getitem__(self, key: str) -> T:
        if key not in self._values:
            raise RegistryError(f"{self.name}: {key!r} is not registered", hint=self._known_keys_hint(key))
        return self._values[key]

    def origin(self, key: str) -> str:
        return self._origins[key]

    def keys(self) -> list[str]:
        return list(self._values)

    def items(self) -> list[tuple[str, T]]:
        return list(self._values.items())

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def frozen(self) -> bool:
        return self._frozen

    def freeze(self) -> None:
        self._frozen = True

    def _check_writable(self, key: str) -> None:
        if self._frozen:
            raise RegistryError(
                f"{self.name} is frozen; cannot change {key!r}",
                hint="register plugins through build_default_registry_context(customizers=[...])",
            )

    def _known_keys_hint(self, key: str) -> str:
        return nearest(key, self._values) or f"registered: {', '.join(sorted(self._values)) or 'nothing'}"
