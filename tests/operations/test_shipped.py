"""The service as it ships: a wheel built from this checkout's files, installed with the constraints into a
fresh venv outside the repository, and run from an unrelated folder on a fresh SQLite store, the way the
Dockerfile and the fleet's compose file install it. Nothing here imports the checkout: every step runs the
installed package's own programs, so a file the package does not carry fails a step as it would fail a user.

One wheel, one venv and one server per run (the module's fixtures), shared by every type's checks.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import yaml

import solvers
from tests.conftest import REPO, fresh_postgres_database

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("shipped")]
PACKAGES = ("app", "generators", "solvers", "pictures")  # pyproject.toml's packages.find
SEED = 7


def run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    """Run a step; a failure shows what the step printed."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    shown = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{' '.join(command)} exited with {done.returncode}:\n{shown}"
    return done.stdout


def checkout_files() -> list[str]:
    """The files a clean clone has (tracked, plus new ones git does not ignore, as they are in the work tree)."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO)
    return sorted(name for name in listed.split("\0") if name and (REPO / name).is_file())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the checkout's files alone: no build folder, venv or cache of this tree."""
    root = tmp_path_factory.mktemp("shipped")
    source = root / "source"
    for name in checkout_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(root / "dist"), str(source)], cwd=root)
    (built,) = (root / "dist").glob("puzzlegen-*.whl")
    return built


@dataclass(frozen=True)
class Shipped:
    """The installed package: its venv, an unrelated working folder and the environment its programs run in."""

    venv: Path
    elsewhere: Path
    env: dict[str, str]

    def program(self, name: str) -> str:
        return str(self.venv / "bin" / name)

    def python(self, code: str, **extra: str) -> str:
        return run([self.program("python"), "-c", code], cwd=self.elsewhere, env={**self.env, **extra})


@pytest.fixture(scope="module")
def shipped(wheel: Path) -> Shipped:
    """The wheel installed with the constraints into a fresh venv, and numba's cache warmed at install time,
    as the Dockerfile's build step does (a server's first request must not compile)."""
    root = wheel.parent.parent
    venv = root / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=root)
    # --no-compile: byte-compiling every dependency's files is a third of the install and checks nothing of ours;
    # the modules a step imports are compiled as it imports them.
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile", "-c", str(REPO / "constraints.txt"),
         str(wheel)], cwd=root, timeout=900)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    keep = {name: os.environ[name] for name in ("HOME", "LANG", "TMPDIR") if name in os.environ}
    env = {**keep, "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin", "NUMBA_CACHE_DIR": str(root / "numba-cache"),
           "DATABASE_URL": f"sqlite:///{root / 'store' / 'puzzles.db'}",
           "RATE_LIMIT_WORK": "600/minute",  # one client walks every type's generate, picture and hint
           "WORK_PROCESSES": "1", "VERIFY_PROCESSES": "1",  # its requests come one at a time: a worker each is plenty
           "WORKER_NICENESS": os.environ["WORKER_NICENESS"]}  # the suite's priority (tests/conftest.py)
    result = Shipped(venv, elsewhere, env)
    # numba finds a function's cache by its place in the package (solvers.PackageCacheLocator), so what the checkout
    # compiled serves the installed copy of the same sources: `make test` has just compiled it, and compiling it
    # again here would cost the suite minutes. Without a checkout cache the step below compiles everything.
    if solvers.CACHE_DIR.is_dir():
        shutil.copytree(solvers.CACHE_DIR, root / "numba-cache" / solvers.CACHE_DIR.name)
    # The Dockerfile's step, on one core: the suite's other half runs beside it.
    run([result.program("python"), "-m", "app.warm", "--processes", "1"], cwd=elsewhere, env=env, timeout=900)
    return result


