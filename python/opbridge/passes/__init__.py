# SPDX-License-Identifier: Apache-2.0
"""Graph passes: rewrites registered as transforms (see opbridge.transforms)."""
