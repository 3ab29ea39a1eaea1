#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that a remote cache is shared across checkouts, for CI.
#
#   remote_cache_check.sh NAME WORK_DIR [--targets 'PATTERN...'] [--poison] -- BAZEL_FLAGS...
#
# Clones this repository twice, at different paths under WORK_DIR, and runs
# `bazel test PATTERN...` (default //...) in each with a fresh output base and
# BAZEL_FLAGS (the remote cache flags): the first fills the cache, the second
# must find at least 95% of its actions there. With --poison, the second clone then
# changes one kernel source and tests again with another fresh output base:
# exactly the tests that depend on it must miss, every other test must hit.
# Bazel servers are shut down on exit, on success or failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=tools/ci/common.sh
source "$here/common.sh"

name=${1:-} work_dir=${2:-}
[[ -n "$name" && -n "$work_dir" ]] ||
  die "usage: remote_cache_check.sh NAME WORK_DIR [--targets 'PATTERN...'] [--poison] -- BAZEL_FLAGS..."
shift 2
targets=(//...)
if [[ "${1:-}" == --targets ]]; then
  [[ -n "${2:-}" ]] || die "--targets needs one or more Bazel target patterns, e.g. --targets '//tests/examples/...'"
  read -r -a targets <<<"$2"
  shift 2
fi
poison=false
if [[ "${1:-}" == --poison ]]; then
  poison=true
  shift
fi
[[ "${1:-}" == -- ]] && shift
cache_flags=("$@")

mkdir -p "$work_dir"
work_dir=$(cd "$work_dir" && pwd)
# The servers' temporary files go under WORK_DIR, which the caller removes:
# with --execution_log_json_file Bazel writes a raw log of about 1.5 GB to
# the JVM's temporary directory and leaves it there (3 per .ci/run).
jvm_tmp="$work_dir/jvm_tmp"
mkdir -p "$jvm_tmp"
output_bases=()

# bazel_at OUTPUT_BASE ARGS...: Bazel with its own output base and temporary directory, and a heap
# large enough for Bazel 4 to turn the raw execution log of `test //...` into JSON (it sorts every
# spawn in memory: the JVM's default, a quarter of RAM, ran out at 524 tests on 23 GB).
bazel_at() {
  local output_base=$1
  shift
  bazel --output_base="$output_base" --host_jvm_args=-Djava.io.tmpdir="$jvm_tmp" \
    --host_jvm_args=-Xmx12g "$@"
}
shutdown_servers() {
  for output_base in "${output_bases[@]}"; do
    bazel_at "$output_base" shutdown >/dev/null 2>&1 || true
  done
}
trap shutdown_servers EXIT

# bazel_in CLONE OUTPUT_BASE ARGS...: a Bazel command in CLONE with its own output base.
bazel_in() {
  local clone=$1 output_base=$2
  shift 2
  output_bases+=("$output_base")
  (cd "$clone" && bazel_at "$output_base" "$@")
}

first="$work_dir/first/opbridge"
second="$work_dir/second/somewhere/else/opbridge"
git clone --quiet "$root" "$first"
git clone --quiet "$root" "$second"

echo "--- $name: filling the cache from $first"
bazel_in "$first" "$work_dir/output_base_first" test --config=ci "${cache_flags[@]}" -- "${targets[@]}"
bazel_at "$work_dir/output_base_first" shutdown

echo "--- $name: testing from $second (fresh output base)"
bazel_in "$second" "$work_dir/output_base_second" test --config=ci "${cache_flags[@]}" \
  --execution_log_json_file="$work_dir/second.log" -- "${targets[@]}"
bazel_at "$work_dir/output_base_second" shutdown
python3 "$here/cache_hits.py" ratio "$work_dir/second.log" --name "$name" --minimum 0.95

if $poison; then
  changed=cc/kernels/opbridge_fixed_point.c
  universe=$(printf ' + %s' "${targets[@]}")
  universe=${universe# + }
  echo "--- $name: cache poisoning check: changing $changed in $second"
  # Same results, different code: zero needs no multiply.
  python3 - "$second/$changed" <<'PYTHON'
import pathlib
import sys

path = pathlib.Path(sys.argv[1])
anchor = "  const int32_t left_shift = shift > 0 ? shift : 0;\n"
text = path.read_text()
if anchor not in text:
    sys.exit(f"cache poisoning check: {path} no longer contains {anchor!r}; update remote_cache_check.sh")
path.write_text(text.replace(anchor, "  if (x == 0) {\n    return 0;\n  }\n" + anchor, 1))
PYTHON
  bazel_in "$second" "$work_dir/output_base_poisoned" query \
    "tests(rdeps($universe, //${changed%/*}:${changed##*/}))" >"$work_dir/dependent_tests.txt"
  bazel_in "$second" "$work_dir/output_base_poisoned" test --config=ci "${cache_flags[@]}" \
    --execution_log_json_file="$work_dir/poisoned.log" -- "${targets[@]}"
  bazel_at "$work_dir/output_base_poisoned" shutdown
  python3 "$here/cache_hits.py" poison "$work_dir/poisoned.log" --baseline "$work_dir/second.log" \
    --expected-tests "$work_dir/dependent_tests.txt" --changed-source "$changed"
fi
