# SPDX-License-Identifier: Apache-2.0
"""The PyTorch frontend: torch.export programs (float32 and PT2E int8) -> opbridge graphs (program.py)."""
