"""Storage across restarts, the daily puzzle under concurrency, time budgets and responsiveness."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import fastapi.routing
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.main import GC_THRESHOLDS, create_app
from app.settings import Settings
from app.store import PuzzleRow, PuzzleStore
from app.work import WorkFailed
from generators.registry import TYPES

REPO = Path(__file__).resolve().parents[2]


def test_stored_puzzle_survives_a_restart(make_client, tmp_path) -> None:
    db = tmp_path / "persist.db"
    first = make_client(db=db)
    record = first.post("/generate/dabuhamienai", params={"size": 6, "seed": 3}).json()
    first.__exit__(None, None, None)
    second = make_client(db=db)
    assert second.get(f"/puzzles/{record['id']}").json() == record
    solution = second.get(f"/puzzles/{record['id']}/solution").json()
    assert second.post(f"/puzzles/{record['id']}/verify", json={"answer": solution}).json()["solved"]


def count_daily_rows(url: str) -> int:
    store = PuzzleStore(url)
    with Session(store.engine) as session:
        count = session.scalar(select(func.count()).select_from(PuzzleRow).where(PuzzleRow.daily_key.is_not(None)))
    store.dispose()
    return count


def test_simultaneous_first_daily_requests_make_one_puzzle(make_client, database_url: str) -> None:
    replica_a, replica_b = make_client(db=database_url), make_client(db=database_url)  # two apps on one database
    clients = [replica_a, replica_b] * 4
    barrier = threading.Barrier(len(clients))

    def fetch(client):
        barrier.wait()
        return client.get("/daily/dabuhamienai", params={"date": "2026-03-01", "size": 6})

    with ThreadPoolExecutor(len(clients)) as pool:
        responses = list(pool.map(fetch, clients))
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1  # same id, puzzle and created_at for everyone
    assert count_daily_rows(database_url) == 1


def test_daily_differs_by_parameters_and_is_deterministic_across_databases(make_client, tmp_path) -> None:
    one = make_client(db=tmp_path / "a.db").get("/daily/dabuhamienai", params={"date": "2026-04-01"}).json()
    other_db = make_client(db=tmp_path / "b.db")
    again = other_db.get("/daily/dabuhamienai", params={"date": "2026-04-01"}).json()
    assert (one["id"], one["puzzle"]) == (again["id"], again["puzzle"])  # replicas agree without sharing a store
    bigger = other_db.get("/daily/dabuhamienai", params={"date": "2026-04-01", "size": 9}).json()
    assert bigger["puzzle"]["size"] == 9 and bigger["id"] != one["id"]


def test_work_past_its_budget_is_503_with_retry_after(make_client) -> None:
    client = make_client(generate_budget_seconds=0.05, retry_after_seconds=7)
    response = client.post("/generate/dabuhamienai", params={"size": 30, "seed": 1})
    assert response.status_code == 503
    assert response.headers["retry-after"] == "7"
    assert "time budget" in response.json()["detail"]


def test_cheap_endpoints_answer_while_generation_saturates_the_workers(make_client) -> None:
    """Cheap requests never queue behind generation because they hand no job to the worker processes
    (counted below); their wall-clock bound only says they answer at all, well within the 30 s budget a
    queued request could wait (a tight bound fails on a loaded CI machine and proves nothing more)."""
    client = make_client(generate_budget_seconds=30)
    record = client.post("/generate/dabuhamienai", params={"size": 8, "seed": 0, "include_solution": True}).json()
    client.get("/daily/dabuhamienai", params={"date": "2026-02-02"})  # stored before the rush
    pool = client.app.state.service.pool
    handed: list[str] = []
    run = pool.run

    async def counted(fn, *args, **kwargs):
        handed.append(fn.__name__)
        return await run(fn, *args, **kwargs)

    pool.run = counted
    busy = [threading.Thread(target=client.post, args=("/generate/dabuhamienai",), kwargs={"params": {"size": 30, "seed": s}})
            for s in range(6)]
    for thread in busy:
        thread.start()
    time.sleep(0.2)
    cheap = [
        lambda: client.get("/healthz"),
        lambda: client.get(f"/puzzles/{record['id']}"),
        lambda: client.get("/daily/dabuhamienai", params={"date": "2026-02-02"}),
        lambda: client.post(f"/puzzles/{record['id']}/verify", json={"answer": record["solution"]}),
    ]
    for request in cheap:
        started = time.perf_counter()
        assert request().status_code == 200
        assert time.perf_counter() - started < 10
    for thread in busy:
        thread.join()
    assert handed == ["generate_job"] * len(busy)  # the six generations, and nothing from the cheap requests


def test_too_much_work_in_flight_is_503_at_once(make_client) -> None:
    client = make_client(max_pending_jobs=1, generate_budget_seconds=30)
    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(client.post, "/generate/dabuhamienai", params={"size": 25, "seed": s}) for s in range(3)]
        statuses = sorted(f.result().status_code for f in futures)
    assert statuses[0] == 201 and 503 in statuses


def test_metrics_count_requests_generation_and_pools(make_client, caplog) -> None:
    client = make_client()
    client.post("/generate/dabuhamienai", params={"size": 5, "seed": 11})
    client.get("/puzzles/dab-missing")
    text = client.get("/metrics").text
    assert 'http_requests_total{method="POST",route="/generate/dabuhamienai",status="201"} 1.0' in text
    assert 'route="/puzzles/{puzzle_id}",status="404"' in text  # route templates, not raw ids
    assert 'puzzle_generation_seconds_count{type="dabuhamienai"} 1.0' in text
    assert "puzzle_generation_repair_rounds_bucket" in text and "work_jobs_in_flight" in text


def test_a_dead_worker_is_replaced_and_the_request_gets_503(make_client, caplog: pytest.LogCaptureFixture) -> None:
    client = make_client()
    first = client.post("/generate/dabuhamienai", params={"size": 5, "seed": 1})
    assert first.status_code == 201, first.text
    pool = client.app.state.service.pool
    for process in list(pool._pools[True]._processes.values()):
        process.kill()
    time.sleep(0.5)  # the executor notices and marks itself broken
    assert client.post("/generate/dabuhamienai", params={"size": 5, "seed": 2}).status_code == 201
    assert "a worker process died (exit codes [-9]" in caplog.text  # the log names what ended it: SIGKILL
    assert client.post("/generate/dabuhamienai", params={"size": 5, "seed": 3}).status_code == 201

    killer = threading.Timer(0.5, lambda: [p.kill() for p in list(pool._pools[True]._processes.values())])
    killer.start()
    with pytest.raises(WorkFailed) as failed:  # a job whose worker dies while it runs
        client.portal.call(functools.partial(pool.run, sleep_then_answer, 5.0, budget=10))
    assert failed.value.kind == "crashed"
    assert client.post("/generate/dabuhamienai", params={"size": 5, "seed": 5}).status_code == 201


def sleep_then_answer(seconds: float, deadline_at: float) -> str:
    time.sleep(seconds)
    return "done"


def test_record_cache_is_bounded_and_serves_both_keys() -> None:
    from app.service import RecordCache

    cache = RecordCache(capacity=4)
    rows = [PuzzleRow(id=f"dab-{i}", type="dabuhamienai", params={}, puzzle={"i": i}, solution={}, stats={},
                      daily_key=f"k{i}" if i % 2 else None) for i in range(6)]
    for row in rows:
        cache.put(row)
    assert cache.get("dab-5") is rows[5] and cache.get("k5") is rows[5]
    assert cache.get("dab-0") is None and len(cache._rows) == 4


def test_today_is_cached_only_until_midnight(client) -> None:
    response = client.get("/daily/dabuhamienai")
    max_age = int(response.headers["cache-control"].split("max-age=")[1])
    assert 0 <= max_age <= 3600


WRONG_SHAPE = {"shaded": [[0, 0, 0]] * 4}
WRONG_ANSWER = {"shaded": [[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}


@pytest.mark.parametrize("answer", [WRONG_ANSWER, WRONG_SHAPE])
def test_a_check_in_the_server_answers_as_a_check_in_a_worker(client, answer) -> None:
    """Where a check runs is a per-type choice; the verdict and the 422 for a bad shape must not depend on it."""
    service = client.app.state.service
    puzzle = {"size": 4, "numbers": [[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]}

    def verify(in_process: bool) -> object:
        puzzle_type = dataclasses.replace(TYPES["dabuhamienai"], check_in_process=in_process)
        try:
            models = puzzle_type.puzzle_model(**puzzle), puzzle_type.answer_model(**answer)
            return client.portal.call(service.verify, puzzle_type, *models)
        except WorkFailed as exc:
            return (exc.kind, exc.message, exc.violations)

    here, there = verify(True), verify(False)
    assert here == there
    assert isinstance(here, tuple) == (answer is WRONG_SHAPE)  # the bad shape fails (a 422), the wrong answer does not


def test_worker_processes_run_at_a_lower_cpu_priority_than_the_server(make_client) -> None:
    """Generation saturating the cores must not starve the event loop (cached reads, /healthz): the service's default
    niceness (the suite's own apps run theirs at 0, see conftest)."""
    default = Settings.model_fields["worker_niceness"].default
    client, server = make_client(worker_niceness=default), os.nice(0)
    assert default > 0
    for pool in client.app.state.service.pool._pools.values():  # generate/solve and verify workers
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, server + default) > server


