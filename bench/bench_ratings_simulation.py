"""Do ratings from play recover how hard puzzles really are? `python -m bench.bench_ratings_simulation`.

Synthetic people and puzzles, rated by the service's own rules (``app.ratings``: priors, Glicko-2
games) and matched as ``GET /next`` matches them (a random one of the closest unplayed puzzles):

- puzzles: three levels; each gets a grade score (log-normal within its level), a prior from that
  grade as the service computes it, and a hidden difficulty = its prior + normal noise (sd ``--noise``):
  the grade is a good but imperfect model of people;
- players: hidden skill ~ N(1500, 300); a game is won with the logistic chance
  1 / (1 + 10^(-(skill - difficulty) / 400)), the scale Glicko's expectation uses.

A first cohort plays until puzzles average ``--games`` games each; Spearman's rank correlation between
puzzle ratings and hidden difficulties is taken along the way. Then a second cohort of newcomers
plays against the now-rated puzzles: after each game, how far each rating is from the hidden skill,
its deviation, and the share within one deviation. Prints both as tables (median and p95 of the
error) and draws them to ``--plot`` (matplotlib: `pip install -e '.[bench]' -c constraints.txt`).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from app import ratings
from app.ratings import NEWCOMER, Glicko
from bench.stats import percentile, spearman

LEVELS = ["easy", "medium", "hard"]
LEVEL_MEDIANS = {"easy": 20.0, "medium": 60.0, "hard": 250.0}  # scores grow about geometrically with level
CHECKPOINTS = (0, 2, 5, 10, 20, 30, 40)
PLAYER_GAMES = (0, 1, 2, 5, 10, 15, 20, 30, 40)


@dataclass
class Puzzle:
    hidden: float
    rating: Glicko
    prior: float
    games: int = 0


def make_puzzles(count: int, noise: float, rng: random.Random) -> list[Puzzle]:
    puzzles = []
    for n in range(count):
        level = LEVELS[n % len(LEVELS)]
        score = LEVEL_MEDIANS[level] * math.exp(rng.gauss(0, 0.6))
        prior = ratings.prior(LEVELS, {"level": level, "score": score}, LEVEL_MEDIANS[level])
        puzzles.append(Puzzle(hidden=prior.rating + rng.gauss(0, noise), rating=prior, prior=prior.rating))
    return puzzles


def choose(player: Glicko, played: set[int], puzzles: list[Puzzle], rng: random.Random) -> int | None:
    """As GET /next: one at random among the closest unplayed puzzles on each side within the band, else the nearest."""
    candidates = [(abs(p.rating.rating - player.rating), i, p.rating.rating >= player.rating)
                  for i, p in enumerate(puzzles) if i not in played]
    if not candidates:
        return None
    above = sorted(c for c in candidates if c[2])[:10]
    below = sorted(c for c in candidates if not c[2])[:10]
    close = [i for distance, i, _ in above + below if distance <= ratings.BAND]
    return rng.choice(close) if close else min(above + below)[1]


def play(skill: float, player: Glicko, puzzle: Puzzle, rng: random.Random) -> Glicko:
    won = rng.random() < 1 / (1 + 10 ** (-(skill - puzzle.hidden) / 400))
    player, puzzle.rating = ratings.game(player, puzzle.rating, 1.0 if won else 0.0)
    puzzle.games += 1
    return player


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=600)
    parser.add_argument("--players", type=int, default=400, help="first cohort")
    parser.add_argument("--newcomers", type=int, default=200, help="second cohort, against rated puzzles")
    parser.add_argument("--games", type=int, default=40, help="games per puzzle the first cohort plays, on average")
    parser.add_argument("--noise", type=float, default=250.0, help="sd of hidden difficulty around the grade's prior")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--plot", type=Path, default=Path("docs/ratings/calibration.png"))
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    puzzles = make_puzzles(args.puzzles, args.noise, rng)
    hidden = [p.hidden for p in puzzles]
    print(f"{args.puzzles} puzzles (3 levels, hidden difficulty = prior + N(0, {args.noise:g})), "
          f"{args.players} players (skill ~ N(1500, 300)), then {args.newcomers} newcomers; seed {args.seed}")

    skills = [rng.gauss(1500, 300) for _ in range(args.players)]
    players = [NEWCOMER] * args.players
    played: list[set[int]] = [set() for _ in range(args.players)]
    recovery: list[tuple[float, float, float, int]] = []  # games per puzzle, Spearman, its p-th, min games
    total = 0
    for target in CHECKPOINTS:
        while total < target * args.puzzles:
            for p in rng.sample(range(args.players), args.players):
                chosen = choose(players[p], played[p], puzzles, rng)
                if chosen is None:
                    continue
                played[p].add(chosen)
                players[p] = play(skills[p], players[p], puzzles[chosen], rng)
                total += 1
                if total >= target * args.puzzles:
                    break
        games = [p.games for p in puzzles]
        recovery.append((total / args.puzzles, spearman([p.rating.rating for p in puzzles], hidden),
                         statistics.median(games), min(games)))
    print("\npuzzle ratings against hidden difficulty (first cohort)")
    print("| games per puzzle (mean) | median | fewest | Spearman |")
    print("| ---: | ---: | ---: | ---: |")
    for mean, rho, median, fewest in recovery:
        print(f"| {mean:.0f} | {median:.0f} | {fewest} | {rho:.3f} |")
    print(f"(the grade's prior alone: Spearman {spearman([p.prior for p in puzzles], hidden):.3f})")

    newcomer_skills = [rng.gauss(1500, 300) for _ in range(args.newcomers)]
    errors: dict[int, list[float]] = {g: [] for g in PLAYER_GAMES}
    deviations: dict[int, list[float]] = {g: [] for g in PLAYER_GAMES}
    within: dict[int, list[bool]] = {g: [] for g in PLAYER_GAMES}
    for skill in newcomer_skills:
        player, seen = NEWCOMER, set()
        for g in range(max(PLAYER_GAMES) + 1):
            if g in errors:
                errors[g].append(abs(player.rating - skill))
                deviations[g].append(player.rd)
                within[g].append(abs(player.rating - skill) <= player.rd)
            chosen = choose(player, seen, puzzles, rng)
            if chosen is None:
                break
            seen.add(chosen)
            player = play(skill, player, puzzles[chosen], rng)
    print("\nnewcomers against rated puzzles: |rating - hidden skill| after g games")
    print("| games | median error | p95 error | median deviation | within one deviation |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for g in PLAYER_GAMES:
        print(f"| {g} | {statistics.median(errors[g]):.0f} | {percentile(errors[g], 95):.0f} | "
              f"{statistics.median(deviations[g]):.0f} | {sum(within[g]) / len(within[g]):.0%} |")
    print(f"\nwork: {total} games of the first cohort, {args.newcomers * max(PLAYER_GAMES)} of the newcomers")
    if args.plot:
        draw(args.plot, recovery, errors, deviations, within, args)
        print(f"plot: {args.plot}")
    return 0


def draw(path: Path, recovery, errors, deviations, within, args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=110)
    means = [r[0] for r in recovery]
    left.plot(means, [r[1] for r in recovery], marker="o", color="#1f5fa8")
    left.axhline(0.9, color="#999999", linestyle="--", linewidth=1)
    left.set(title="Puzzles: ratings against hidden difficulty", xlabel="games per puzzle (mean)",
             ylabel="Spearman rank correlation", ylim=(min(0.8, min(r[1] for r in recovery) - 0.02), 1.0))
    left.annotate("target 0.9", (means[-1], 0.9), textcoords="offset points", xytext=(-50, -12), color="#666666")
    games = list(errors)
    right.plot(games, [statistics.median(errors[g]) for g in games], marker="o", color="#b5432a",
               label="median |rating - skill|")
    right.plot(games, [percentile(errors[g], 95) for g in games], linestyle=":", color="#b5432a", label="p95 |rating - skill|")
    right.plot(games, [statistics.median(deviations[g]) for g in games], marker="s", color="#3c8d3c",
               label="median deviation (rd)")
    right.set(title=f"{args.newcomers} newcomers against rated puzzles", xlabel="games played", ylabel="rating points")
    share = right.twinx()
    share.plot(games, [100 * sum(within[g]) / len(within[g]) for g in games], color="#555555", linestyle="--",
               label="% within one rd")
    share.set(ylabel="% within one deviation", ylim=(0, 100))
    lines = right.get_legend_handles_labels()[0] + share.get_legend_handles_labels()[0]
    labels = right.get_legend_handles_labels()[1] + share.get_legend_handles_labels()[1]
    right.legend(lines, labels, loc="center right", fontsize=8)
    figure.suptitle(f"Rating simulation: {args.puzzles} puzzles, {args.players} + {args.newcomers} players, "
                    f"noise {args.noise:g}, seed {args.seed}", fontsize=10)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
