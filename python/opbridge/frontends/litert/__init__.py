# SPDX-License-Identifier: Apache-2.0
"""The LiteRT (.tflite) frontend."""

from opbridge.frontends.litert.reader import load_litert_model, read_litert_model

__all__ = ["load_litert_model", "read_litert_model"]
