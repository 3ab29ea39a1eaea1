# SPDX-License-Identifier: Apache-2.0
"""The NumPy reference interpreter: the golden model of every other backend."""

from opbridge.backends.reference.interpreter import ReferenceInterpreter

__all__ = ["ReferenceInterpreter"]
