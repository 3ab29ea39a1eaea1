"""opbridge: define a custom operator once, from model import to Cortex-M C.

The compiler (IR, frontends, reference interpreter, memory planner, C
emitter) lands here from milestone 2 on; see the project's DESIGN.md.
"""

__version__ = "0.1.0"
