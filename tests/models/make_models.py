# SPDX-License-Identifier: Apache-2.0
"""Writes the models the tests build (opbridge_testing), one per path given, chosen by file name."""

import pathlib
import sys
from collections.abc import Callable

from opbridge_testing.branches import two_branches
from opbridge_testing.inverted_residual import inverted_residual
from opbridge_testing.lstm_sequence import lstm_sequence_float32, lstm_sequence_int8
from opbridge_testing.mobilenet import mobilenet_v1
from opbridge_testing.resource_variable_models import int8_accumulator, stateful_rnn, two_variables
from opbridge_testing.svdf_keyword import keyword_scrambled, svdf_keyword_float32, svdf_keyword_int8

MODELS: dict[str, Callable[[], bytes]] = {
    "mobilenet_v1_025_96.tflite": mobilenet_v1,  # alpha 0.25, 96x96x1: the defaults
    "two_branches.tflite": two_branches,
    "inverted_residual.tflite": inverted_residual,
    "svdf_keyword_int8.tflite": svdf_keyword_int8,
    "lstm_sequence_int8.tflite": lstm_sequence_int8,
    "lstm_sequence_float32.tflite": lstm_sequence_float32,
    "svdf_keyword_float32.tflite": svdf_keyword_float32,
    "stateful_rnn.tflite": stateful_rnn,
    "int8_accumulator.tflite": int8_accumulator,
    "two_variables.tflite": two_variables,
    "keyword_scrambled_int16.tflite": keyword_scrambled,  # int16 states: the default
}


def main(paths: list[str]) -> int:
    for path in map(pathlib.Path, paths):
        if path.name not in MODELS:
            raise SystemExit(f"no test model is named {path.name!r}; known: {', '.join(MODELS)}")
        path.write_bytes(MODELS[path.name]())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
