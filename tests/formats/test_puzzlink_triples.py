"""pzprjs's three-valued cells (``solvers.formats.puzzlink.triples``): three cells to a base-27 character."""

from __future__ import annotations

import random

import pytest

from solvers.common import InvalidInput
from solvers.formats.puzzlink.triples import read_triples, write_triples


def test_pzprjs_example_reads_cell_by_cell() -> None:
    values = read_triples("1063000i3000", 36)  # mashu.js's 6×6 example: 1 white, 2 black
    assert [i for i, v in enumerate(values) if v == 1] == [2, 10, 25] and [i for i, v in enumerate(values) if v == 2] == [7, 21]
    assert write_triples(values) == "1063000i3000"


@pytest.mark.parametrize("count", [1, 2, 3, 10, 29])
def test_any_values_go_round(count: int) -> None:
    values = [random.Random(count).randrange(3) for _ in range(count)]
    assert read_triples(write_triples(values), count) == values
    assert read_triples("", count) == [0] * count  # a short body leaves the rest empty


def test_a_character_outside_base_27_is_named() -> None:
    with pytest.raises(InvalidInput, match="base-27"):
        read_triples("r", 3)
