# SPDX-License-Identifier: Apache-2.0
"""TFLM's nine Signal operators: opbridge_signal folder -> customCode.

Loaded by examples/micro_speech/BUILD.bazel (their tests and single-operator
models) and tests/examples/BUILD.bazel (which runs those manual tests).
"""

SIGNAL_OPERATORS = {
    "window": "SignalWindow",
    "fft_auto_scale": "SignalFftAutoScale",
    "rfft": "SignalRfft",
    "energy": "SignalEnergy",
    "filter_bank": "SignalFilterBank",
    "filter_bank_square_root": "SignalFilterBankSquareRoot",
    "filter_bank_spectral_subtraction": "SignalFilterBankSpectralSubtraction",
    "pcan": "SignalPCAN",
    "filter_bank_log": "SignalFilterBankLog",
}
