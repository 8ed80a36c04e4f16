"""Ratings from play: each player's first attempt at a stored puzzle is one Glicko-2 game between the two.

The rules live here, apart from the store that keeps them and the routes that show them:

- **A player is a token** the app sends (``TOKEN``): a pseudonym, no account. A game counts only if
  that token fetched the puzzle first (``?player=`` on a record or daily, or ``/next``).
- **The game is settled by the player's first check** (``POST /puzzles/{id}/verify`` with the token).
  A win is a solve at that first check with no hint asked before it; anything else is a loss (``score``).
  Hints asked before the first check are counted on the game; later checks and hints change nothing.
- **Both sides are updated at once from their ratings before the game** (Glicko-2 with one game as the
  rating period, as Lichess rates puzzles), by ``glicko2-py``'s ``update_rating``.
- **A new puzzle starts from its grade** (``prior``): its level places it in a band, its score within it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Annotated, Any

from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi
from pydantic import AfterValidator, Field

# Glickman's system constant: how fast volatility may move (his suggested range is 0.3-1.2).
TAU = 0.5
# Hex or base64url digests fit, and so does anything else URL-safe, so a token goes into a path as it is.
TOKEN = re.compile(r"[A-Za-z0-9._~-]{8,64}")
TOKEN_RULE = "8 to 64 characters from A-Z a-z 0-9 . _ ~ -"
TOKEN_EXAMPLE = "e.g. the hex HMAC-SHA-256 of the app's own user id under a secret of the app"
# A puzzle within this many points of a player's rating is "close" for GET /next.
BAND = 150.0
# A record's rating may be this old in a cache or a replayed response (records are otherwise immutable).
RECORD_MAX_AGE_SECONDS = 60
# Where a type's easiest and hardest levels start, so every type's levels cover the same range.
EASIEST, HARDEST = 1100.0, 1900.0
# A grade is information: a graded puzzle starts less uncertain than a newcomer (350).
GRADED_RD = 200.0
MAX_SECONDS = 7 * 24 * 3600  # a client-reported solving time beyond a week is a mistake, not a play


@dataclass(frozen=True)
class Glicko:
    rating: float
    rd: float
    volatility: float

    def shown(self) -> dict[str, float]:
        return {"rating": round(self.rating, 1), "rd": round(self.rd, 1), "volatility": round(self.volatility, 6)}


NEWCOMER = Glicko(1500.0, 350.0, 0.06)  # a new player, and a puzzle nothing is known about


def score(solved: bool, hints: int) -> float:
    """The player's score in the game: 1 for a solve at the first check without a hint, else 0.

    A hint is help the puzzle forced the player to take, so a solve with hints is a loss, as Lichess
    counts a puzzle failed once the player asks to see the solution (and chess.com once they take a hint).
    A draw would let a player who asks for a hint at every step climb toward harder puzzles."""
    return 1.0 if solved and hints == 0 else 0.0


def game(player: Glicko, puzzle: Glicko, player_score: float) -> tuple[Glicko, Glicko]:
    """Both sides after one game, each updated from the other's rating before it."""
    return _updated(player, puzzle, player_score), _updated(puzzle, player, 1.0 - player_score)


def _updated(side: Glicko, opponent: Glicko, side_score: float) -> Glicko:
    new = update_rating(rating_to_mu(side.rating), rd_to_phi(side.rd), side.volatility,
                        [(rating_to_mu(opponent.rating), rd_to_phi(opponent.rd), side_score)], tau=TAU)
    return Glicko(mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma)


def expected(player: Glicko, puzzle: Glicko) -> float:
    """The chance that the player wins (Glicko's expectation, the puzzle's deviation widening it)."""
    phi = rd_to_phi(puzzle.rd)
    impact = 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)
    return 1.0 / (1.0 + math.exp(-impact * (rating_to_mu(player.rating) - rating_to_mu(puzzle.rating))))


def level_step(levels: list[str]) -> float:
    return (HARDEST - EASIEST) / max(len(levels) - 1, 1)


def prior(levels: list[str], difficulty: dict[str, Any] | None, level_median: float | None = None) -> Glicko:
    """A new puzzle's rating from its grade. The level places it: a type's easiest level at 1100, its
    hardest at 1900, evenly between (a puzzle no level finishes, one step above the hardest). The score,
    which orders puzzles within a level, moves it by up to half a step either way: by how many times
    harder than the level's median stored puzzle it is (``level_median``; none known, no move). A puzzle
    without a usable grade starts where a new player does."""
    if not levels or not difficulty or difficulty.get("error"):
        return NEWCOMER
    level, step = difficulty.get("level"), level_step(levels)
    if level is None:
        centre = HARDEST + step
    elif level in levels:
        centre = 1500.0 if len(levels) == 1 else EASIEST + step * levels.index(level)
    else:
        return NEWCOMER
    points = difficulty.get("score")
    offset = 0.0
    if level_median and isinstance(points, int | float) and points > 0 and level_median > 0:
        offset = step / 2 * math.tanh(math.log(points / level_median))
    return Glicko(centre + offset, GRADED_RD, NEWCOMER.volatility)


def token_problem(token: str) -> str | None:
    """What is wrong with a player token, in words; None when it is fine."""
    if not 8 <= len(token) <= 64:
        return f"a player token is {TOKEN_RULE}; this one has {len(token)} characters ({TOKEN_EXAMPLE})"
    unusable = sorted({c for c in token if not TOKEN.fullmatch(c * 8)})
    if unusable:
        return f"a player token is {TOKEN_RULE}; this one also holds {''.join(unusable[:10])!r} ({TOKEN_EXAMPLE})"
    return None


def checked_token(token: str) -> str:
    problem = token_problem(token)
    if problem:
        raise ValueError(problem)
    return token


PlayerToken = Annotated[str, AfterValidator(checked_token), Field(
    description=f"The player: an opaque token the app derives for each of its users, {TOKEN_RULE} ({TOKEN_EXAMPLE}). No account, "
                "no personal data: the token is all that identifies a player.", examples=["3f9a1c2b7d4e8f60"])]

