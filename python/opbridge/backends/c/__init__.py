# SPDX-License-Identifier: Apache-2.0
"""The C backend: a memory plan and a stand-alone C module for a Graph."""
