"""Model importers: each turns a model file into an opbridge Graph."""
