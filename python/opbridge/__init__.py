# SPDX-License-Identifier: Apache-2.0
"""opbridge: define a custom operator once, from model import to Cortex-M C.

    from opbridge.converter import AotConverter, ConvertArgs

Packages, lowest layer first (docs/architecture.md has the map): `ir`
(tensors, nodes, graphs), `schemas`, `ops` (the operator contract, and one
folder per operator: schema, reference, importers, C emitter),
`frontends` (LiteRT, ONNX), `backends.reference` (the NumPy reference
interpreter), `backends.host_plugins` (native plugins, host only),
`backends.c` (memory planner and C emitter), `cli` (the `opbridge`
command); `plugin_api` is the plugin API in one import.
"""

__version__ = "0.1.0"
