# SPDX-License-Identifier: Apache-2.0
"""Writes the two-branch test model (opbridge_testing.branches) to the path given."""

import sys

from opbridge_testing.branches import main

if __name__ == "__main__":
    sys.exit(main())
