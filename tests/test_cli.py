"""`puzzlegen`: pre-generation that resumes, export/import round trips, and pools served over HTTP."""

from __future__ import annotations

import json

from app.cli import main
from app.store import PuzzleStore


def test_pregenerate_resumes_and_round_trips_through_export(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    args = ["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "3", "--pool", "2",
            "--start", "2026-05-01", "--jobs", "2"]
    assert main(args) == 0
    assert "5 to generate" in capsys.readouterr().err
    assert main(args) == 0  # a rerun finds everything done
    assert "5 already stored, 0 to generate" in capsys.readouterr().err
    assert main([*args[:6], "4", *args[7:]]) == 0  # one more day: only that one is made
    assert "1 to generate" in capsys.readouterr().err

    store = PuzzleStore(url)
    assert store.pool_sizes() == {'dabuhamienai|{"size":8}': 2}
    assert store.get_daily('dabuhamienai|2026-05-04|{"size":8}') is not None

    exported = tmp_path / "all.jsonl"
    assert main(["--database-url", url, "export", str(exported)]) == 0
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    assert len(lines) == 6 and all("solution" in line for line in lines)
    copy_url = f"sqlite:///{tmp_path / 'b.db'}"
    assert main(["--database-url", copy_url, "import", str(exported)]) == 0
    assert main(["--database-url", copy_url, "import", str(exported)]) == 0  # idempotent
    copy = PuzzleStore(copy_url)
    for line in lines:
        assert copy.get(line["id"]).record(include_solution=True) == store.get(line["id"]).record(include_solution=True)
    assert copy.pool_sizes() == store.pool_sizes()


def test_import_refuses_a_malformed_line(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    assert main(["--database-url", f"sqlite:///{tmp_path / 'c.db'}", "import", str(bad)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_generate_without_seed_serves_the_pool_first(tmp_path, make_client) -> None:
    db = tmp_path / "pool.db"
    assert main(["--database-url", f"sqlite:///{db}", "pregenerate", "--type", "dabuhamienai", "--days", "0",
                 "--pool", "2", "--jobs", "1"]) == 0
    pooled_ids = _pool_ids(db)
    assert len(pooled_ids) == 2
    client = make_client(db=db)
    served = [client.post("/generate/dabuhamienai").json()["id"] for _ in range(3)]
    assert set(served[:2]) == pooled_ids  # each pooled puzzle goes to exactly one caller
    assert served[2] not in pooled_ids
    assert client.post("/generate/dabuhamienai", params={"size": 6}).json()["params"]["size"] == 6  # other params: generated


def _pool_ids(db) -> set[str]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from app.store import PuzzleRow

    store = PuzzleStore(f"sqlite:///{db}")
    with Session(store.engine) as session:
        return set(session.scalars(select(PuzzleRow.id).where(PuzzleRow.pool_key.is_not(None))))
