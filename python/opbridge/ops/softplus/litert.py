# SPDX-License-Identifier: Apache-2.0
"""SOFTPLUS: no LiteRT importer. LiteRT's schema has no SOFTPLUS builtin operator, so the operator comes
only from ONNX; a definition whose builtin code is None registers no LiteRT parser (the file exists so
that every operator folder has the same files)."""

LITERT_CODE = None
