#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Merges the lcov tracefiles of one test into one file (see README.md).
set -euo pipefail
coverage_dir="" output_file=""
for arg in "$@"; do
  case "$arg" in
    --coverage_dir=*) coverage_dir="${arg#*=}" ;;
    --output_file=*) output_file="${arg#*=}" ;;
  esac
done
if [[ -z "$coverage_dir" || -z "$output_file" ]]; then
  echo "lcov_merger: usage: --coverage_dir=DIR --output_file=FILE" >&2
  exit 2
fi
: >"$output_file"
find "$coverage_dir" -type f \( -name '*.dat' -o -name '*.info' \) -print0 | sort -z |
  while IFS= read -r -d '' tracefile; do cat "$tracefile" >>"$output_file"; done
