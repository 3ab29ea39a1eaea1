# SPDX-License-Identifier: Apache-2.0
# Helpers shared by the CI server scripts (sourced, not run).

die() {
  echo "$(basename "$0"): error: $*" >&2
  exit 1
}

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits until something accepts connections on 127.0.0.1:$1, or fails after $2 seconds.
wait_for_port() {
  local port=$1 seconds=$2
  for _ in $(seq $((seconds * 10))); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

# Stops the process whose pid is in file $1 (TERM, then KILL after 10 s).
stop_pid_file() {
  local pid_file=$1 pid
  [[ -s "$pid_file" ]] || return 0
  pid=$(<"$pid_file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
}
