# SPDX-License-Identifier: Apache-2.0
"""Operator schemas, opset domains and schema selection (see docs/schemas.md)."""
