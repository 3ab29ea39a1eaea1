# SPDX-License-Identifier: Apache-2.0
"""The C backend: the node order (schedule), the memory plan (memory_plan, placement), a stand-alone C
module for a Graph (emitter, emit_context, cmake), its golden test (golden, golden_inputs) and its flash
(flash)."""
