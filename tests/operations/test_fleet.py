"""The worker fleet over a real broker: redelivery after a worker is killed, no record stored twice,
the pool served over HTTP as before. Needs Redis (127.0.0.1:6379) and RabbitMQ (127.0.0.1:5672), which
this machine kind and CI run; a missing broker fails the test with a message, never hangs it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.cli.main import main
from app.fleet.broker import FleetSettings, make_celery, queue_depth
from app.fleet.pools import PoolTarget, parse_pools, pool_slots, refill_once
from app.fleet.tasks import Item, enqueue
from app.store import PuzzleRow, PuzzleStore
from generators.registry import TYPES
from solvers.common import Deadline
from tests.conftest import fresh_postgres_database

BROKERS = {"redis": "redis://127.0.0.1:6379/0", "rabbitmq": "amqp://guest:guest@127.0.0.1:5672//"}
PUZZLEGEN = str(Path(sys.executable).parent / "puzzlegen")
ON_RABBITMQ = pytest.mark.xdist_group("rabbitmq")  # one test process at a time: one test restarts the broker
SMALL = PoolTarget.of("dabuhamienai", 60, difficulty="easy", size=5)


def require_broker(url: str) -> None:
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=3) as connection:
            connection.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:  # no silent skip: the fleet's guarantees are only worth what this test shows
        pytest.fail(f"the broker at {url} is needed for the fleet tests and did not answer: {exc}")


@pytest.fixture
def fleet_env(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """Environment for a fleet on a fresh queue and a fresh PostgreSQL database."""
    url = BROKERS[request.param]
    require_broker(url)
    worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
    env = {**os.environ, "BROKER_URL": url, "FLEET_QUEUE": f"puzzlegen-test-{uuid.uuid4().hex[:10]}",
           "FLEET_VISIBILITY_TIMEOUT": "10", "DATABASE_URL": fresh_postgres_database(f"puzzlegen_fleet_{worker}")}
    yield env
    engine = make_celery(settings_of(env))
    with engine.connection_for_write() as connection:
        connection.default_channel.queue_delete(env["FLEET_QUEUE"])


def settings_of(env: dict[str, str]) -> FleetSettings:
    return FleetSettings(broker_url=env["BROKER_URL"], fleet_queue=env["FLEET_QUEUE"],
                         fleet_visibility_timeout=int(env["FLEET_VISIBILITY_TIMEOUT"]))


def start_worker(env: dict[str, str], name: str, log: Path, *extra: str) -> subprocess.Popen:
    """A worker with one child process, in its own process group (so it can be killed whole)."""
    return subprocess.Popen([PUZZLEGEN, "worker", "--concurrency", "1", "--hostname", f"{name}@%h", *extra], env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)


def store_with_one_worker(env: dict[str, str], tmp_path: Path, store: PuzzleStore, count: int) -> None:
    """One worker runs until ``count`` puzzles are stored (what was queued), then stops."""
    log = tmp_path / "w.log"
    worker = start_worker(env, "w", log)
    try:
        wait_for(lambda: stored(store) == count, 120, f"the {count} queued puzzles", [log])
    finally:
        stop(worker)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scrape(port: int) -> dict[str, float]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return {name: float(value) for name, value in (line.rsplit(" ", 1) for line in text.splitlines()
                                                   if line.startswith("fleet_"))}


def stop(worker: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if worker.poll() is None:
        os.killpg(worker.pid, sig)
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def stored(store: PuzzleStore) -> int:
    with Session(store.engine) as session:
        return session.scalar(select(func.count()).select_from(PuzzleRow))


def wait_for(condition, seconds: float, what: str, logs: list[Path], every: float = 0.5) -> None:  # type: ignore[no-untyped-def]
    limit = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > limit:
            tails = "\n".join(f"--- {log.name}\n" + "\n".join(log.read_text().splitlines()[-15:]) for log in logs)
            pytest.fail(f"waited {seconds:g} s for {what}\n{tails}")
        time.sleep(every)


@pytest.mark.slow
@pytest.mark.parametrize("fleet_env", ["redis", pytest.param("rabbitmq", marks=[ON_RABBITMQ])],
                         indirect=True)
def test_a_worker_killed_mid_way_loses_and_repeats_nothing(fleet_env, tmp_path, make_client) -> None:
    store = PuzzleStore(fleet_env["DATABASE_URL"])
    items = pool_slots(SMALL, 0, SMALL.target)
    chunks = [(SMALL.type_name, items[i:i + 5]) for i in range(0, len(items), 5)]
    assert enqueue(chunks, 20.0, make_celery(settings_of(fleet_env))) == len(chunks) == 12
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    port = free_port()
    # Worker a alone first, killed as soon as its first puzzle is stored: mid-chunk, whatever the
    # generation speed (a fast machine once let two workers store all 60 before the kill).
    doomed, survivor = start_worker(fleet_env, "a", logs[0]), None
    try:
        wait_for(lambda: stored(store) >= 1, 240, "the first puzzle", logs[:1], every=0.02)
        stop(doomed, signal.SIGKILL)  # the worker and its child, mid-chunk: nothing acknowledged that
        at_kill = stored(store)
        assert at_kill < SMALL.target
        survivor = start_worker(fleet_env, "b", logs[1], "--metrics-port", str(port))
        wait_for(lambda: stored(store) >= SMALL.target and queue_depth(make_celery(settings_of(fleet_env))) == 0,
                 300, f"all {SMALL.target} puzzles (had {at_kill} when worker a was killed)", logs)
        time.sleep(2)  # a late duplicate would show up now
        metrics = scrape(port)  # the survivor's exporter: what it did, and the queue it drained
        assert metrics["fleet_queue_depth"] == 0
        assert 0 < metrics['fleet_tasks_total{outcome="done"}'] <= len(chunks)
        assert 'fleet_tasks_total{outcome="failed"}' not in metrics
        if fleet_env["BROKER_URL"].startswith("amqp"):  # RabbitMQ marks a message it hands out again
            assert metrics['fleet_tasks_total{outcome="redelivered"}'] >= 1
    finally:
        stop(doomed, signal.SIGKILL)
        if survivor is not None:
            stop(survivor)

    with Session(store.engine) as session:
        rows = list(session.scalars(select(PuzzleRow)))
    assert len(rows) == SMALL.target
    assert {row.id for row in rows} == {item.puzzle_id for item in items}
    puzzle_type = TYPES[SMALL.type_name]
    for row in rows:  # every one re-checked by the type's own solver, and its stored solution is that one
        assert row.pool_key == SMALL.key and row.served_at is None
        outcome = puzzle_type.solve(puzzle_type.puzzle_model.model_validate(row.puzzle), 2, Deadline.after(30), None)
        assert outcome.status == "unique", row.id
        assert puzzle_type.answer_model.model_validate(outcome.solutions[0]) == \
            puzzle_type.answer_model.model_validate(row.solution)

    # The web service hands them out as before, each to one caller: 200 concurrent requests, then one at a
    # time until the pool is empty (a request that finds every ready puzzle held by others generates one).
    client = make_client(fleet_env["DATABASE_URL"])
    pooled = {row.id for row in rows}

    def take(_: int) -> str:
        response = client.post("/generate/dabuhamienai", params=SMALL.params)
        assert response.status_code in (200, 201)  # 200: a stored (pooled) puzzle, 201: made for this request
        return response.json()["id"]

    with ThreadPoolExecutor(8) as threads:
        served = [puzzle_id for puzzle_id in threads.map(take, range(SMALL.target)) if puzzle_id in pooled]
    while (puzzle_id := take(0)) in pooled:
        served.append(puzzle_id)
    assert sorted(served) == sorted(pooled)
    assert store.pool_sizes() == {}


@ON_RABBITMQ
@pytest.mark.parametrize("fleet_env", ["rabbitmq", "redis"], indirect=True)
def test_a_send_returns_once_the_broker_holds_the_message(fleet_env) -> None:
    """RabbitMQ publishes are confirmed (else the count below, and a restart, could miss messages still in
    flight); Redis gets its redelivery options instead."""
    engine = make_celery(settings_of(fleet_env))
    with engine.connection_for_write() as connection:
        if fleet_env["BROKER_URL"].startswith("amqp"):
            assert connection.connection.confirm_publish is True
        else:
            assert connection.default_channel.visibility_timeout == int(fleet_env["FLEET_VISIBILITY_TIMEOUT"])
    target = PoolTarget.of("number-sums", 30, size=5)
    enqueue([(target.type_name, [item]) for item in pool_slots(target, 0, 30)], 20.0, engine)
    assert queue_depth(engine) == 30


@ON_RABBITMQ
@pytest.mark.parametrize("fleet_env", ["rabbitmq"], indirect=True)
def test_queued_work_survives_a_rabbitmq_restart(fleet_env, tmp_path) -> None:
    """RabbitMQ keeps durable queues and persistent messages on disk; Redis here keeps nothing, and the
    README says so (a refiller or a rerun of `pregenerate --queue` enqueues the work again)."""
    engine = make_celery(settings_of(fleet_env))
    target = PoolTarget.of("number-sums", 6, size=5)
    enqueue([(target.type_name, [item]) for item in pool_slots(target, 0, 6)], 20.0, engine)
    assert queue_depth(engine) == 6
    for action in ("stop_app", "start_app"):
        subprocess.run(["rabbitmqctl", action], check=True, capture_output=True, timeout=120)
    require_broker(fleet_env["BROKER_URL"])
    assert queue_depth(engine) == 6
    store = PuzzleStore(fleet_env["DATABASE_URL"])
    store_with_one_worker(fleet_env, tmp_path, store, 6)


@pytest.mark.parametrize("fleet_env", ["redis"], indirect=True)
def test_a_chunk_past_its_time_limit_is_stopped_and_one_out_of_budget_retried_once(fleet_env, tmp_path) -> None:
    engine = make_celery(settings_of(fleet_env))
    hard = PoolTarget.of("dabuhamienai", 2, difficulty="hard", size=10)
    slow = PoolTarget.of("dabuhamienai", 400, difficulty="hard", size=30)  # far more than 1.5 s of work on any machine
    overrun = [asdict(item) for item in pool_slots(slow, 0, 400)]
    starved = [asdict(pool_slots(hard, 0, 1)[0])]
    engine.send_task("puzzlegen.generate_chunk", (slow.type_name, overrun, 60.0), time_limit=1.5)  # killed at 1.5 s
    # Its own budget ends before the first deadline check, however fast a warm worker makes a 10×10 hard card.
    engine.send_task("puzzlegen.generate_chunk", (hard.type_name, starved, 1e-6))
    store = PuzzleStore(fleet_env["DATABASE_URL"])
    log, port = tmp_path / "w.log", free_port()
    worker = start_worker(fleet_env, "w", log, "--metrics-port", str(port))
    try:
        wait_for(lambda: "TimeLimitExceeded" in log.read_text() and log.read_text().count("ChunkIncomplete") >= 2,
                 120, "the hard time limit and the retried chunk", [log])
        time.sleep(3)
        metrics = scrape(port)
        assert queue_depth(engine) == 0 and stored(store) < len(overrun)  # stopped part-way, the starved one never
        assert log.read_text().count("received") == 3  # the overrun chunk once, the starved one twice
        assert metrics['fleet_tasks_total{outcome="retried"}'] == 1
        assert metrics['fleet_tasks_total{outcome="failed"}'] >= 1
    finally:
        stop(worker)


def test_pool_targets_are_parsed_with_clear_errors() -> None:
    targets = parse_pools("dabuhamienai:hard=50, battleship=10")
    assert targets == [PoolTarget.of("dabuhamienai", 50, difficulty="hard"), PoolTarget.of("battleship", 10)]
    assert targets[0].params["difficulty"] == "hard"
    with pytest.raises(ValueError, match="no difficulty 'fiendish'"):
        parse_pools("dabuhamienai:fiendish=5")
    with pytest.raises(ValueError, match="expected type"):
        parse_pools("no-such-type=5")


def test_pool_slots_are_the_ones_pregenerate_makes() -> None:
    from datetime import date

    from app.cli.plan import plan_tasks
    from app.service import identity

    planned = plan_tasks([TYPES["dabuhamienai"]], date(2026, 5, 1), 0, 3, "easy")
    target = parse_pools("dabuhamienai:easy=3")[0]
    assert [Item(t.puzzle_id, identity(t.params), t.stored_params, t.seed, pool=t.pool) for t in planned] == \
        pool_slots(target, 0, 3)


def test_commands_without_a_broker_say_what_to_set(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("BROKER_URL", raising=False)
    with pytest.raises(SystemExit) as stopped:
        main(["--database-url", f"sqlite:///{tmp_path / 'x.db'}", "pregenerate", "--queue", "--days", "1"])
    assert stopped.value.code == 2 and "set BROKER_URL" in capsys.readouterr().err


def test_the_compose_file_names_real_commands_and_settings() -> None:
    """No Docker engine here to run it: check what can go stale instead."""
    import yaml

    from app.settings import Settings

    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "deploy" / "compose.fleet.yaml").read_text())
    services = compose["services"]
    assert {"web", "worker", "refiller", "postgres", "redis"} <= set(services)
    known = {name.upper() for name in (*Settings.model_fields, *FleetSettings.model_fields)}
    for name in ("web", "worker", "refiller"):
        assert set(services[name]["environment"]) <= known, name
    assert services["worker"]["command"][:2] == ["puzzlegen", "worker"]
    parse_pools(services["refiller"]["environment"]["FLEET_POOLS"])
    for command in (services["worker"]["command"], services["refiller"]["command"]):
        with pytest.raises(SystemExit) as shown:
            main([*command[1:], "--help"])
        assert shown.value.code == 0


@pytest.mark.parametrize("fleet_env", ["redis"], indirect=True)
def test_the_refiller_tops_pools_up_with_new_slots(fleet_env, tmp_path) -> None:
    settings = FleetSettings(**{**settings_of(fleet_env).model_dump(), "fleet_chunk_size": 4,
                                "fleet_pools": "number-sums=6", "fleet_budget_seconds": 20})
    engine = make_celery(settings)
    targets = parse_pools(settings.fleet_pools)
    store = PuzzleStore(fleet_env["DATABASE_URL"])
    assert refill_once(store, targets, settings, engine) == 2  # 4 + 2 seeds
    assert refill_once(store, targets, settings, engine) == 0  # the same slots still wait in the queue
    log = tmp_path / "w.log"
    worker = start_worker(fleet_env, "w", log)
    try:
        wait_for(lambda: store.pool_sizes() == {targets[0].key: 6} and queue_depth(engine) == 0, 120, "a full pool", [log])
        served = {store.claim_from_pool(targets[0].key).id for _ in range(2)}
        assert refill_once(store, targets, settings, engine) == 1
        wait_for(lambda: store.pool_sizes() == {targets[0].key: 6}, 120, "the pool refilled", [log])
    finally:
        stop(worker)
    expected = {item.puzzle_id for item in pool_slots(targets[0], 0, 8)}  # slots 6 and 7 are new puzzles
    assert stored(store) == 8 and served < expected
    with Session(store.engine) as session:
        assert set(session.scalars(select(PuzzleRow.id))) == expected


@pytest.mark.parametrize("fleet_env", ["redis"], indirect=True)
def test_pregenerate_queue_fills_dailies_and_pools_through_a_worker(fleet_env, tmp_path, monkeypatch, capsys) -> None:
    for name in ("BROKER_URL", "FLEET_QUEUE"):
        monkeypatch.setenv(name, fleet_env[name])
    args = ["--database-url", fleet_env["DATABASE_URL"], "pregenerate", "--queue", "--type", "number-sums",
            "--days", "2", "--start", "2026-05-01", "--pool", "3", "--chunk", "2", "--difficulty", "easy"]
    assert main(args) == 0
    assert "5 enqueued in 3 tasks" in capsys.readouterr().err  # 2 dailies, then 3 pool slots in chunks of 2
    store = PuzzleStore(fleet_env["DATABASE_URL"])
    store_with_one_worker(fleet_env, tmp_path, store, 5)
    key = PoolTarget.of("number-sums", 3).key
    assert store.get_daily(key.replace("|", "|2026-05-02|", 1)) is not None
    assert store.pool_sizes() == {key: 3}
    assert main(args) == 0
    assert "5 already stored, 0 enqueued in 0 tasks" in capsys.readouterr().err
