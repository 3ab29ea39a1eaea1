# SPDX-License-Identifier: Apache-2.0
# The converter-made suite's models (converter_suite/<name>.tflite; tools/model_suite/README.md):
# tests/models converts and golden-tests each, tests/benchmarks measures each.
CONVERTER_SUITE = [
    "conv1d_audio",
    "ds_cnn_l",
    "ds_cnn_m",
    "ds_cnn_s",
    "fc_autoencoder",
    "fc_autoencoder_16x8",
    "mcunet_like",
    "mobilenet_v1_025_128_per_tensor",
    "mobilenet_v1_025_96_gray",
    "mobilenet_v1_025_96_rgb",
    "mobilenet_v1_050_128_gray",
    "mobilenet_v2_035_128_rgb",
    "mobilenet_v2_035_96_rgb",
    "resnet10",
    "resnet8",
]
