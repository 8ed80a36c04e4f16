#!/usr/bin/env bash
# Make sure a Redis server answers on 127.0.0.1:6379 for the test suite (budgets shared by replicas):
# start one if none answers, install it from Debian's packages if it is missing. Never skips.
set -euo pipefail
ready() { python3 - <<'PY' 2>/dev/null
import socket
with socket.create_connection(("127.0.0.1", 6379), timeout=1) as s:
    s.sendall(b"PING\r\n")
    assert s.recv(16).startswith(b"+PONG")
PY
}
ready && exit 0
if ! command -v redis-server >/dev/null 2>&1; then
  echo "Redis is not installed; installing it (apt-get)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq redis-server >/dev/null
fi
redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save "" --appendonly no >/dev/null
for _ in $(seq 1 30); do ready && break; sleep 0.5; done
ready || { echo "Redis did not start on 127.0.0.1:6379" >&2; exit 1; }
