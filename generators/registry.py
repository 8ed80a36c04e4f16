"""Every puzzle type the service knows, by its `{type}` path name."""

from __future__ import annotations

from generators import (
    battleship,
    dabuhamienai,
    fillomino,
    hashi,
    hitori,
    kakuro,
    kenken,
    killer_sudoku,
    light_up,
    masyu,
    nonogram,
    number_sums,
    nurikabe,
    othello,
    shikaku,
    skyscrapers,
    slitherlink,
    star_battle,
    sudoku,
    takuzu,
    tents,
    ubongo,
)
from generators.spec import PuzzleType

TYPES: dict[str, PuzzleType] = {
    t.name: t
    for t in (
        dabuhamienai.PUZZLE_TYPE,
        battleship.PUZZLE_TYPE,
        number_sums.PUZZLE_TYPE,
        ubongo.PUZZLE_TYPE,
        othello.PUZZLE_TYPE,
        sudoku.PUZZLE_TYPE,
        nonogram.PUZZLE_TYPE,
        light_up.PUZZLE_TYPE,
        slitherlink.PUZZLE_TYPE,
        skyscrapers.PUZZLE_TYPE,
        hashi.PUZZLE_TYPE,
        kenken.PUZZLE_TYPE,
        tents.PUZZLE_TYPE,
        hitori.PUZZLE_TYPE,
        takuzu.PUZZLE_TYPE,
        shikaku.PUZZLE_TYPE,
        nurikabe.PUZZLE_TYPE,
        masyu.PUZZLE_TYPE,
        fillomino.PUZZLE_TYPE,
        kakuro.PUZZLE_TYPE,
        killer_sudoku.PUZZLE_TYPE,
        star_battle.PUZZLE_TYPE,
    )
}
