# SPDX-License-Identifier: Apache-2.0
"""CONV_2D on drawn shapes, strides, dilations, paddings and fused activations: reference == TFLite Micro, C kernel
== reference. int8 (per-tensor or per-channel filters; TFLite's requantization, and ONNX's in C) and float32
(bit for bit, edge values included).
The tests are CONV_2D's and DEPTHWISE_CONV_2D's alike: opbridge_testing/conv_tests.py."""

from opbridge_testing.conv_tests import conv_tests

(
    test_reference_matches_tflite_micro,
    test_c_kernel_matches_reference,
    test_onnx_requantization_c_kernel_matches_reference,
    test_float32_reference_matches_tflite_micro,
    test_float32_reference_matches_tflite_micro_at_the_edges,
    test_float32_c_kernel_equals_reference,
) = conv_tests("CONV_2D")