def started_workers(pools: dict, expected: dict, seconds: float = 60) -> dict:
    """Each pool's worker count, once it is ``expected`` or ``seconds`` have passed (workers start in the background)."""
    deadline = time.monotonic() + seconds
    while {heavy: len(pool._processes) for heavy, pool in pools.items()} != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return {heavy: len(pool._processes) for heavy, pool in pools.items()}


def test_workers_start_ahead_of_traffic_only_to_warm_up(make_client) -> None:
    """Warmed up, every worker starts with the service; otherwise a pool starts a worker when a job finds none idle."""
    warmed = make_client(warm_up_workers=True).app.state.service.pool._pools
    assert started_workers(warmed, {True: 2, False: 1}) == {True: 2, False: 1}
    client = make_client()
    lazy = client.app.state.service.pool._pools
    assert {heavy: len(pool._processes) for heavy, pool in lazy.items()} == {True: 0, False: 0}
    for seed in range(2):  # one after the other: the idle worker takes the second
        assert client.post("/generate/dabuhamienai", params={"size": 5, "seed": seed}).status_code == 201
    assert {heavy: len(pool._processes) for heavy, pool in lazy.items()} == {True: 1, False: 0}


def test_no_worker_is_started_on_the_event_loop(make_client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting a process's first worker waits seconds for the fork server to import the catalogue: neither the
    lifespan's warm-up nor a request submits work from the event loop's thread, so other requests are not held."""
    on_the_loop: list[bool] = []
    submit = ProcessPoolExecutor.submit

    def recording(self: ProcessPoolExecutor, *args: object, **kwargs: object) -> Future:
        try:
            asyncio.get_running_loop()
            on_the_loop.append(True)
        except RuntimeError:
            on_the_loop.append(False)
        return submit(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", recording)
    client = make_client(warm_up_workers=True)
    assert started_workers(client.app.state.service.pool._pools, {True: 2, False: 1}) == {True: 2, False: 1}
    assert client.post("/generate/dabuhamienai", params={"size": 5, "seed": 1}).status_code == 201
    assert len(on_the_loop) >= 4 and not any(on_the_loop), on_the_loop  # three warm-ups and the request's job


def test_a_new_worker_has_the_catalogue_imported_already(make_client) -> None:
    """Workers fork from a process that imported every genre once: a new worker's first job finds it has spent a
    few milliseconds of CPU, not the seconds a fresh interpreter spends importing the catalogue (CPU time, which a
    loaded machine does not stretch as it stretches the clock)."""
    for pool in make_client().app.state.service.pool._pools.values():
        assert pool.submit(time.process_time).result(timeout=60) < 0.5


def test_an_app_builds_no_type_routes_another_app_built_already(tmp_path: Path) -> None:
    """Every app in a process shares each type's routes (their pydantic models take about a second of CPU to
    build for the whole catalogue), so a second app costs milliseconds."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'puzzles.db'}", rate_limits=False)
    first = create_app(settings)
    started = time.process_time()
    second = create_app(settings)
    assert time.process_time() - started < 0.3
    assert second.openapi() == first.openapi()


