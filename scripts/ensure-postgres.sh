#!/usr/bin/env bash
# Make sure a PostgreSQL server answers on 127.0.0.1:5432 for the test suite: start the local
# cluster if it is stopped, install it from Debian's packages if it is missing. Never skips.
set -euo pipefail
ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
ready && exit 0
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "PostgreSQL is not installed; installing it (apt-get)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /etc/postgresql | sort -n | tail -1)
pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null || pg_ctlcluster "$version" main start
for _ in $(seq 1 30); do ready && break; sleep 1; done
ready || { echo "PostgreSQL did not start on 127.0.0.1:5432" >&2; exit 1; }
# Local test server: let the test user in without a password, as the machine's image does.
if ! psql -h 127.0.0.1 -U postgres -c 'select 1' >/dev/null 2>&1; then
  hba=$(su postgres -c "psql -tAc 'show hba_file'")
  sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  su postgres -c "psql -c 'select pg_reload_conf()'" >/dev/null
fi
