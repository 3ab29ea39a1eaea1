# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's audio front end (the nine Signal* custom operators) as an opbridge plugin."""
