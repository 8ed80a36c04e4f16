"""`puzzlegen book`: a PDF with the right number of A4 pages, every puzzle's id printed, solutions at the
back, and the same puzzles (same ids) the service generates for those parameters and seeds."""

from __future__ import annotations

import base64
import dataclasses
import re
import zlib
from pathlib import Path

import pytest
from pydantic import BaseModel

from app.cli.main import main
from generators.registry import TYPES


def pdf_pages_and_text(path: Path) -> tuple[int, str]:
    raw = path.read_bytes()
    assert raw.startswith(b"%PDF-")
    pages = len(re.findall(rb"/Type /Page[^s]", raw))
    texts = []
    for stream in re.findall(rb"stream\r?\n(.*?)endstream", raw, re.S):
        data = stream.strip()
        if data.endswith(b"~>"):  # reportlab's ASCII85 around Flate
            data = base64.a85decode(data, adobe=True)
        try:
            texts.append(zlib.decompressobj().decompress(data).decode("latin-1"))
        except zlib.error:
            texts.append(data.decode("latin-1"))
    return pages, "\n".join(texts)


def test_book_has_puzzles_then_solutions(tmp_path: Path, make_client, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "puzzles.db"
    out = tmp_path / "book.pdf"
    args = ["--database-url", f"sqlite:///{db}", "book", "--type", "dabuhamienai", "--size", "5", "--count", "7",
            "--seed", "40", "--jobs", "1", "--out", str(out)]
    assert main(args) == 0
    pages, text = pdf_pages_and_text(out)
    assert pages == 4  # six small puzzles a page: 2 pages of puzzles, 2 of solutions
    assert "Puzzles 1" in text and "Solutions 1" in text
    # The book's puzzle for seed 40 is the one the service returns for seed 40, under the same id.
    client = make_client(db)
    record = client.post("/generate/dabuhamienai", params={"size": 5, "seed": 40}).json()
    assert text.count(record["id"]) == 2  # once with the puzzles, once with the solutions
    assert "7 dabuhamienai puzzles on 4 pages" in capsys.readouterr().err

    # A rerun reuses the stored puzzles; fewer per page means more pages.
    assert main([*args[:-2], "--per-page", "2", "--out", str(out)]) == 0
    assert pdf_pages_and_text(out)[0] == 8


class UngradedParams(BaseModel):
    size: int = 6


@pytest.fixture
def ungraded(monkeypatch: pytest.MonkeyPatch) -> str:
    """A type without a `difficulty` parameter: every registered type has one, so the refusal for such a
    type is tested on a copy of Dabuhamienai without it, registered for this test only."""
    monkeypatch.setitem(TYPES, "ungraded", dataclasses.replace(TYPES["dabuhamienai"], name="ungraded",
                                                               params_model=UngradedParams, difficulty=None))
    return "ungraded"


def test_book_refuses_a_difficulty_for_a_type_without_levels(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                              ungraded: str) -> None:
    args = ["--database-url", f"sqlite:///{tmp_path / 'p.db'}", "book", "--type", ungraded, "--count", "1",
            "--out", str(tmp_path / "b.pdf")]
    assert main([*args, "--difficulty", "hard"]) == 2
    assert "ungraded has no difficulty levels" in capsys.readouterr().err
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.parametrize(("type_name", "extra", "says"), [
    ("dabuhamienai", ["--difficulty", "impossible"], "difficulty"),
    ("dabuhamienai", ["--param", "colour=red"], "unknown parameter"),
    ("dabuhamienai", ["--size", "99"], "size"),
])
def test_book_refuses_bad_parameters(tmp_path: Path, capsys: pytest.CaptureFixture, type_name: str, extra: list[str],
                                     says: str) -> None:
    args = ["--database-url", f"sqlite:///{tmp_path / 'p.db'}", "book", "--type", type_name, "--count", "1",
            "--out", str(tmp_path / "b.pdf"), *extra]
    assert main(args) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "b.pdf").exists()
