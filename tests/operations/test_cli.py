"""`puzzlegen`: pre-generation that resumes, export/import round trips, and pools served over HTTP."""

from __future__ import annotations

import json

import pytest

from app.cli.main import main
from app.store import PuzzleStore


def test_pregenerate_resumes_and_round_trips_through_export(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    args = ["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "3", "--pool", "2",
            "--start", "2026-05-01", "--jobs", "2", "--difficulty", "medium"]
    assert main(args) == 0
    assert "5 to generate" in capsys.readouterr().err
    assert main(args) == 0  # a rerun finds everything done
    assert "5 already stored, 0 to generate" in capsys.readouterr().err
    assert main([*args[:6], "4", *args[7:]]) == 0  # one more day: only that one is made
    assert "1 to generate" in capsys.readouterr().err

    store = PuzzleStore(url)
    assert store.pool_sizes() == {'dabuhamienai|{"difficulty":"medium","size":8}': 2}
    assert store.get_daily('dabuhamienai|2026-05-04|{"difficulty":"medium","size":8}') is not None

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


def test_pregenerate_makes_every_level_and_refuses_an_unknown_one(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'levels.db'}"
    base = ["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "1", "--start", "2026-05-01",
            "--jobs", "2"]
    assert main([*base, "--difficulty", "impossible"]) == 2
    assert "known: all, easy, hard, medium" in capsys.readouterr().err
    assert main(base) == 0
    store = PuzzleStore(url)
    for level in ("easy", "medium", "hard"):
        row = store.get_daily(f'dabuhamienai|2026-05-01|{{"difficulty":"{level}","size":8}}')
        assert row is not None and row.difficulty["level"] == level


def test_grade_backfills_puzzles_stored_before_grading(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    assert main(["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "2", "--start",
                 "2026-05-01", "--jobs", "1", "--difficulty", "easy"]) == 0
    store = PuzzleStore(url)
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from app.store import PuzzleRow

    with Session(store.engine) as session:  # as rows stored before migration 0002 look
        session.execute(update(PuzzleRow).values(difficulty=None))
        session.commit()
    assert len(store.ungraded(["dabuhamienai"], 10)) == 2
    assert main(["--database-url", url, "grade", "--jobs", "1"]) == 0
    assert "graded 2 puzzles, 0 failed" in capsys.readouterr().err
    assert store.ungraded(["dabuhamienai"], 10) == []
    assert {store.get_daily(f'dabuhamienai|2026-05-0{d}|{{"difficulty":"easy","size":8}}').difficulty["level"]
            for d in (1, 2)} == {"easy"}


def test_import_refuses_a_malformed_line(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n')
    assert main(["--database-url", f"sqlite:///{tmp_path / 'c.db'}", "import", str(bad)]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_generate_without_seed_serves_the_pool_first(tmp_path, make_client) -> None:
    db = tmp_path / "pool.db"
    assert main(["--database-url", f"sqlite:///{db}", "pregenerate", "--type", "dabuhamienai", "--days", "0",
                 "--pool", "2", "--jobs", "1", "--difficulty", "medium"]) == 0
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


def test_export_from_elsewhere_names_the_store_and_creates_none(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)  # no data/puzzles.db here: the default store does not exist
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["export", "out.jsonl"]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "data" / "puzzles.db") in err and "--database-url" in err
    assert not (tmp_path / "data").exists() and not (tmp_path / "out.jsonl").exists()


def test_export_dash_writes_standard_output(tmp_path, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'd.db'}"
    assert main(["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "1", "--start",
                 "2026-05-01", "--jobs", "1", "--difficulty", "easy"]) == 0
    capsys.readouterr()
    assert main(["--database-url", url, "export", "-"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["dabuhamienai"]
    assert str(tmp_path / "d.db") in err and "exported 1 puzzles to standard output" in err


def test_import_of_a_missing_file_is_a_clear_error(tmp_path, capsys) -> None:
    assert main(["--database-url", f"sqlite:///{tmp_path / 'e.db'}", "import", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "missing.jsonl" in err and "no such file" in err and "Traceback" not in err


def test_pregenerate_says_pool_and_days_count_per_level_and_prints_the_totals_first(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit):
        main(["pregenerate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--pool POOL ready puzzles per type and level" in help_text and "that many for each level" in help_text
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    assert main(["--database-url", url, "pregenerate", "--type", "dabuhamienai", "--days", "1", "--start", "2026-05-01",
                 "--pool", "1", "--jobs", "2"]) == 0  # --difficulty all: each of the three levels
    err = capsys.readouterr().err
    lines = [f"dabuhamienai {level}: 1 daily + 1 pooled, 2 to generate" for level in ("easy", "medium", "hard")]
    lines.append("6 puzzles planned (3 type and level pairs), 0 already stored, 6 to generate")
    positions = [err.index(line) for line in lines]
    assert positions == sorted(positions) and positions[-1] < err.index("%|")  # all said before the progress bar
