"""Ubongo generation: the pipeline steps and the type's registration.

In Ubongo the clue *is* the intended covering's outline, so clues cannot change while the covering
stays fixed. The pipeline's puzzle value is therefore the current arrangement (which pieces lie
where); its outline is the shape shown to the player, and the final answer is read from it.

Solution: pieces from the catalogue assembled one by one, each touching what is already placed,
preferring placements with many shared edges, inside a card-sized box (4×5 for 3 pieces, 5×6 for
4–5) and never enclosing a hole. In mode `hidden` the pieces come from the sets with the largest
total areas (``rare_piece_sets``): few other sets share such an area, and big pieces fit a shape in
few ways. Repair: a descent on the number of coverings (in mode `hidden`, with any pieces). Every
way to lift one piece and put it back elsewhere (in mode `hidden`, possibly as an unused piece) is
a move; the first move that leaves fewer coverings is taken, counting only up to the current count
so a useless move costs little; moves of pieces the second covering places differently come first,
and moves that would make the outline ragged (``MAX_PERIMETER``) are never made. The loop repeats
until the outline has exactly one covering.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache, partial
from importlib import resources
from pathlib import Path
from typing import Literal, NamedTuple

import numpy as np
from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, GenerationFailed, generate, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Cell, Deadline
from solvers.techniques.human import Grade
from solvers.ubongo import engine, kernel, picture, rules
from solvers.ubongo import techniques as human

Arrangement = tuple[tuple[str, frozenset[Cell]], ...]  # (piece, cells), in catalogue order
MAX_PERIMETER = 1.6  # outline edges per cell a repair may reach: card-like blobs, not combs of 1-wide slots
RARE_SHARE = 0.15  # hidden-mode cards start from the largest-area piece sets, at least this share of all sets
ABOVE = Grade(None, 0.0, 0, None)  # a card above the asked level, not graded further
WALK_TRIES = 100  # moves weighed per step of the walk toward a level
COUNT_CAP = 64  # coverings counted per candidate; more than this is "many"
KEY_WIDTH = 8  # bits per row of an outline key: wider than any card box
KICK_ROUNDS = 12  # repair rounds that may bring a walk's non-unique neighbour back to one covering
PIECE_SET_LEVELS = Path(str(resources.files("generators") / "ubongo_piece_sets.json"))  # written by ``count_piece_set_levels``
PIECE_SET_DRAWS = 40  # draws per piece set behind each row of that table


class UbongoParams(BaseModel):
    pieces: int = Field(3, ge=3, le=5, description="How many pieces the card uses (3-5).")
    mode: rules.Mode = Field("given", description="`given`: the card names its pieces; `hidden`: only how many.")
    catalogue: rules.CatalogueName = Field("standard", description="`standard` (12 pieces) or `article` (7).")
    size: int | None = Field(None, ge=3, le=5, description="Alias of `pieces`, like the other types' `size`.")
    difficulty: Literal["easy", "medium", "hard"] = Field(
        human.DIFFICULTY.default,
        description="How much a person must try: `easy` every piece follows from where pieces fit and the "
                    "sizes of cut-off regions; `medium` also checkerboard colours, or one placement tried and "
                    "taken back; `hard` trying pieces at a cell, several dead ends.")

    @model_validator(mode="after")
    def _size_is_pieces(self) -> UbongoParams:
        if self.size is not None:
            if "pieces" in self.model_fields_set and self.pieces != self.size:
                raise ValueError("give `pieces` or its alias `size`, not two different values")
            self.pieces, self.size = self.size, None
        return self


def card_box(pieces: int) -> tuple[int, int]:
    """(rows, cols) a card of this many pieces must fit in, landscape like the printed cards."""
    return (4, 5) if pieces <= 3 else (5, 6)


def outline(arrangement: Arrangement) -> set[Cell]:
    return {cell for _, cells in arrangement for cell in cells}


@lru_cache(maxsize=256)
def outline_key(arrangement: Arrangement) -> int:
    """The outline up to translation as one integer, rows ``KEY_WIDTH`` bits apart: how the walks remember
    the cards they met, and what the covering count and the grade read. Kept for the last cards: a repair
    round, the proof before it and the grade after ask for the same card's key."""
    cells = [cell for _, cells in arrangement for cell in cells]
    rows, cols = zip(*cells, strict=True)
    shift = min(rows) * KEY_WIDTH + min(cols)
    return sum(1 << (r * KEY_WIDTH + c - shift) for r, c in cells)


