#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (never Playwright's own browser download).
# Install it when it is missing and we may (root with apt-get); otherwise say so, and those tests skip.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is not installed; installing it (apt-get) for the browser tests..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing and cannot be installed here (needs root and apt-get): the browser tests will skip." >&2
fi
