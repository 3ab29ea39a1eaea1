# SPDX-License-Identifier: Apache-2.0
"""Writes the MobileNet-v1 test model (opbridge_testing.mobilenet) to the path given."""

import sys

from opbridge_testing.mobilenet import main

if __name__ == "__main__":
    sys.exit(main())
