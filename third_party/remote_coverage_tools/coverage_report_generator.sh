#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Combines the per-test lcov reports listed in --reports_file (see README.md).
set -euo pipefail
reports_file="" output_file=""
for arg in "$@"; do
  case "$arg" in
    --reports_file=*) reports_file="${arg#*=}" ;;
    --output_file=*) output_file="${arg#*=}" ;;
  esac
done
if [[ -z "$reports_file" || -z "$output_file" ]]; then
  echo "coverage_report_generator: usage: --reports_file=FILE --output_file=FILE" >&2
  exit 2
fi
: >"$output_file"
while IFS= read -r report; do
  [[ -n "$report" && -f "$report" ]] && cat "$report" >>"$output_file"
done <"$reports_file"