def test_start_up_objects_are_frozen_out_of_the_collectors_sight(make_client) -> None:
    """A full collection over the many long-lived start-up objects would stall every request in flight."""
    make_client()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == GC_THRESHOLDS


def test_a_fresh_apps_first_requests_build_no_route(make_client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up builds every route FastAPI builds lazily (its first request would otherwise take half a second):
    no route is built while requests of every kind are answered."""
    client = make_client()
    built: list[str] = []
    original = fastapi.routing._EffectiveRouteContext.from_api_route
    monkeypatch.setattr(fastapi.routing._EffectiveRouteContext, "from_api_route",
                        classmethod(lambda cls, **kw: built.append(kw["original_route"].path) or original(**kw)))
    assert client.get("/healthz").status_code == 200
    assert client.get("/types").status_code == 200
    assert client.post("/verify/sudoku", json={"puzzle": {}, "answer": {}}).status_code == 422
    assert client.get("/puzzles/nothing-here").status_code == 404
    assert built == []


SERVER_WITH_WORKERS = """
import os, sys, time
from app.work import WorkPool
pool = WorkPool(1, 4, 1, warm_up=False, niceness=0)
workers = [executor.submit(os.getpid).result(timeout=60) for executor in pool._pools.values()]
print(*workers, flush=True)
time.sleep(120)
"""


def test_workers_end_when_the_server_is_killed() -> None:
    """A killed server (SIGKILL: no shutdown runs) must not leave its worker processes behind."""
    server = subprocess.Popen([sys.executable, "-c", SERVER_WITH_WORKERS], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert len(workers) == 2 and all(pid_alive(pid) for pid in workers)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 10
    while any(pid_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(pid_alive(pid) for pid in workers)


def pid_alive(pid: int) -> bool:
    """Running, not merely a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
