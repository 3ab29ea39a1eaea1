# SPDX-License-Identifier: Apache-2.0
"""Pieces several operators share (numerics, operand checks, C emission); no operator of its own."""
