# SPDX-License-Identifier: Apache-2.0
"""bool_flag: a boolean build setting (`--//pkg:name`, `--no//pkg:name`), read by config_setting(flag_values)."""

def _bool_flag_impl(_ctx):
    return []

bool_flag = rule(
    implementation = _bool_flag_impl,
    build_setting = config.bool(flag = True),
    doc = "A command-line boolean; select() on it through config_setting(flag_values = {label: \"true\"}).",
)
