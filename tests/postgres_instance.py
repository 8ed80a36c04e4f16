"""A PostgreSQL server of the test's own, on its own port, that a test may kill and start again: the
machine's binaries (`/usr/lib/postgresql/*/bin`), run as the `postgres` user since tests run as root."""

from __future__ import annotations

import contextlib
import glob
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivatePostgres:
    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            raise RuntimeError("no PostgreSQL binaries under /usr/lib/postgresql (run scripts/ensure-postgres.sh)")
        self.bin = Path(found[-1]).parent
        self.root = Path(tempfile.mkdtemp(prefix="puzzlegen-pg-"))  # /tmp/...: reachable by the postgres user
        shutil.chown(self.root, "postgres", "postgres")
        self.data = self.root / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self._as_postgres(self.bin / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync")

    def _as_postgres(self, *command: object) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *map(str, command)], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        self._as_postgres(self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l", self.root / "log", "-w", "start")

    def kill(self) -> None:
        """A crash as far as clients can tell: every backend gone at once, no checkpoint (recovery replays WAL)."""
        self._as_postgres(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.kill()
        shutil.rmtree(self.root, ignore_errors=True)
