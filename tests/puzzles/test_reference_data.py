"""The repository's copies of the published puzzles against the team's shared originals. Files of
``tests/data`` that the team did not share (the golden sample, sets this project found itself) are the
repository's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REFERENCE, SHARED_REFERENCE


def data_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.name != "README.md")


def test_every_published_file_is_in_the_repository() -> None:
    assert {"othello/ffo.obf", "battleship/janko.jsonl", "battleship/courses.jsonl",
            "number-sums/published.jsonl", "ubongo/m-kasahr-orig.jsonl"} <= set(data_files(REFERENCE))


@pytest.mark.skipif(not SHARED_REFERENCE.is_dir(), reason="no ../shared/reference beside this checkout to compare with")
@pytest.mark.parametrize("name", data_files(SHARED_REFERENCE) if SHARED_REFERENCE.is_dir() else [])
def test_every_shared_file_has_an_equal_copy(name: str) -> None:
    copy = REFERENCE / name
    assert copy.is_file(), f"{name} arrived in {SHARED_REFERENCE}: copy it to {REFERENCE}"
    assert copy.read_bytes() == (SHARED_REFERENCE / name).read_bytes(), f"{name} differs from the shared original: copy it again"
