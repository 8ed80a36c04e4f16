"""The repository's copies of the published puzzles against the team's shared originals."""

from __future__ import annotations

import pytest

from tests.conftest import REFERENCE, SHARED_REFERENCE


def data_files() -> list[str]:
    return sorted(str(p.relative_to(REFERENCE)) for p in REFERENCE.rglob("*") if p.is_file() and p.name != "README.md")


def test_every_published_file_is_in_the_repository() -> None:
    assert {"othello/ffo.obf", "battleship/janko.jsonl", "battleship/courses.jsonl",
            "number-sums/published.jsonl", "ubongo/m-kasahr-orig.jsonl"} <= set(data_files())


@pytest.mark.skipif(not SHARED_REFERENCE.is_dir(), reason="no ../shared/reference beside this checkout to compare with")
@pytest.mark.parametrize("name", data_files())
def test_copy_equals_the_shared_original(name: str) -> None:
    original = SHARED_REFERENCE / name
    assert original.is_file(), f"{name} is no longer in {SHARED_REFERENCE}"
    assert (REFERENCE / name).read_bytes() == original.read_bytes(), f"{name} differs from {original}: copy it again"
