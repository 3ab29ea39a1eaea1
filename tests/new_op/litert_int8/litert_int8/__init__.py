# SPDX-License-Identifier: Apache-2.0
"""The LitertInt8 plugin: litert_int8.plugin."""
