"""Fixed-point arithmetic and quantization parameters of TFLite's int8 kernels."""
