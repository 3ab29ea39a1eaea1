# SPDX-License-Identifier: Apache-2.0
"""Reading TFLM's Signal custom options: a flexbuffer map of typed values.

Shared by the operators' attributes classes. Every failure is a ValueError
naming the operator and the key, whatever the bytes are (the flexbuffers
runtime raises struct.error, IndexError, ... on damaged input).
"""

from flatbuffers import flexbuffers

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def option_map(custom_code: str, data: bytes) -> dict[str, object]:
    """The options as a dict; empty bytes are not a map."""
    try:
        root = flexbuffers.Loads(bytes(data))
    except Exception as error:  # the flexbuffers runtime raises assorted errors on damaged bytes
        raise ValueError(
            f"{custom_code}: custom options are not a flexbuffer: {type(error).__name__}: {error}"
        ) from None
    if not isinstance(root, dict):
        raise ValueError(f"{custom_code}: custom options must be a flexbuffer map, got {type(root).__name__}")
    return root


def reject_unexpected_keys(custom_code: str, options: dict[str, object], expected: set[str]) -> None:
    # TFLM reads the map's values by position (keys sorted), so an extra key
    # would shift what TFLM sees while opbridge reads by name.
    unexpected = sorted(set(options) - expected)
    if unexpected:
        raise ValueError(f"{custom_code}: unexpected option key(s) {unexpected}; expected {sorted(expected)}")


def int32_option(custom_code: str, options: dict[str, object], key: str) -> int:
    if key not in options:
        raise ValueError(f"{custom_code}: option '{key}' is missing")
    value = options[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{custom_code}: option '{key}' must be an integer, got {type(value).__name__}")
    if not INT32_MIN <= value <= INT32_MAX:
        raise ValueError(f"{custom_code}: option '{key}' = {value} does not fit in int32")
    return value


def bool_option(custom_code: str, options: dict[str, object], key: str) -> bool:
    if key not in options:
        raise ValueError(f"{custom_code}: option '{key}' is missing")
    value = options[key]
    if not isinstance(value, int):  # TFLM reads any integer as a bool (nonzero is true); bool is an int
        raise ValueError(f"{custom_code}: option '{key}' must be a bool, got {type(value).__name__}")
    return bool(value)
