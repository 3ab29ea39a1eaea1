#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A BuildGrid gRPC Bazel cache (CAS, ByteStream, ActionCache) on 127.0.0.1, for CI.
#
#   buildgrid_cache.sh start STATE_DIR [PORT]   prints the cache URL (grpc://127.0.0.1:PORT)
#   buildgrid_cache.sh stop STATE_DIR           stops it by the pid in STATE_DIR
#
# The remote instance name is "main". BuildGrid runs from a venv of its own,
# installed once from buildgrid/requirements_lock.txt with --require-hashes
# into ${OPBRIDGE_TOOLS_CACHE:-~/.cache/opbridge}/buildgrid-<lock hash>.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/ci/common.sh
source "$here/common.sh"

command=${1:-} state_dir=${2:-}
[[ -n "$command" && -n "$state_dir" ]] || die "usage: buildgrid_cache.sh start|stop STATE_DIR [PORT]"

# Prints the venv's path, installing it first when missing. The marker file
# is written last, so an interrupted install is redone, never half-used.
buildgrid_venv() {
  local lock="$here/buildgrid/requirements_lock.txt" tools_cache venv
  tools_cache=${OPBRIDGE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/opbridge}
  venv="$tools_cache/buildgrid-$(sha256sum "$lock" | cut -c1-16)"
  if [[ ! -f "$venv/.opbridge-installed" ]]; then
    echo "installing BuildGrid into $venv" >&2
    rm -rf "$venv"
    mkdir -p "$tools_cache"
    if ! { /usr/bin/python3.11 -m venv "$venv" &&
      PIP_CONFIG_FILE=/dev/null "$venv/bin/pip" install --quiet --disable-pip-version-check \
        --require-hashes --no-deps --only-binary=:all: -r "$lock"; } >&2; then
      rm -rf "$venv"
      die "could not install BuildGrid from $lock"
    fi
    touch "$venv/.opbridge-installed"
  fi
  echo "$venv"
}

case "$command" in
  start)
    venv=$(buildgrid_venv)
    port=${3:-$(free_port)}
    mkdir -p "$state_dir/cas"
    state_dir=$(cd "$state_dir" && pwd)
    sed -e "s|@STATE_DIR@|$state_dir|g" -e "s|@PORT@|$port|g" \
      "$here/buildgrid/cache.yml.template" >"$state_dir/cache.yml"
    # A session of its own, so stopping it by pid takes its threads along.
    setsid "$venv/bin/bgd" server start "$state_dir/cache.yml" >"$state_dir/server.log" 2>&1 </dev/null &
    echo $! >"$state_dir/buildgrid.pid"
    if ! wait_for_port "$port" 60; then
      stop_pid_file "$state_dir/buildgrid.pid"
      tail -20 "$state_dir/server.log" >&2
      die "BuildGrid did not start listening on 127.0.0.1:$port; see $state_dir/server.log"
    fi
    echo "grpc://127.0.0.1:$port"
    ;;
  stop)
    stop_pid_file "$state_dir/buildgrid.pid"
    ;;
  *)
    die "unknown command '$command' (expected start or stop)"
    ;;
esac
