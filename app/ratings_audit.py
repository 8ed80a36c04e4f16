"""Checking stored ratings against the games that made them: every rated game applied exactly once.

Each rated game row keeps both sides' ratings before it and how many rated games each had played. So
for every puzzle (and every player's type) the games must number 0, 1, 2, ... with no gap or repeat,
each must start from what the previous one produced, and the last must produce the rating stored now.
A lost update shows as two games starting from the same rating; a doubled one as a repeated number;
either breaks the chain. Used by the concurrency tests and ``bench/bench_ratings_concurrency.py``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from app import ratings
from app.ratings import Glicko
from app.store import GAMES, PERFS, PUZZLES


@dataclass
class Audit:
    games: int = 0
    problems: list[str] = field(default_factory=list)


def _chain(audit: Audit, who: str, played: list[tuple[int, Glicko, Glicko]], stored: Glicko, stored_games: int) -> None:
    """``played``: (games before, rating before, rating after) for one side's rated games."""
    played.sort(key=lambda game: game[0])
    numbers = [number for number, _, _ in played]
    if numbers != list(range(len(played))):
        audit.problems.append(f"{who}: games numbered {numbers[:10]}... not 0..{len(played) - 1}")
        return
    for (_, _, after), (number, before, _) in zip(played, played[1:], strict=False):
        if before != after:
            audit.problems.append(f"{who}: game {number} started from {before}, not from the previous game's {after}")
    if stored_games != len(played) or (played and played[-1][2] != stored):
        audit.problems.append(f"{who}: stored {stored} after {stored_games} games; the games give "
                              f"{played[-1][2] if played else None} after {len(played)}")


def audit(engine: Engine) -> Audit:
    report = Audit()
    puzzle_side: dict[str, list[tuple[int, Glicko, Glicko]]] = defaultdict(list)
    player_side: dict[tuple[str, str], list[tuple[int, Glicko, Glicko]]] = defaultdict(list)
    with engine.connect() as connection:
        for game in connection.execute(select(GAMES).where(GAMES.c.score.is_not(None))):
            report.games += 1
            player = Glicko(game.player_rating, game.player_rd, game.player_volatility)
            puzzle = Glicko(game.puzzle_rating, game.puzzle_rd, game.puzzle_volatility)
            player_after, puzzle_after = ratings.game(player, puzzle, game.score)
            puzzle_side[game.puzzle_id].append((game.puzzle_games, puzzle, puzzle_after))
            player_side[(game.player, game.type)].append((game.player_games, player, player_after))
        puzzles: dict[str, Any] = {row.id: row for row in connection.execute(
            select(PUZZLES.c.id, PUZZLES.c.rating, PUZZLES.c.rd, PUZZLES.c.volatility, PUZZLES.c.games)
            .where(PUZZLES.c.games > 0))}
        perfs = {(row.player, row.type): row for row in connection.execute(select(PERFS))}
    for puzzle_id in puzzles.keys() | puzzle_side.keys():
        row = puzzles.get(puzzle_id)
        stored = Glicko(row.rating, row.rd, row.volatility) if row else None
        _chain(report, f"puzzle {puzzle_id}", puzzle_side[puzzle_id], stored, row.games if row else 0)  # type: ignore[arg-type]
    for key in perfs.keys() | player_side.keys():
        row = perfs.get(key)
        stored = Glicko(row.rating, row.rd, row.volatility) if row else None
        _chain(report, f"player {key[0]} in {key[1]}", player_side[key], stored, row.games if row else 0)  # type: ignore[arg-type]
    return report
