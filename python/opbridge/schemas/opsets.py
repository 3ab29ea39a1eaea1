# SPDX-License-Identifier: Apache-2.0
"""Opset domains and schema selection.

A domain (e.g. "com.example.audio") declares the versions it covers, 1..3
say. Each operator definition with a schema belongs to one domain and names
the version it appeared in (since_version). A model that imports the domain
at version v gets, for each op name, the schema with the highest
since_version not above v; no such schema is an error, never a fallback.

Domain names are unique; the built-in names (RESERVED_DOMAINS) belong to
opbridge and ONNX and cannot be registered by plugins.
"""

import dataclasses
import re
from collections.abc import Iterable

from opbridge.errors import UnsupportedOperatorError, nearest
from opbridge.keyed_registry import BUILTIN_ORIGIN, Registry
from opbridge.schemas.schema import OpSchema, SchemaError

BUILTIN_DOMAIN = "opbridge"
# ONNX's own domains ("" is ai.onnx) and opbridge's: only built-ins may use them.
RESERVED_DOMAINS = frozenset({"", "ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", BUILTIN_DOMAIN})


@dataclasses.dataclass(frozen=True)
class OpsetDomain:
    """A named set of operators and the versions of it that exist (inclusive)."""

    name: str
    min_version: int = 1
    max_version: int = 1
    doc: str = ""

    def __post_init__(self) -> None:
        for label, version in (("min_version", self.min_version), ("max_version", self.max_version)):
            if not isinstance(version, int) or isinstance(version, bool) or version < 1:
                raise SchemaError(f"opset domain {self.name!r}: {label} must be an int >= 1, got {version!r}")
        if self.min_version > self.max_version:
            raise SchemaError(
                f"opset domain {self.name!r}: min_version {self.min_version} > max_version {self.max_version}"
            )
        if self.name and not all(part.isidentifier() for part in self.name.split(".")):
            raise SchemaError(f"opset domain name {self.name!r} is not a dotted identifier", hint="e.g. com.example")


class UnknownSchemaError(UnsupportedOperatorError):
    """A node names a domain, version or operator no registered schema covers."""


class SchemaSet:
    """The schemas of a registry context, checked and indexed by (domain, name)."""

    def __init__(self, domains: Registry[OpsetDomain], schemas_by_key: Iterable[tuple[str, OpSchema | None]]) -> None:
        """`schemas_by_key`: (operator key, its schema or None) for every registered operator."""
        self.domains = {key: domains[key] for key in domains}
        self._origins = {key: domains.origin(key) for key in domains}
        self._by_name: dict[tuple[str, str], list[tuple[OpSchema, str]]] = {}
        self._by_key: dict[str, OpSchema] = {}
        for key, domain in self.domains.items():
            if key != domain.name:
                raise SchemaError(f"opset domain {domain.name!r} is registered under another name, {key!r}")
            if key in RESERVED_DOMAINS and self._origins[key] != BUILTIN_ORIGIN:
                raise SchemaError(
                    f"opset domain {key!r} is reserved (registered by {self._origins[key]})",
                    hint=f"choose a domain of your own, e.g. com.yourcompany; reserved: {sorted(RESERVED_DOMAINS)}",
                )
        for op_key, schema in schemas_by_key:
            if schema is None:
                continue
            where = f"operator {op_key!r}: schema {schema.describe()}"
            domain = self.domains.get(schema.domain)
            if domain is None:
                raise SchemaError(
                    f"{where} is in domain {schema.domain!r}, which is not registered",
                    hint=(f"{suggestion} " if (suggestion := nearest(schema.domain, self.domains)) else "")
                    + f"register it in the customizer: context.opset_domains.register({schema.domain!r}, "
                    f"OpsetDomain({schema.domain!r}, 1, N))",
                )
            if not domain.min_version <= schema.since_version <= domain.max_version:
                raise SchemaError(
                    f"{where}: since_version {schema.since_version} is outside domain {domain.name!r} "
                    f"versions {domain.min_version}..{domain.max_version}",
                    hint="raise the domain's max_version or fix since_version",
                )
            versions = self._by_name.setdefault((schema.domain, schema.name), [])
            for other, other_key in versions:
                if other.since_version == schema.since_version:
                    raise SchemaError(
                        f"{where} is defined twice (also by operator {other_key!r})",
                        hint="give the new version a higher since_version, "
                        "or replace the old one with overwrite=True under its key",
                    )
            versions.append((schema, op_key))
            versions.sort(key=lambda pair: pair[0].since_version)
            self._by_key[op_key] = schema

    def schema_of(self, op_key: str) -> OpSchema | None:
        return self._by_key.get(op_key)

    def select(self, domain: str, name: str, version: int, where: str = "") -> tuple[OpSchema, str]:
        """(schema, operator key) for `domain`.`name` in a model importing `domain` at `version`."""
        prefix = f"{where}: " if where else ""
        shown = domain or "ai.onnx"
        known = self.domains.get(domain)
        if known is None:
            suggestion = nearest(domain, self.domains)
            raise UnknownSchemaError(
                f"{prefix}domain {shown!r} is not registered",
                hint=(f"{suggestion} " if suggestion else "")
                + "register its schemas (a plugin's customize_registry, or load_schema_library) before converting",
            )
        if not known.min_version <= version <= known.max_version:
            raise UnknownSchemaError(
                f"{prefix}the model imports domain {shown!r} at version {version}; "
                f"the registered domain covers versions {known.min_version}..{known.max_version}",
                hint="register schemas for that version, or export the model at a covered opset version",
            )
        versions = self._by_name.get((domain, name))
        if not versions:
            names = sorted(n for d, n in self._by_name if d == domain)
            raise UnknownSchemaError(
                f"{prefix}domain {shown!r} has no operator {name!r}",
                hint=nearest(name, names) or f"its operators: {', '.join(names) or 'none'}",
            )
        chosen = [pair for pair in versions if pair[0].since_version <= version]
        if not chosen:
            raise UnknownSchemaError(
                f"{prefix}{shown}.{name} has no schema at version {version} "
                f"(its schemas start at version {versions[0][0].since_version})",
                hint="import the domain at a version the operator exists in",
            )
        return chosen[-1]

    def schemas(self) -> list[tuple[OpSchema, str]]:
        return [pair for versions in self._by_name.values() for pair in versions]


def schema_op_key(domain: str, name: str, since_version: int = 1) -> str:
    """The operator key of a schema registered without one of its own (e.g. from a shared library):
    com.example.copy + CopyInput -> COM_EXAMPLE_COPY_COPYINPUT (then _V2, _V3 for later versions)."""
    key = re.sub(r"\W", "_", f"{domain}_{name}").upper()
    return key if since_version == 1 else f"{key}_V{since_version}"
