"""opbridge: define a custom operator once, from model import to Cortex-M C.

    from opbridge.converter import AotConverter, ConvertArgs

Packages: `ir` (tensors, nodes, graphs), `frontends.litert` (the .tflite
reader), `ops` (one folder per operator: reference, importers, C emitter),
`backends.host` (the NumPy reference interpreter), `backends.c` (memory
planner and C emitter), `cli` (the `opbridge` command).
"""

__version__ = "0.1.0"
