#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Checks that a gcc is the exact pinned version, and optionally runs it.
#
#   pinned_gcc.sh check COMPILER EXPECTED_VERSION DEBIAN_PACKAGE
#       Finds COMPILER (a name looked up on PATH, or a path), checks its
#       `-dumpfullversion` (`-dumpversion` prints only the major version on
#       some Debian builds) and prints its absolute path. Used by the
#       repository rule in gcc_toolchain.bzl when Bazel fetches a toolchain.
#   pinned_gcc.sh run COMPILER EXPECTED_VERSION DEBIAN_PACKAGE -- ARGS...
#       The same check, then runs the compiler with ARGS. Every compile and
#       link goes through this, so a compiler upgraded after the toolchain
#       was fetched still fails loudly instead of silently changing output.
#
# On a mismatch it exits 1 with a message naming the expected and found
# versions and the fix.
set -u

mode=${1:-}
compiler=${2:-}
expected=${3:-}
package=${4:-}
if [ "$mode" != check ] && [ "$mode" != run ] || [ -z "$compiler" ] || [ -z "$expected" ]; then
  echo "usage: pinned_gcc.sh check|run COMPILER EXPECTED_VERSION DEBIAN_PACKAGE [-- ARGS...]" >&2
  exit 2
fi
shift 4

fail() {
  echo "opbridge toolchain error: $1" >&2
  echo "  fix: run ./bazelw, which installs the pinned Debian package '$package'," >&2
  echo "       or take the other compiler off the PATH Bazel uses (--action_env=PATH in .bazelrc)" >&2
  exit 1
}

resolved=$(command -v "$compiler" 2>/dev/null) ||
  fail "compiler '$compiler' not found on PATH (expected version $expected)"
found=$("$resolved" -dumpfullversion 2>/dev/null) ||
  fail "'$resolved -dumpfullversion' failed (expected version $expected)"
if [ "$found" != "$expected" ]; then
  fail "compiler '$resolved' is version $found, expected exactly $expected"
fi

if [ "$mode" = check ]; then
  echo "$resolved"
  exit 0
fi
[ "${1:-}" = "--" ] && shift
exec "$resolved" "$@"
