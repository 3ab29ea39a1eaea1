#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An nginx HTTP (WebDAV) Bazel cache on 127.0.0.1, for CI.
#
#   nginx_cache.sh start STATE_DIR [PORT]   prints the cache URL (http://127.0.0.1:PORT)
#   nginx_cache.sh stop STATE_DIR           stops it by the pid in STATE_DIR
#
# STATE_DIR holds the config, pid file, logs and the cached blobs; delete it
# after `stop`. nginx is Debian's, pinned in toolchains/debian_packages.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/ci/common.sh
source "$here/common.sh"

command=${1:-} state_dir=${2:-}
[[ -n "$command" && -n "$state_dir" ]] || die "usage: nginx_cache.sh start|stop STATE_DIR [PORT]"

case "$command" in
  start)
    command -v nginx >/dev/null || die "nginx not found; run ./bazelw, which installs the pinned nginx"
    port=${3:-$(free_port)}
    mkdir -p "$state_dir/cache" "$state_dir/tmp"
    state_dir=$(cd "$state_dir" && pwd)
    sed -e "s|@STATE_DIR@|$state_dir|g" -e "s|@PORT@|$port|g" -e "s|@USER@|$(id -un)|g" \
      "$here/nginx/cache.conf.template" >"$state_dir/nginx.conf"
    nginx -t -q -p "$state_dir" -e "$state_dir/error.log" -c "$state_dir/nginx.conf" ||
      die "nginx rejected $state_dir/nginx.conf"
    nginx -p "$state_dir" -e "$state_dir/error.log" -c "$state_dir/nginx.conf"
    if ! wait_for_port "$port" 10; then
      stop_pid_file "$state_dir/nginx.pid"
      die "nginx did not start listening on 127.0.0.1:$port; see $state_dir/error.log"
    fi
    echo "http://127.0.0.1:$port"
    ;;
  stop)
    stop_pid_file "$state_dir/nginx.pid"
    ;;
  *)
    die "unknown command '$command' (expected start or stop)"
    ;;
esac