@cache
def rare_piece_sets(catalogue: str, pieces: int, share: float = RARE_SHARE) -> list[tuple[str, ...]]:
    """The ``pieces``-subsets of the catalogue with the largest total areas, whole area classes from
    the largest down until they hold ``share`` of all subsets (variety), in catalogue order.

    In mode hidden every subset whose total equals the card's area is a suspect, and the area check
    is the solver's first prune; large totals are rare (4 of the 12 standard pieces are pentominoes),
    and big pieces fit a shape in few ways, so such a card starts from a handful of coverings rather
    than hundreds."""
    sizes = {name: len(cells) for name, cells in rules.catalogue_pieces(catalogue).items()}
    subsets = list(itertools.combinations(sizes, pieces))
    per_area = Counter(sum(sizes[p] for p in subset) for subset in subsets)
    kept, total = [], 0
    for area in sorted(per_area, reverse=True):
        kept.append(area)
        total += per_area[area]
        if total >= share * len(subsets):
            break
    return [subset for subset in subsets if sum(sizes[p] for p in subset) in kept]


PieceSets = tuple[list[tuple[str, ...]], list[float]]  # piece sets and their cumulative weights, as rng.choices takes them


def count_piece_set_levels(catalogue: str, piece_set: tuple[str, ...], draws: int = PIECE_SET_DRAWS) -> list[int]:
    """How many of ``draws`` cards drawn with exactly these pieces (seeds 0..draws-1) grade at each level, then
    how many beyond the last and how many draws made no unique card: the row ``piece_set_weights`` reads, the
    same on every machine."""
    params = UbongoParams(pieces=len(piece_set), catalogue=catalogue)
    levels = human.SOLVER.level_names
    counts = [0] * (len(levels) + 2)
    for seed in range(draws):
        steps = UbongoSteps(params, Deadline.never(), piece_sets=([piece_set], [1.0]))
        try:
            arrangement = generate_arrangement(params, seed, Deadline.never(), steps).puzzle
        except GenerationFailed:
            counts[-1] += 1
            continue
        graded = human.grade_within(steps.puzzle(arrangement), levels[-1], Deadline.never())
        counts[levels.index(graded.level) if graded is not None else len(levels)] += 1
    return counts


@cache
def _piece_set_table() -> dict[str, dict[str, dict[str, list[int]]]]:
    return json.loads(PIECE_SET_LEVELS.read_text())


@cache
def piece_set_weights(catalogue: str, pieces: int, level: str) -> PieceSets:
    """Mode given, a card of ``level``: every piece set, weighted by the share of its draws that grade at the
    level (``PIECE_SET_LEVELS``; one added to that count and two to the draws, so that no set that makes cards
    at all is ruled out).

    Some sets never make a card of some level (the 40 recorded draws of I2 L3 O4 are all easy), and a walk keeps
    its pieces, so a draw from such a set only ends in a new draw. Weighting by the share keeps each set's part
    among the cards of the level close to its part among drawn cards of that level."""
    table = _piece_set_table()[catalogue][str(pieces)]
    column = human.SOLVER.level_names.index(level)
    sets, cumulative, total = [], [], 0.0
    for names, counts in table.items():
        if sum(counts[:-1]):  # some draw made a card
            total += (counts[column] + 1) / (sum(counts) + 2)
        sets.append(tuple(names.split()))
        cumulative.append(total)
    return sets, cumulative


@cache
def _catalogue_orientations(catalogue: str) -> tuple[np.ndarray, ...]:
    """Every catalogue piece's orientations for ``engine.card_placements`` and the compiled walk step: (start
    of each orientation's cells, one past the last included; rows; columns; each piece's first orientation,
    one past the last included)."""
    start, rows, cols, first = [0], [], [], [0]
    for piece in rules.CATALOGUES[catalogue]:
        for orient in rules.piece_orientations(catalogue, piece):
            rows.extend(r for r, _ in orient)
            cols.extend(c for _, c in orient)
            start.append(len(rows))
        first.append(len(start) - 1)
    return tuple(np.array(a, np.int64) for a in (start, rows, cols, first))


