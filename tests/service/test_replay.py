"""Immutable GET responses replayed without running the app: identical bytes, logged and counted like
any request; never for what may change (a 404) or for a revalidation (304), and today's daily only
until midnight, with its max-age counting down."""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterator

import pytest

from app.middleware import replay
from app.middleware.replay import Kept, ReplayStore


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(record.getMessage()))


@pytest.fixture
def access_lines() -> Iterator[list[dict]]:
    handler = Lines()
    access = logging.getLogger("puzzlegen.access")
    level = access.level
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    yield handler.lines
    access.removeHandler(handler)
    access.setLevel(level)


def max_age(response) -> int:
    control = response.headers["cache-control"]
    assert control.startswith("public, max-age="), control
    return int(control.removeprefix("public, max-age="))


def but_max_age(response) -> dict[str, str]:
    return {name: value for name, value in response.headers.items() if name != "cache-control"}


def refuse(*_: object) -> None:
    raise AssertionError("the app ran: this response should have been replayed")


def test_immutable_responses_are_replayed_byte_for_byte_and_logged_and_counted(make_client, access_lines) -> None:
    client = make_client()
    record = client.post("/generate/dabuhamienai", params={"size": 5, "seed": 4}).json()
    urls = {  # route template: request
        "/daily/dabuhamienai": "/daily/dabuhamienai?date=2026-05-05",
        "/puzzles/{puzzle_id}": f"/puzzles/{record['id']}",
        "/puzzles/{puzzle_id}/solution": f"/puzzles/{record['id']}/solution",
    }
    sent_at = time.monotonic()
    first = {url: client.get(url) for url in urls.values()}
    assert len(client.app.state.replay) == 3
    service = client.app.state.service
    service.daily = service.stored = refuse  # from now on, only a replay can answer
    for url, response in first.items():
        again = client.get(url)
        assert (again.status_code, again.content) == (200, response.content)
        # ETag, length and type as sent; a max-age that counts down (a rated record is right for a minute) may have
        # ticked since, never up
        assert but_max_age(again) == but_max_age(response)
        assert 0 <= max_age(response) - max_age(again) <= time.monotonic() - sent_at + 1, url

    metrics = client.get("/metrics").text
    for route, url in urls.items():
        assert f'http_requests_total{{method="GET",route="{route}",status="200"}} 2.0' in metrics
        logged = [line for line in access_lines if line["path"] == url.split("?")[0]]
        assert [(line["route"], line["status"]) for line in logged] == [(route, 200)] * 2


def test_revalidation_todays_daily_and_failures_go_through_the_app(make_client) -> None:
    client = make_client()
    replays = client.app.state.replay
    dated = client.get("/daily/dabuhamienai", params={"date": "2026-05-06"})
    assert len(replays) == 1
    revalidated = client.get("/daily/dabuhamienai", params={"date": "2026-05-06"},
                             headers={"If-None-Match": dated.headers["etag"]})
    assert revalidated.status_code == 304
    assert (revalidated.headers["etag"], revalidated.headers["cache-control"]) == (
        dated.headers["etag"], dated.headers["cache-control"])

    assert client.get("/puzzles/dab-missing").status_code == 404  # may exist later
    assert client.get("/daily/dabuhamienai", params={"date": "2026-05-06", "sise": 9}).status_code == 422
    assert len(replays) == 1


def test_todays_daily_is_replayed_until_midnight_with_its_max_age_counting_down(make_client, monkeypatch) -> None:
    client = make_client()
    first = client.get("/daily/dabuhamienai")
    kept = client.app.state.replay.get(("/daily/dabuhamienai", b""))
    assert kept is not None and kept.until < math.inf
    service = client.app.state.service
    daily = service.daily
    service.daily = refuse  # only a replay can answer now

    an_hour_before = kept.until - 3600.5
    monkeypatch.setattr(replay.time, "time", lambda: an_hour_before + 1800)  # half an hour to midnight
    later = client.get("/daily/dabuhamienai")
    assert later.content == first.content and later.headers["etag"] == first.headers["etag"]
    assert later.headers["cache-control"] == "public, max-age=1800"

    monkeypatch.setattr(replay.time, "time", lambda: kept.until + 1)  # midnight has passed: the app answers
    calls = []

    async def counted(*args: object) -> object:
        calls.append(args)
        return await daily(*args)

    service.daily = counted
    assert client.get("/daily/dabuhamienai").status_code == 200 and len(calls) == 1


def test_max_age_never_reaches_past_the_moment_a_response_stops_being_right() -> None:
    now = time.time()
    assert replay.max_age_until(math.inf) == 3600
    assert replay.max_age_until(now + 60.5) == 60
    assert replay.max_age_until(now + 7200) == 3600
    assert replay.max_age_until(now - 5) == 0


def test_replay_store_keeps_the_most_recently_used() -> None:
    store = ReplayStore(capacity=2)
    kept = Kept(route=None, headers=[], body=b"{}", until=math.inf)
    for key in ("/a", "/b"):
        store.put((key, b""), kept)
    assert store.get(("/a", b"")) is kept  # now /b is the least recently used
    store.put(("/c", b""), kept)
    assert store.get(("/b", b"")) is None and len(store) == 2
