"""Backends that run or compile a Graph."""
