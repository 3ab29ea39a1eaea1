"""Operator schemas, opset domains and schema selection (see docs/schemas.md)."""
