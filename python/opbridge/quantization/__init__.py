# SPDX-License-Identifier: Apache-2.0
"""Fixed-point arithmetic and quantization parameters of TFLite's int8 kernels."""