@cache
def _orientation_arrays(catalogue: str, piece: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One piece's orientations as ``engine.card_placements`` takes them: the starts of its orientations'
    cells in the catalogue's arrays, and those arrays."""
    start, rows, cols, first = _catalogue_orientations(catalogue)
    p = list(rules.CATALOGUES[catalogue]).index(piece)
    return start[first[p]:first[p + 1] + 1], rows, cols


class Placements(NamedTuple):
    """A piece's placements against a rest (``engine.card_placements``), kept as arrays: a walk or a repair
    weighs many and builds few."""

    contacts: list[int]  # edges shared with the rest
    keys: list[int]  # the union's ``outline_key``
    rows: np.ndarray  # the piece's cells, a row per placement
    cols: np.ndarray

    def cells(self, i: int) -> frozenset[Cell]:
        return frozenset(zip(self.rows[i].tolist(), self.cols[i].tolist(), strict=True))


def _placed(catalogue: str, piece: str, rest: list[Cell], box: tuple[int, int], most_edges_per_cell: float = math.inf
            ) -> Placements:
    """Every placement of ``piece`` touching ``rest`` that keeps the union inside ``box``, connected and
    without a hole, with at most ``most_edges_per_cell`` outline edges per cell: the most edges shared
    with ``rest`` first, then by sorted cells (a fixed order, so the same seed makes the same card)."""
    found, contacts, keys, rows, cols = engine.card_placements(
        np.array([r for r, _ in rest], np.int64), np.array([c for _, c in rest], np.int64),
        *_orientation_arrays(catalogue, piece), box[0], box[1], most_edges_per_cell, KEY_WIDTH)
    return Placements(contacts[:found].tolist(), keys[:found].tolist(), rows, cols)


def _place(catalogue: str, piece: str, rest: set[Cell], box: tuple[int, int], rng: random.Random
           ) -> frozenset[Cell] | None:
    """A placement of ``piece`` against ``rest`` (see ``_placed``), weighted towards many shared edges
    (compact cards); None if there is none."""
    if not rest:
        orient = rng.choice(rules.piece_orientations(catalogue, piece))
        return frozenset(orient)
    options = _placed(catalogue, piece, list(rest), box)
    if not options.contacts:
        return None
    return options.cells(rng.choices(range(len(options.contacts)), weights=[4 ** c for c in options.contacts])[0])


def _grown_length(size: int, more: int, length: int) -> int:
    """The length an open-addressing table of ``size`` keys needs for ``more`` new ones, staying at most half full
    so that probes stay short (a power of two), or 0 if its ``length`` will do."""
    return 0 if 2 * (size + more) <= length else 1 << (4 * (size + more)).bit_length()


class OutlineSet:
    """Outline keys a walk has visited or a repair has moved to, in the open-addressing table the compiled walk
    step and repair round read and add to."""

    def __init__(self, room: int = 256):
        self.table = np.zeros(room, np.uint64)
        self.size = 0

    def add(self, key: int) -> None:
        self.make_room(1)
        self.size += kernel.visit(self.table, np.uint64(key))

    def make_room(self, more: int) -> None:
        if length := _grown_length(self.size, more, len(self.table)):
            old = self.table[self.table != 0]
            self.table = np.zeros(length, np.uint64)
            for key in old:
                kernel.visit(self.table, key)


@cache
def _widest_piece(catalogue: str) -> int:
    start = _catalogue_orientations(catalogue)[0]
    return int(np.diff(start).max())


class CountTable:
    """Covering counts of the outlines an attempt has weighed (``solvers.ubongo.kernel.remember``: exact, or a lower
    bound where a count stopped at its cap), in open-addressing tables the compiled repair round reads and adds
    to as well."""

    def __init__(self, room: int = 256):
        self.table = np.zeros(room, np.uint64)
        self.values = np.zeros(room, np.int64)
        self.size = 0

    def get(self, key: int, cap: int) -> int:
        """The count up to ``cap`` if it is known, else -1."""
        return int(kernel.remembered(self.table, self.values, np.uint64(key), cap))

    def put(self, key: int, count: int, cap: int) -> None:
        self.make_room(1)
        self.size += kernel.remember(self.table, self.values, np.uint64(key), count, cap)

    def make_room(self, more: int) -> None:
        if length := _grown_length(self.size, more, len(self.table)):
            full = self.table != 0
            old_keys, old_values = self.table[full], self.values[full]
            self.table, self.values = np.zeros(length, np.uint64), np.zeros(length, np.int64)
            kernel.refile(self.table, self.values, old_keys, old_values)


class MoveArrays:
    """A card as the compiled walk step and repair round take it (``kernel.Card``), and the moves they chose, by
    slot (``kernel.Chosen``)."""

    def __init__(self, steps: UbongoSteps, arrangement: Arrangement, lift_order: list[str], seed: int):
        names = steps.names
        self.steps, self.cards, self.seed = steps, arrangement, np.uint64(seed)
        params = steps.params
        used = [name for name, _ in arrangement]
        rows, cols, owners = [], [], []
        for i, (_, cells) in enumerate(arrangement):
            for r, c in cells:
                rows.append(r)
                cols.append(c)
                owners.append(i)
        swaps = [names.index(n) for n in names if n not in used] if params.mode == "hidden" else []
        box_rows, box_cols = card_box(params.pieces)
        self.card = kernel.Card(np.array(rows, np.int64), np.array(cols, np.int64), np.array(owners, np.int64),
                                np.array([used.index(name) for name in lift_order], np.int64),
                                np.array([names.index(name) for name in used], np.int64), np.array(swaps, np.int64),
                                *_catalogue_orientations(params.catalogue), box_rows, box_cols, MAX_PERIMETER, KEY_WIDTH)
        widest = _widest_piece(params.catalogue)
        self.chosen = kernel.Chosen(key=np.zeros(3, np.uint64), move=np.full((3, 2), -1, np.int64),
                                    rows=np.zeros((3, widest), np.int64), cols=np.zeros((3, widest), np.int64),
                                    path=np.zeros((3, params.pieces + 2), np.int64))
        self.resume = np.zeros(2, np.int64)

    def holds(self, slot: int) -> bool:
        return self.chosen.move[slot, 1] >= 0

    def arrangement(self, slot: int) -> Arrangement:
        lifted, piece = self.chosen.move[slot].tolist()
        name = self.steps.names[piece]
        size = len(rules.piece_orientations(self.steps.params.catalogue, name)[0])
        cells = frozenset(zip(self.chosen.rows[slot, :size].tolist(), self.chosen.cols[slot, :size].tolist(), strict=True))
        others = {other: c for i, (other, c) in enumerate(self.cards) if i != lifted}
        return self.steps._ordered({**others, name: cells})


class RepairRound(MoveArrays):
    """One round of ``UbongoSteps.repair`` as the compiled ``repair_round`` takes it: the pieces the second
    covering places differently lifted first, then the others."""

    def __init__(self, steps: UbongoSteps, arrangement: Arrangement, differ: list[str], same: list[str], current: int,
                 seed: int):
        super().__init__(steps, arrangement, differ + same, seed)
        self.first_same, self.current = len(differ), current

    def run(self) -> Arrangement | None:
        """The first move leaving fewer coverings, else the first leaving as many to an outline not seen yet,
        else None; a count the kernel hands back (slices of search, or a full table) made here, between its
        calls."""
        steps, params = self.steps, self.steps.params
        pieces = steps._allowed(self.cards)
        piece_set = human.piece_set(params.catalogue, pieces, params.pieces, params.mode == "given")
        while True:
            steps.deadline.check()
            steps.seen.make_room(1)
            outcome, added_seen, added_counts = kernel.repair_round(
                self.card, self.first_same, piece_set, self.current, steps.seen.table, steps.counted.table,
                steps.counted.values, steps.counted.size, self.seed, self.resume, self.chosen)
            steps.seen.size += added_seen
            steps.counted.size += added_counts
            if outcome != kernel.COUNT_NEEDED:
                break
            steps._count(int(self.chosen.key[kernel.LONG]), pieces, self.current + 1)  # in slices; grows the table
            self.chosen.move[kernel.LONG] = -1
        for slot in (kernel.IMPROVED, kernel.SIDEWAYS):
            if self.holds(slot):
                return self.arrangement(slot)
        return None


class UbongoSteps:
    def __init__(self, params: UbongoParams, deadline: Deadline, unique: Callable[[Arrangement], bool] | None = None,
                 piece_sets: PieceSets | None = None):
        """``unique`` proves a card has exactly one covering (a walk toward a level grades it in the same call);
        by default the compiled count. ``piece_sets``: mode given, the sets a card draws its pieces from and
        their weights (``piece_set_weights``); by default any pieces, all alike."""
        self.params = params
        self.piece_sets = piece_sets
        self.deadline = deadline  # for the counts a repair makes between the pipeline's own checks
        self.box = card_box(params.pieces)
        self.names = list(rules.CATALOGUES[params.catalogue])
        self.unique = unique or self._one_covering

    def _ordered(self, placed: dict[str, frozenset[Cell]]) -> Arrangement:
        return tuple((name, placed[name]) for name in self.names if name in placed)

    def forget(self) -> None:
        """A new attempt: what the last one weighed is no longer needed."""
        self.seen = OutlineSet()  # outlines a repair moved to or from in this attempt
        self.counted = CountTable()  # covering counts of the outlines weighed in this attempt

    def random_solution(self, rng: random.Random) -> Arrangement:
        self.forget()
        for _ in range(100):
            if self.params.mode == "hidden":
                pieces = list(rng.choice(rare_piece_sets(self.params.catalogue, self.params.pieces)))
            elif self.piece_sets is not None:
                sets, cumulative = self.piece_sets
                pieces = list(rng.choices(sets, cum_weights=cumulative)[0])
            else:
                pieces = rng.sample(self.names, self.params.pieces)
            placed: dict[str, frozenset[Cell]] = {}
            for piece in sorted(pieces, key=lambda p: -len(rules.catalogue_pieces(self.params.catalogue)[p])):
                cells = _place(self.params.catalogue, piece, outline(self._ordered(placed)), self.box, rng)
                if cells is None:
                    break
                placed[piece] = cells
            else:
                return self._ordered(placed)
        raise GenerationFailed("no card-sized arrangement found")  # only ever with one piece set forced

    def clues(self, solution: Arrangement, rng: random.Random) -> Arrangement:
        return solution

    def puzzle(self, arrangement: Arrangement) -> rules.UbongoPuzzle:
        cells = outline(arrangement)
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        rows = max(r for r, _ in cells) - r0 + 1
        cols = max(c for _, c in cells) - c0 + 1
        shape = ["".join("#" if (r0 + r, c0 + c) in cells else "." for c in range(cols)) for r in range(rows)]
        if self.params.mode == "hidden":
            return rules.UbongoPuzzle(shape=shape, catalogue=self.params.catalogue, mode="hidden",
                                      piece_count=self.params.pieces)
        return rules.UbongoPuzzle(shape=shape, catalogue=self.params.catalogue, mode="given",
                                  pieces=[name for name, _ in arrangement])

    def answer(self, arrangement: Arrangement) -> rules.UbongoAnswer:
        """The arrangement in the puzzle's coordinates (the outline's top-left at [0, 0])."""
        cells = outline(arrangement)
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        return rules.UbongoAnswer(placements=[
            rules.Placement(piece=name, cells=[[r - r0, c - c0] for r, c in sorted(piece_cells)])
            for name, piece_cells in arrangement
        ])

    def other_solution(self, arrangement: Arrangement, solution: Arrangement, deadline: Deadline
                       ) -> Arrangement | None:
        """A covering of the current outline other than the current arrangement, in its coordinates. Whether
        there is one is asked first of the compiled count (``unique``), which builds no covering: the last
        call of every draw finds none, and only a card with several needs the other one built."""
        if self.unique(arrangement):
            return None
        pieces = self._allowed(arrangement)
        # Three counted and two kept, as ``rules.solve`` asks for two solutions: the same second covering.
        _, coverings, _, _ = rules.compiled_search(outline(arrangement), self.params.catalogue, pieces,
                                                   self.params.pieces, self.params.mode == "given", 3, deadline, keep=2)
        mine = set(arrangement)
        for covering in coverings:
            theirs = {(pieces[k], frozenset(cells)) for k, cells in covering}
            if theirs != mine:
                return self._ordered(dict(theirs))
        return None

    def _allowed(self, arrangement: Arrangement) -> tuple[str, ...]:
        """The pieces a covering of the card may use (``rules.allowed_pieces``)."""
        return tuple(self.names) if self.params.mode == "hidden" else tuple(name for name, _ in arrangement)

    def _one_covering(self, arrangement: Arrangement) -> bool:
        return self.coverings(arrangement, 2) == 1

    def coverings(self, arrangement: Arrangement, cap: int = COUNT_CAP, key: int | None = None) -> int:
        """How many coverings the arrangement's outline (``key``, if known) has, counted only up to
        ``cap``: a repair asks "fewer than the best so far?", and most candidates answer no after a
        covering or two."""
        return self._count(outline_key(arrangement) if key is None else key, self._allowed(arrangement), cap)

    def _count(self, key: int, pieces: tuple[str, ...], cap: int) -> int:
        """``coverings`` of the outline ``key`` with these allowed pieces, remembered for this attempt."""
        known = self.counted.get(key, cap)
        if known >= 0:
            return known
        count = rules.count_outline(key, KEY_WIDTH, self.params.catalogue, pieces, self.params.pieces,
                                    self.params.mode == "given", cap, self.deadline)
        self.counted.put(key, count, cap)
        return count

    def repair(self, arrangement: Arrangement, solution: Arrangement, other: Arrangement, rng: random.Random
               ) -> Arrangement | None:
        """First improvement over every one-piece move: lift one piece and put it (in mode hidden, or an unused
        piece) back anywhere the card box allows, never making the outline ragged (``MAX_PERIMETER``: uniqueness
        comes easily to a comb of slots; keep the card a blob). The first move leaving fewer coverings is taken,
        the pieces that ``other`` places differently tried first, the most shared edges first among them (so
        the card stays compact); failing that, a move leaving as many to an outline not seen yet (a plateau
        walk); failing that, None, and the pipeline restarts. One compiled call (``RepairRound``).

        Counting stops at the current count, so a move that is no better costs a covering or two;
        weighing every move rather than a few random ones is what gets the last step from 2 to 1."""
        differ = [name for name, cells in arrangement if (name, cells) not in other]
        same = [name for name, cells in arrangement if (name, cells) in other]
        rng.shuffle(differ)
        rng.shuffle(same)
        current = self.coverings(arrangement)
        self.seen.add(outline_key(arrangement))
        return RepairRound(self, arrangement, differ, same, current, rng.getrandbits(64)).run()


def generate_arrangement(params: UbongoParams, seed: int, deadline: Deadline, steps: UbongoSteps | None = None
                         ) -> Generated:
    """A card with exactly one covering, of any difficulty, as its arrangement (puzzle and solution
    both): what a walk toward a level starts from, with no models built for cards it moves on from."""
    result = generate(steps or UbongoSteps(params, deadline), seed, deadline, max_rounds=60, max_restarts=30)
    result.solution = result.puzzle
    return result


def modelled(steps: UbongoSteps, result: Generated) -> Generated:
    """A generated arrangement as the puzzle and answer models."""
    arrangement = result.puzzle
    result.puzzle = steps.puzzle(arrangement)
    result.solution = steps.answer(arrangement)
    return result


def generate_unique(params: UbongoParams, seed: int, deadline: Deadline) -> Generated:
    """A card with exactly one covering, of any difficulty."""
    return modelled(UbongoSteps(params, deadline), generate_arrangement(params, seed, deadline))


def generate_puzzle(params: UbongoParams, seed: int, deadline: Deadline) -> Generated:
    """A card of the asked level: unique cards drawn, each walked toward the level (``TowardLevel``)."""
    toward = TowardLevel(params, deadline)
    made = generate_at_level(lambda draw, limit: generate_arrangement(params, draw, limit, toward.steps), toward.grade,
                             params.difficulty, seed, deadline, adjust=toward)
    return modelled(toward.steps, made)


@cache
def _technique_levels() -> np.ndarray:
    return np.array([level for level, _ in human.SOLVER.techniques()], np.int64)


class WalkStep(MoveArrays):
    """One step of ``TowardLevel``'s walk as the compiled ``walk_step`` takes it, and the moves it chose, by
    the kernel's slots: ``UNIQUE`` the unique card it moves to (of the level if one was found), ``SEVERAL``
    the first card with several coverings (repaired when no unique card is a move away), ``LONG`` a card
    whose count the caller makes in slices."""

    def __init__(self, toward: TowardLevel, arrangement: Arrangement, lift_order: list[str], seed: int):
        super().__init__(toward.steps, arrangement, lift_order, seed)
        params = toward.params
        self.toward = toward
        self.pieces = toward._pieces(arrangement)
        given = params.mode == "given"
        self.piece_set = human.piece_set(params.catalogue, self.pieces if given else toward.allowed, params.pieces, given)
        self.tried = 0

    def run(self, deadline: Deadline) -> int:
        """Weighs moves from where the last call stopped; its outcome (``walk_step``)."""
        deadline.check()
        toward, level = self.toward, self.toward.level_index
        toward.visited.make_room(WALK_TRIES + 1)
        outcome, tried, added = kernel.walk_step(self.card, self.piece_set, level, level, _technique_levels(),
                                                 toward.visited.table, self.seed, WALK_TRIES - self.tried, self.resume,
                                                 self.chosen)
        self.tried += tried
        toward.visited.size += added
        return outcome

    def grade(self) -> Grade:
        """The grade of the unique card the compiled step chose, from the path it found while counting."""
        path = self.chosen.path
        steps, solved, broken = path[:, 0].tolist()
        return human.grade_of((steps, bool(solved), bool(broken)), path[0, 1:], path[1, 1:]) or ABOVE

    def take_long(self, of_level: bool, unique: bool) -> bool:
        """The caller's verdict on the card in slot ``LONG``, which fills the slot it belongs to; whether
        the step has found its card."""
        slot = kernel.UNIQUE if unique else kernel.SEVERAL
        chosen = self.chosen
        if of_level or not self.holds(slot):
            for array in (chosen.key, chosen.move, chosen.rows, chosen.cols):  # not the path: unique_grade filed its grade
                array[slot] = array[kernel.LONG]
        chosen.move[kernel.LONG] = -1
        return of_level


class TowardLevel:
    """A walk over unique cards: one piece lifted and put back elsewhere (in mode hidden, or an unused
    piece put down in its place), kept only if the card still has exactly one covering; the first such
    card of the asked level ends the walk, else the walk moves to the first unique card it has not
    visited. A move costs a covering count and a grade, far less than drawing a new card, and a card
    a move away is often of another level. Moves are weighed as a repair weighs them, the most shared
    edges first, but among equals in an order hashed from one seed per step, so that a whole step is one
    compiled call (``solvers.ubongo.kernel.walk_step``)."""

    def __init__(self, params: UbongoParams, deadline: Deadline):
        self.params, self.level = params, params.difficulty
        self.level_index = human.SOLVER.level_names.index(self.level)
        given = params.mode == "given"
        self.steps = UbongoSteps(params, deadline, self._graded_unique,
                                 piece_set_weights(params.catalogue, params.pieces, self.level) if given else None)
        self.graded: dict[tuple[int, tuple[str, ...]], Grade] = {}
        self.visited = OutlineSet()
        self.allowed = tuple(self.steps.names)  # mode hidden: every catalogue piece

    def grade(self, arrangement: Arrangement, deadline: Deadline) -> Grade:
        """The card's grade, or ``ABOVE`` for a card beyond the asked level (not graded further)."""
        return self.unique_grade(outline_key(arrangement), self._pieces(arrangement), lambda: arrangement,
                                 deadline) or ABOVE  # a draw is unique

    def _graded_unique(self, arrangement: Arrangement) -> bool:
        """A draw's proof of uniqueness that grades it in the same compiled call, for ``grade`` to find."""
        return self.unique_grade(outline_key(arrangement), self._pieces(arrangement), lambda: arrangement,
                                 self.steps.deadline) is not None

    def _pieces(self, arrangement: Arrangement) -> tuple[str, ...]:
        """What besides the outline tells cards apart: the pieces in mode given, nothing in mode hidden."""
        return tuple(name for name, _ in arrangement) if self.params.mode == "given" else ()

    def unique_grade(self, key: int, pieces: tuple[str, ...], card: Callable[[], Arrangement], deadline: Deadline
                     ) -> Grade | None:
        """The grade of a card (its outline ``key`` and ``_pieces``; ``card`` builds it, needed only for a long
        count) if it has exactly one covering, else None; ``ABOVE`` beyond the level: counted and graded in
        one compiled call, each card once."""
        known = self.graded.get((key, pieces))
        if known is not None:
            return known  # only unique cards are graded
        given = self.params.mode == "given"
        found = human.unique_grade_within(key, KEY_WIDTH, self.params.catalogue, pieces if given else self.allowed,
                                          self.params.pieces, given, self.level, deadline)
        if found is None:  # a long count: in slices between deadline checks
            arrangement = card()
            if self.steps.coverings(arrangement, 2, key) != 1:
                return None
            graded = human.grade_within(self.steps.puzzle(arrangement), self.level, deadline)
        else:
            unique, graded = found
            if not unique:
                return None
        self.graded[(key, pieces)] = graded = graded or ABOVE
        return graded

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline
                 ) -> Generated | None:
        self.steps.forget()
        names = [name for name, _ in generated.solution]
        rng.shuffle(names)
        step = self.step(generated.solution, names, rng.getrandbits(64), deadline)
        if step.holds(kernel.UNIQUE):
            moved = step.arrangement(kernel.UNIQUE)
            key = int(step.chosen.key[kernel.UNIQUE])
            if (key, step.pieces) not in self.graded:  # generate_at_level grades it next: the step has its path
                self.graded[(key, step.pieces)] = step.grade()
        elif step.holds(kernel.SEVERAL):
            moved = self._repaired(step.arrangement(kernel.SEVERAL), rng, deadline)
        else:
            moved = None
        if moved is None:
            return None
        return Generated(moved, moved, generated.stats)

    def step(self, arrangement: Arrangement, lift_order: list[str], seed: int, deadline: Deadline) -> WalkStep:
        """The moves one step weighs, lifting pieces in ``lift_order``, and the cards it chose (``WalkStep``):
        one compiled call, and more only around a card whose count needs slices of search."""
        step = WalkStep(self, arrangement, lift_order, seed)
        while step.run(deadline) == kernel.COUNT_NEEDED:
            graded = self.unique_grade(int(step.chosen.key[kernel.LONG]), step.pieces,
                                       partial(step.arrangement, kernel.LONG), deadline)
            if step.take_long(graded is not None and graded.level == self.level, graded is not None) \
                    or step.tried >= WALK_TRIES:
                break
        return step

    def _repaired(self, arrangement: Arrangement, rng: random.Random, deadline: Deadline) -> Arrangement | None:
        """No unique card a move away: the first neighbour tried, repaired as a draw is (``repair``)
        until it has one covering again. It starts a covering or two from unique, so it takes fewer
        rounds than a new draw, and it stays near the cards walked so far."""
        steps = self.steps
        for _ in range(KICK_ROUNDS):
            deadline.check()
            other = steps.other_solution(arrangement, arrangement, deadline)
            if other is None:
                self.visited.add(outline_key(arrangement))
                return arrangement
            arrangement = steps.repair(arrangement, arrangement, other, rng)
            if arrangement is None:
                return None
        return None


def warm_up() -> None:
    """Load the compiled covering search and grader, a walk step and a repair round (which compile the count and
    the grade again for their own calls), so no request compiles them, and the piece sets' table."""
    engine.warm_up()
    human.warm_up()
    _piece_set_table()
    toward = TowardLevel(UbongoParams(), Deadline.never())
    toward.steps.forget()
    card = generate_arrangement(toward.params, 0, Deadline.never(), toward.steps).puzzle
    names = [name for name, _ in card]
    toward.step(card, names, 0, Deadline.never())
    RepairRound(toward.steps, card, names[:1], names[1:], 1, 0).run()


PUZZLE_TYPE = PuzzleType(
    name="ubongo",
    id_prefix="ubo",
    summary="Cover the shape exactly with polyomino pieces (rotations and flips allowed), each used at most once.",
    params_model=UbongoParams,
    puzzle_model=rules.UbongoPuzzle,
    answer_model=rules.UbongoAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    render=picture.render,
    backends=rules.BACKENDS,
    catalogue=rules.catalogue_facts(),
    difficulty=human.DIFFICULTY,
    warm_up=warm_up,
    play_mode="pieces",
)
