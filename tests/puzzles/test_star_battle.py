"""Star Battle through the genre kit: its model against brute force and a second SAT backend, the published
pzprjs example and our puzzles pzprjs accepted, generated puzzles at each level (unique by z3, checked, graded,
hinted to the end), the generator's compiled bit-mask levels against the kit's array levels, and the picture."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from generators.star_battle import (
    ALLOWED,
    DIFFICULTY,
    LARGEST_SIDE,
    MIN_SIDE,
    PUZZLE_TYPE,
    TWO_STARS_FROM,
    StarBattleParams,
    check,
    cores,
    draw_stars,
    generate_puzzle,
    smallest,
    solve,
)
from solvers.common import Deadline
from solvers.kit import arrays
from solvers.kit.human import SHORT_ROUNDS
from solvers.kit.partition import moves, partition
from solvers.star_battle import kernel
from solvers.star_battle.picture import STAR, render
from solvers.star_battle.puzzlink import parse_url, to_url
from solvers.star_battle.rules import StarBattleAnswer, StarBattlePuzzle, model, model_of
from tests.conftest import REFERENCE, read_jsonl


def published() -> list[dict]:
    return read_jsonl(REFERENCE / "star-battle" / "pzprjs.jsonl")


def ours() -> list[dict]:
    return read_jsonl(REFERENCE / "star-battle" / "ours.jsonl")


def random_map(seed: int, size: int, stars: int = 1) -> StarBattlePuzzle:
    """Regions grown around a random valid placement, or (one time in three) around random cells: solvable or not."""
    rng = random.Random(seed)
    if rng.random() < 1 / 3:
        seeds = [[cell] for cell in rng.sample([(r, c) for r in range(size) for c in range(size)], size)]
    else:
        seeds = cores(draw_stars(size, stars, rng), rng)
    return StarBattlePuzzle(size=size, stars=stars, regions=partition(size, size, rng, seeds))


def brute_force(puzzle: StarBattlePuzzle) -> list[list[list[int]]]:
    """Every placement of one star per row and column (permutations) the rules accept."""
    n, found = puzzle.size, []
    for columns in itertools.permutations(range(n)):
        grid = [[int(c == columns[r]) for c in range(n)] for r in range(n)]
        if not check(puzzle, StarBattleAnswer(stars=grid)):
            found.append(grid)
    return found


@pytest.mark.parametrize("seed", range(30))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = random_map(seed, 5 + seed % 2)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle.regions)
        assert sorted(s["stars"] for s in outcome.solutions) == sorted(truth)


@pytest.mark.parametrize("seed", range(6))
def test_two_star_maps_agree_on_both_backends(seed: int) -> None:
    puzzle = random_map(seed, 10, 2)
    found = {backend: solve(puzzle, 50, Deadline.after(20), backend) for backend in ("cadical", "z3")}
    assert found["cadical"].count == found["z3"].count  # a map around random cells may have none
    if found["cadical"].count < 50:  # every answer found: the same ones
        assert sorted(map(str, found["cadical"].solutions)) == sorted(map(str, found["z3"].solutions))


@pytest.mark.parametrize("entry", published() + ours()[:6] + ours()[-2:], ids=lambda e: e["url"][-24:])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1
    assert outcome.solutions[0]["stars"] == entry["stars"]
    assert check(puzzle, StarBattleAnswer(stars=entry["stars"])) == []
    assert to_url(puzzle) == entry["url"]


def test_each_broken_rule_is_named_with_its_cells() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    stars = [row[:] for row in entry["stars"]]
    stars[0][1], stars[0][0] = 0, 1  # row 1's star one cell left, in its region still: two in column 1, none in 2
    broken = check(puzzle, StarBattleAnswer(stars=stars))
    assert sorted(v.rule for v in broken) == ["column-stars", "column-stars"]
    assert "column 1 holds 1 star: exactly 1, the answer has 2" in broken[0].message and [5, 0] in broken[0].cells
    assert "the answer has 0" in broken[1].message
    stars = [row[:] for row in entry["stars"]]
    stars[4][1] = 1  # beside row 6's star at r6c1
    broken = {v.rule: v for v in check(puzzle, StarBattleAnswer(stars=stars))}
    assert {"stars-touch", "row-stars"} <= set(broken)
    assert [4, 1] in broken["stars-touch"].cells and [5, 0] in broken["stars-touch"].cells


@pytest.mark.parametrize(("size", "stars", "level"), [(8, 1, "easy"), (8, 1, "medium"), (8, 1, "hard"), (10, 2, "hard")])
def test_generated_maps_are_balanced(size: int, stars: int, level: str) -> None:
    """No map of one huge region and a row of one-cell ones (each a star given away): at most one region under a
    third of the mean size, none past 2.5 times it, and a one-cell region only where easy needs it to begin."""
    for seed in range(3):
        made = generate_puzzle(StarBattleParams(size=size, stars=stars, difficulty=level), seed, Deadline.after(60))
        sizes = sorted(Counter(region for row in made.puzzle.regions for region in row).values())
        assert len(sizes) == size and sizes[-1] <= 2.5 * size, sizes
        assert sum(count < smallest(size, stars) for count in sizes) <= 1, sizes
        assert level == "easy" or sizes[0] > 1, sizes


def test_params_take_each_level_to_its_largest_side_and_refuse_past_it_saying_what_is_made() -> None:
    """A refusal is a 422 through the service: its message names every side made, per star count and level."""
    assert ALLOWED == ("one star on 5×5 to 13×13 at easy, 5×5 to 12×12 at medium and hard; two stars on 10×10 to "
                       "12×12 at medium and hard")
    for stars, levels in LARGEST_SIDE.items():
        low = MIN_SIDE if stars == 1 else TWO_STARS_FROM
        for level, side in levels.items():
            StarBattleParams(size=side, stars=stars, difficulty=level)
            StarBattleParams(size=low, stars=stars, difficulty=level)
            for size in (low - 1, side + 1, 14, 15):
                if size >= MIN_SIDE:
                    with pytest.raises(ValueError, match=f"{size}×{size} with {stars} stars? at {level} is not made: "
                                                         f"{ALLOWED} "):
                        StarBattleParams(size=size, stars=stars, difficulty=level)


LARGEST_SIDES = [(side, stars, level) for stars, levels in LARGEST_SIDE.items() for level, side in levels.items()]


@pytest.mark.parametrize(("size", "stars", "level"), LARGEST_SIDES)
def test_each_level_at_its_largest_side_is_made_unique_and_at_its_level(size: int, stars: int, level: str) -> None:
    made = generate_puzzle(StarBattleParams(size=size, stars=stars, difficulty=level), 0, Deadline.after(60))
    assert made.difficulty is not None and made.difficulty.level == level
    assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == level
    for backend in ("cadical", "z3"):
        assert PUZZLE_TYPE.solve(made.puzzle, 2, Deadline.after(60), backend).count == 1, backend
    assert PUZZLE_TYPE.check(made.puzzle, made.solution) == []
    sizes = sorted(Counter(region for row in made.puzzle.regions for region in row).values())
    assert len(sizes) == size and sizes[-1] <= 2.5 * size and sum(c < smallest(size, stars) for c in sizes) <= 1
    assert level == "easy" or sizes[0] > 1, sizes


@pytest.mark.parametrize("seed", range(2))
def test_hints_from_an_empty_grid_follow_the_solution_to_the_end(seed: int) -> None:
    made = generate_puzzle(StarBattleParams(size=5, difficulty=("hard", "medium")[seed]), seed, Deadline.after(60))
    n = made.puzzle.size
    grid: list[list[int | None]] = [[None] * n for _ in range(n)]
    for _ in range(n * n + 1):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(stars=grid), made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            assert value == made.solution.stars[r][c], hint.message  # never a step against the solution
            grid[r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")
    assert grid == made.solution.stars


class Masks:
    """One map's units (rows, columns, regions, each with ``stars`` stars) as the compiled kernel's bit masks, read
    back as cells: how the tests ask the generator's own levels and walk score (``kernel.solve``, ``kernel.nearness``)."""

    def __init__(self, regions: list[list[int]], stars: int):
        ids = np.asarray(regions, np.int64)
        self.n = len(regions)
        if ids.min() < 0 or ids.max() >= self.n * self.n:
            ids = np.unique(ids, return_inverse=True)[1].reshape(self.n, self.n).astype(np.int64)
        self.geometry, self.units, _ = kernel.layout(ids, stars)

    def known(self, answer: list[int] | None) -> np.ndarray:
        """An answer's stars and empty cells (each cell 1 or 0, row by row) as the kernel is told them; none when
        None."""
        known = np.zeros((2, int(self.geometry[kernel.WORDS])), np.int64)
        per, width = int(self.geometry[kernel.PER]), self.n + 1
        for i, value in enumerate(answer or []):
            r, c = divmod(i, self.n)
            known[1 - value, r // per] |= 1 << ((r % per) * width + c)
        return known

    def solve(self, level: int, answer: list[int] | None = None) -> list[list[int]] | None:
        """Each cell a star (1), empty (0) or open (-1) as the levels up to ``level`` (0 the rules alone, 1 short
        trials, 2 trials) decide, told the ``answer`` if one is given; None when the rules break (a map with no
        answer)."""
        ok, stars, empty_ = kernel.solve(self.geometry, self.units, level, SHORT_ROUNDS, self.known(answer))
        if not ok:
            return None
        star, empty = set(self.cells(*stars.tolist())), set(self.cells(*empty_.tolist()))
        return [[1 if (r, c) in star else 0 if (r, c) in empty else -1 for c in range(self.n)] for r in range(self.n)]

    def score(self, level: int) -> tuple[int, float, list[tuple[int, int]]]:
        """The walk's score of the map: the cells the level decides, its closeness, and the cells it leaves open."""
        counts = np.zeros(len(self.units), np.int64)
        decided, closeness, open_ = kernel.nearness(self.geometry, self.units, level, SHORT_ROUNDS, counts,
                                                    self.known(None))
        if decided < 0:
            return -1, 0.0, []
        return int(decided), float(closeness), self.cells(*open_.tolist())

    def cells(self, *words: int) -> list[tuple[int, int]]:
        """The cells of a set (its words), row by row."""
        per, width = int(self.geometry[kernel.PER]), self.n + 1
        return [(r, c) for r in range(self.n) for c in range(self.n) if words[r // per] >> ((r % per) * width + c) & 1]


def kit_levels(puzzle: StarBattlePuzzle, level: int) -> list[int] | None:
    """Each cell (row by row) 1, 0 or -1 (open) as the kit's array levels up to ``level`` decide; None when a rule
    breaks."""
    state = arrays.State(model(puzzle))
    broke = state.follow(None, None, set())
    for rounds in (2, None)[:level]:
        if not broke and min(state.values) < 0 and not state.trials(rounds, set()):
            broke = True
    return None if broke else state.values


def walked_map(seed: int) -> StarBattlePuzzle:
    """A random map (any side the generator makes, one or two stars) a few random region moves on, as the
    generator's walk leaves them."""
    rng = random.Random(seed)
    size = rng.choice([5, 6, 7, 8, 9, 10, 12, 14])
    puzzle = random_map(seed, size, 2 if size >= 10 and rng.random() < 0.5 else 1)
    regions = [row[:] for row in puzzle.regions]
    for _ in range(rng.randrange(8)):
        r, c = rng.randrange(size), rng.randrange(size)
        if targets := moves(regions, (r, c)):
            regions[r][c] = rng.choice(targets)
    return StarBattlePuzzle(size=size, stars=puzzle.stars, regions=regions)


@pytest.mark.parametrize("seed", range(40))
def test_the_bit_mask_levels_decide_what_the_kits_array_levels_decide(seed: int) -> None:
    """The generator's walk asks ``Masks`` (compiled); the grade asks the kit: the two must decide the same
    cells."""
    puzzle = random_map(seed, (6, 7, 8, 11, 14)[seed % 5], 1) if seed % 4 else random_map(seed, (10, 13)[seed % 8 // 4], 2)
    masks = Masks(puzzle.regions, puzzle.stars)
    for level in range(3):
        ours_ = masks.solve(level)
        assert (None if ours_ is None else [v for row in ours_ for v in row]) == kit_levels(puzzle, level), (seed, level)


@pytest.mark.parametrize("seed", range(40))
def test_the_bit_mask_levels_told_the_answer_decide_what_the_kit_decides_untold(seed: int) -> None:
    """The walk tells the levels its map's answer (the stars it grew the regions around, an answer of every map it
    walks to) so that they skip the trials that agree with it: on maps grown around a placement, told it, they
    decide at every level what the kit decides told nothing. Told a wrong answer they would skip a trial that
    breaks."""
    rng = random.Random(seed)
    size, stars = ((6, 7, 8, 11, 14)[seed % 5], 1) if seed % 4 else ((10, 13)[seed % 8 // 4], 2)
    placed = draw_stars(size, stars, rng)
    puzzle = StarBattlePuzzle(size=size, stars=stars, regions=partition(size, size, rng, cores(placed, rng)))
    answer = [v for row in placed for v in row]
    masks = Masks(puzzle.regions, puzzle.stars)
    for level in range(3):
        ours_ = masks.solve(level, answer)
        assert (None if ours_ is None else [v for row in ours_ for v in row]) == kit_levels(puzzle, level), (seed, level)


def test_the_walks_moves_are_the_partition_helpers() -> None:
    """The compiled walk moves a cell only where ``solvers.kit.partition.moves`` would: to a neighbouring region,
    its own staying joined and not empty; on every cell of many walked maps."""
    targets = np.zeros(4, np.int64)
    for seed in range(40):
        regions = walked_map(seed).regions
        grid = np.array(regions, np.int64)
        for r, c in itertools.product(range(len(regions)), repeat=2):
            found = kernel.moves(grid, r, c, targets)
            assert sorted(targets[:found].tolist()) == moves(regions, (r, c)), (seed, r, c)


def test_the_bit_mask_score_is_the_kits_reading_counted_unit_by_unit() -> None:
    """The walk keeps a move by ``Masks.score``: cells decided, then -Σ log(open cells + 1) over the rows, columns
    and regions in the order the cells meet them row by row (a float: the same order, the same sum, so the same
    seed makes the same puzzle), then the open cells, as the kit's array levels leave them on many walked maps;
    the same with the regions named otherwise."""
    outcomes: Counter[bool] = Counter()
    for seed in range(150):
        puzzle = walked_map(seed)
        n, regions = puzzle.size, puzzle.regions
        units: dict[object, list[tuple[int, int]]] = {}
        for r in range(n):
            for c in range(n):
                for unit in (("row", r), ("column", c), ("region", regions[r][c])):
                    units.setdefault(unit, []).append((r, c))
        relabelled = [[7 * region - 30 for region in row] for row in regions]
        masks = Masks(regions, puzzle.stars)
        assert [masks.cells(*unit) for unit in masks.units.tolist()] == list(units.values())  # the order summed
        for level in range(3):
            values = kit_levels(puzzle, level)
            if values is None:
                expected: tuple = (-1, 0.0, [])
            else:
                open_ = [(r, c) for r in range(n) for c in range(n) if values[r * n + c] < 0]
                expected = (n * n - len(open_),
                            -sum(math.log(sum(values[r * n + c] < 0 for r, c in cells) + 1) for cells in units.values()),
                            open_)
            outcomes[values is None] += 1
            assert masks.score(level) == expected, (seed, level, regions)
            assert Masks(relabelled, puzzle.stars).score(level) == expected, (seed, level, regions)
    assert outcomes[True] and outcomes[False], outcomes  # maps with no answer among them, and not only those


def test_a_two_star_model_has_its_counts() -> None:
    puzzle = random_map(3, 10, 2)
    m = model_of(10, 2, puzzle.regions)
    assert len(m.rules) == 10 + 10 + 81 + 10
    assert all(r.low == r.high == 2 for r in m.rules[:20] + m.rules[-10:]) and all(r.high == 1 for r in m.rules[20:-10])


def test_params_refuse_two_stars_at_easy() -> None:
    with pytest.raises(ValueError, match=f"two-star puzzles are medium or hard: .*{ALLOWED}"):
        StarBattleParams(size=10, stars=2, difficulty="easy")


def test_the_picture_draws_regions_and_stars() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, StarBattleAnswer(stars=entry["stars"]))
    assert svg.count(f'fill="{STAR}"') == 6  # a star per row
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 36 and played.count("m-fill") == 36


@pytest.mark.slow
def test_two_star_puzzles_are_unique_on_z3_checked_and_of_their_level() -> None:
    """The conformance suite makes the default one-star boards; two stars are their own search."""
    made = generate_puzzle(StarBattleParams(size=10, stars=2, difficulty="medium"), 1, Deadline.after(60))
    assert solve(made.puzzle, 10, Deadline.after(20), "z3").count == 1
    assert DIFFICULTY.grade(made.puzzle, Deadline.after(20)).level == "medium"
    assert check(made.puzzle, made.solution) == []


def test_the_service_refuses_a_side_past_its_level_with_a_422_naming_what_is_made(make_client) -> None:  # noqa: ANN001
    client = make_client()
    for query in ("size=13", "size=14&difficulty=easy", "size=14&stars=2&difficulty=hard"):
        response = client.post(f"/generate/star-battle?{query}")
        assert response.status_code == 422, (query, response.text)
        assert ALLOWED in response.text, (query, response.text)
