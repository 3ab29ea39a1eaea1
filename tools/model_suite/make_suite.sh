#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes the converter-made model suite again: a venv of its own from the hashed lock beside this
# script (TensorFlow's converter; nothing else in the project uses it), then make_suite.py.
#
#   tools/model_suite/make_suite.sh                       # every model, into tests/models/converter_suite
#   tools/model_suite/make_suite.sh --only resnet8        # one model (the others' entries are kept)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="${OPBRIDGE_MODEL_SUITE_VENV:-$HOME/.cache/opbridge/model-suite-venv}"
stamp="$venv/.lock-sha256"
want=$(sha256sum "$here/requirements_lock.txt" | cut -d' ' -f1)
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  rm -rf "$venv"
  /usr/bin/python3.11 -m venv "$venv"
  "$venv/bin/pip" install --quiet --require-hashes --no-deps -r "$here/requirements_lock.txt"
  echo "$want" > "$stamp"
fi
exec "$venv/bin/python" "$here/make_suite.py" "$root/tests/models/converter_suite" "$@"
