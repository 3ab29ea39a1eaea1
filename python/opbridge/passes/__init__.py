"""Graph passes: rewrites registered as transforms (see opbridge.transforms)."""
