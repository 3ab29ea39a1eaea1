# SPDX-License-Identifier: Apache-2.0
"""opbridge: define a custom operator once, from model import to Cortex-M C.

    from opbridge.converter import AotConverter, ConvertArgs

Packages, lowest layer first (docs/architecture.md has the map): `ir`
(tensors, nodes, graphs), `schemas`, `ops` (the operator contract, and one
folder per operator: schema, reference, importers, C emitter), `passes`
(graph rewrites), `frontends` (LiteRT, ONNX, PyTorch), `backends.reference`
(the NumPy reference interpreter), `backends.host_plugins` (native plugins,
host only), `backends.c` (schedule, memory planner and C emitter), `aot`
(one C emitter per node, patch-based stages), `converter` (all of it in
one call), `analysis` (`opbridge analyze`), `cli` (the `opbridge`
command); `plugin_api` is the plugin API in one import.
"""

__version__ = "0.1.0"