def answers(url: str, seconds: float, alive: Callable[[], bool] = lambda: True) -> bool:
    """Whether ``url``'s `/healthz` answers 200 within ``seconds`` (False as soon as ``alive`` says it stopped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and alive():
        try:
            if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(shipped: Shipped) -> Iterator[str]:
    """The installed service (`uvicorn app.main:app`, as the image's CMD) started from the unrelated folder."""
    port = free_port()
    log = shipped.elsewhere / "server.log"
    process = subprocess.Popen([shipped.program("uvicorn"), "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
                               cwd=shipped.elsewhere, env=shipped.env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        up = answers(url, 120, lambda: process.poll() is None)
        assert up, f"the installed service did not answer (exit code {process.poll()}):\n{log.read_text()[-3000:]}"
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_wheel_carries_every_file_of_the_packages(wheel: Path) -> None:
    """What the service reads at run time (pages, scripts, tables, migrations) is in the wheel: every file of the
    packages that a clean clone has, Python or not."""
    with zipfile.ZipFile(wheel) as archive:
        carried = set(archive.namelist())
    expected = {name for name in checkout_files() if name.split("/")[0] in PACKAGES and "__pycache__" not in name}
    assert expected, "no package file found in the checkout"
    assert sorted(expected - carried) == []


def test_the_installed_package_is_not_the_checkout(shipped: Shipped) -> None:
    where = shipped.python("import app, generators, pictures, solvers; print(app.__file__, generators.__file__, "
                           "pictures.__file__, solvers.__file__)")
    for path in where.split():
        assert Path(path).is_relative_to(shipped.venv), where


def test_the_front_page_and_the_docs(server: str) -> None:
    front = httpx.get(server + "/", timeout=30)
    assert front.status_code == 200, front.text
    assert re.search(r"<pre><code>[^<]*curl", front.text), "the README's curl examples are missing from the front page"
    for asset in re.findall(r'(?:href|src)="(/play/assets/[^"]+)"', front.text):
        assert httpx.get(server + asset, timeout=30).status_code == 200, asset
    docs = httpx.get(server + "/docs", timeout=30)
    assert docs.status_code == 200 and "swagger-ui" in docs.text
    for asset in re.findall(r"['\"](/docs/assets/[^'\"]+)['\"]", docs.text):
        assert httpx.get(server + asset, timeout=30).status_code == 200, asset
    assert httpx.get(server + "/openapi.json", timeout=30).json()["paths"]


def test_every_type_generates_plays_draws_hints_and_verifies(server: str) -> None:
    """Every registered type at its default parameters and level, through the routes an app and a player use."""
    with httpx.Client(base_url=server, timeout=120) as client:
        types = [entry["name"] for entry in client.get("/types").json()]
        assert len(types) >= 7
        for name in types:
            made = client.post(f"/generate/{name}", params={"seed": SEED, "include_solution": "true"})
            assert made.status_code == 201, (name, made.text)
            record = made.json()
            stored = f"/puzzles/{record['id']}"
            page = client.get(f"/play/{record['id']}")
            assert page.status_code == 200 and "<html" in page.text.lower(), (name, page.text[:500])
            for asset in re.findall(r'(?:href|src)="(/play/assets/[^"]+)"', page.text):
                assert client.get(asset).status_code == 200, (name, asset)
            picture = client.get(f"{stored}.svg")
            assert picture.status_code == 200 and picture.text.lstrip().startswith("<"), (name, picture.text[:300])
            assert "<svg" in picture.text
            hint = client.post(f"{stored}/hint", json={})
            assert hint.status_code == 200, (name, hint.text)
            assert hint.json()["message"]
            verdict = client.post(f"{stored}/verify", json={"answer": record["solution"]})
            assert verdict.status_code == 200 and verdict.json()["solved"] is True, (name, verdict.text)


def test_a_fresh_store_is_migrated_to_the_newest_revision(shipped: Shipped, server: str) -> None:
    """The server migrated its empty SQLite file at start; the installed package migrates an empty PostgreSQL
    database too (the fleet's store)."""
    newest = shipped.python("from alembic.script import ScriptDirectory; from app.store import MIGRATIONS; "
                            "print(ScriptDirectory(str(MIGRATIONS)).get_current_head())").strip()
    assert newest
    database = shipped.env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as connection:
        assert connection.execute("select version_num from alembic_version").fetchall() == [(newest,)]
    url = fresh_postgres_database(f"puzzlegen_shipped_{uuid.uuid4().hex[:8]}")
    shipped.python(f"from app.store import PuzzleStore; PuzzleStore({url!r}).dispose()")
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            assert connection.execute(text("select version_num from alembic_version")).scalar() == newest
    finally:
        engine.dispose()


def test_the_book_command_makes_a_pdf(shipped: Shipped) -> None:
    out = shipped.elsewhere / "book.pdf"
    run([shipped.program("puzzlegen"), "book", "--type", "sudoku", "--count", "2", "--jobs", "1", "--out", str(out)],
        cwd=shipped.elsewhere, env={**shipped.env, "DATABASE_URL": f"sqlite:///{shipped.elsewhere / 'book.db'}"})
    assert out.read_bytes().startswith(b"%PDF")


def test_the_fleets_worker_generates_what_is_queued(shipped: Shipped) -> None:
    """`puzzlegen worker` (the compose file's worker) takes a queued daily and stores it."""
    store = shipped.elsewhere / "fleet.db"
    env = {**shipped.env, "BROKER_URL": "redis://127.0.0.1:6379/0", "FLEET_QUEUE": f"puzzlegen-shipped-{uuid.uuid4().hex[:10]}",
           "DATABASE_URL": f"sqlite:///{store}"}
    puzzlegen = shipped.program("puzzlegen")
    run([puzzlegen, "pregenerate", "--queue", "--type", "sudoku", "--days", "1", "--difficulty", "easy"],
        cwd=shipped.elsewhere, env=env)
    log = shipped.elsewhere / "worker.log"
    worker = subprocess.Popen([puzzlegen, "worker", "--concurrency", "1"], cwd=shipped.elsewhere, env=env,
                              stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while not _stored(store):
            assert worker.poll() is None, f"the worker exited with {worker.returncode}:\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, f"the worker stored nothing in 180 s:\n{log.read_text()[-3000:]}"
            time.sleep(0.5)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def _stored(database: Path) -> int:
    if not database.exists():
        return 0
    with sqlite3.connect(database) as connection:
        try:
            return connection.execute("select count(*) from puzzles").fetchone()[0]
        except sqlite3.OperationalError:  # not migrated yet
            return 0


def test_the_fleets_compose_file_uses_only_what_the_package_installs(shipped: Shipped) -> None:
    """Every service built from this project starts a program the installed package provides, with a
    subcommand it knows, and the refiller's pools name registered types and levels."""
    compose = yaml.safe_load((REPO / "deploy" / "compose.fleet.yaml").read_text())
    image_command = json.loads(re.search(r"^CMD (\[.*\])$", (REPO / "Dockerfile").read_text(), re.MULTILINE).group(1))
    ours = {name: service for name, service in compose["services"].items() if service.get("image") == "puzzlegen"}
    assert {"web", "worker", "refiller"} <= set(ours)
    for name, service in ours.items():
        command = service.get("command", image_command)
        assert (shipped.venv / "bin" / command[0]).is_file(), f"{name}: {command[0]} is not installed by the package"
        if command[0] == "puzzlegen":
            run([shipped.program("puzzlegen"), command[1], "--help"], cwd=shipped.elsewhere, env=shipped.env)
        else:
            assert command[:2] == ["uvicorn", "app.main:app"], f"{name}: {command}"
        pools = service.get("environment", {}).get("FLEET_POOLS")
        if pools:
            shipped.python(f"from app.fleet.pools import parse_pools; assert parse_pools({pools!r})")


def test_the_dockerfile_copies_what_the_package_is_built_from() -> None:
    """The image cannot be built on a machine without Docker, so its install step is read here: it copies every
    package the wheel is made of and every file pyproject.toml reads while building it."""
    lines = (REPO / "Dockerfile").read_text().splitlines()
    copied = {source for line in lines if line.startswith("COPY ") for source in line.split()[1:-1]}
    assert {*PACKAGES, "pyproject.toml", "README.md", "constraints.txt"} <= copied, copied


def docker_engine() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "info"], capture_output=True, timeout=30).returncode == 0


def test_the_docker_image_builds_and_answers(tmp_path: Path) -> None:
    """The image itself, where a Docker engine runs: built from the checkout, started fresh, `/healthz` answers."""
    if not docker_engine():
        pytest.skip("no Docker engine on this machine (`docker info` fails): the image is not built here")
    tag = f"puzzlegen-test-{uuid.uuid4().hex[:8]}"
    run(["docker", "build", "-t", tag, str(REPO)], cwd=tmp_path, timeout=1800)
    port = free_port()
    container = run(["docker", "run", "-d", "-p", f"127.0.0.1:{port}:8000", tag], cwd=tmp_path).strip()
    try:
        started = time.monotonic()
        assert answers(f"http://127.0.0.1:{port}", 120), run(["docker", "logs", container], cwd=tmp_path)
        print(f"a fresh container answered /healthz after {time.monotonic() - started:.1f} s")
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True, timeout=60)
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True, timeout=120)
