"""Test data shared by tests, golden files and benchmarks."""
