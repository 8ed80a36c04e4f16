"""Sudoku as a person solves it: techniques in levels, for grading and hints.

The state is the grid with its candidates (pencil marks): every undecided cell keeps the digits its
row, column and box still allow, less what a technique has eliminated. A step places a digit or
eliminates candidates; placing a digit takes it out of the cell's peers at once, as a person pencils.

The levels follow the usual ladder (Sudoku Explainer, HoDoKu, Tatham's Solo): singles; the
intersections and subsets of one unit; fish and wings across units; chains. The chains are XY-chains
(bivalue cells linked by a shared digit) and forcing chains: assume a candidate, follow singles for a
limited number of rounds, and a broken rule (a cell without candidates, a digit without a place)
eliminates the candidate. A puzzle that needs more than that (nested assumptions) has no level.

A hint's ``decide`` lists ``{"cell": [r, c], "value": d}`` for a placed digit and ``{"cell": [r, c],
"value": d, "eliminate": true}`` for a candidate taken out. A player's state is their digits plus,
optionally, their pencil marks (``candidates``): a cell's marks narrow its candidates, so eliminations
a player has applied are not hinted again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel, Field

from solvers.common import Cell, Deadline, InvalidInput, compile_lock
from solvers.sudoku import engine, kernel
from solvers.sudoku.rules import SudokuAnswer, SudokuPuzzle, units
from solvers.techniques.human import Contradiction, Difficulty, Grade, Hint, HumanSolver, Level, Step, Technique, cell_name

FORCING_ROUNDS = 12  # how many rounds of singles a forcing chain may follow (a person's working memory)
XY_CHAIN_CELLS = 12  # the longest XY-chain looked for


class Decision(NamedTuple):
    """One change to the candidates: ``digit`` placed in ``cell``, or (``eliminate``) taken out of it."""

    cell: Cell
    digit: int
    eliminate: bool = False


@cache
def digits_of(mask: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


def bit(digit: int) -> int:
    return 1 << (digit - 1)


@dataclass(frozen=True)
class Board:
    """What the techniques look up again and again, computed once per size (flat cell indices)."""

    n: int
    units: tuple[tuple[int, ...], ...]  # rows, columns, boxes
    names: tuple[str, ...]  # "row 3", "column 5", "box 4"
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[frozenset[int], ...]
    single_order: tuple[int, ...]  # units in the order hidden singles are looked for: boxes, rows, columns
    # every box and line that cross: (box, line, shared cells, rest of the box, rest of the line)
    crossings: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]

    @property
    def full(self) -> int:
        return (1 << self.n) - 1

    def cell(self, i: int) -> Cell:
        return divmod(i, self.n)

    def name(self, i: int) -> str:
        return cell_name(divmod(i, self.n))

    def names_of(self, cells: Iterator[int] | list[int] | tuple[int, ...]) -> str:
        return ", ".join(self.name(i) for i in cells)

    def sees(self, i: int, j: int) -> bool:
        return j in self.peer_sets[i]


@cache
def board_for(n: int) -> Board:
    g = engine.geometry(n)
    unit_list = tuple(tuple(u) for u in g.units.tolist())
    names = tuple(name.split(" (")[0] for name, _ in units(n))
    peers = tuple(tuple(p) for p in g.peers.tolist())
    crossings = []
    for b in range(2 * n, 3 * n):
        for line in range(2 * n):
            shared = tuple(i for i in unit_list[b] if i in unit_list[line])
            if shared:
                crossings.append((b, line, shared, tuple(i for i in unit_list[b] if i not in shared),
                                  tuple(i for i in unit_list[line] if i not in shared)))
    return Board(n, unit_list, names, peers, tuple(frozenset(p) for p in peers),
                 (*range(2 * n, 3 * n), *range(2 * n)), tuple(crossings))


@dataclass(frozen=True)
class Puzzle:
    """The puzzle as the techniques read it: its board and givens. Without ``explain`` the singles skip
    their sentences and justifying cells (grading in the generator reads only techniques and efforts)."""

    board: Board
    givens: tuple[int, ...]
    explain: bool = True


def board_of(puzzle: SudokuPuzzle, explain: bool = True) -> Puzzle:
    return Puzzle(board_for(puzzle.size), tuple(v for row in puzzle.givens for v in row), explain)


class Candidates:
    """The grid with its pencil marks: ``digits`` (0 undecided) and per cell a mask of candidates
    (bit d-1 for digit d; a decided cell keeps its own digit's bit)."""

    __slots__ = ("board", "digits", "masks", "undecided")

    def __init__(self, board: Board, digits: list[int], masks: list[int], undecided: int):
        self.board, self.digits, self.masks, self.undecided = board, digits, masks, undecided

    @classmethod
    def empty(cls, board: Board) -> Candidates:
        cells = board.n * board.n
        return cls(board, [0] * cells, [board.full] * cells, cells)

    def copy(self) -> Candidates:
        return Candidates(self.board, self.digits[:], self.masks[:], self.undecided)

    def place(self, i: int, digit: int) -> None:
        if self.digits[i] == digit:
            return
        b = bit(digit)
        if self.digits[i] or not self.masks[i] & b:
            held = f"holds {self.digits[i]}" if self.digits[i] else "cannot hold it"
            raise Contradiction(f"{self.board.name(i)} would have to be {digit} but {held}", [self.board.cell(i)])
        self.digits[i] = digit
        self.masks[i] = b
        self.undecided -= 1
        masks = self.masks
        for p in self.board.peers[i]:
            if masks[p] & b:
                if self.digits[p]:
                    raise Contradiction(f"{digit} would stand twice, in {self.board.name(i)} and "
                                        f"{self.board.name(p)}", [self.board.cell(i), self.board.cell(p)])
                masks[p] &= ~b
                if not masks[p]:
                    raise Contradiction(f"{self.board.name(p)} would have no candidate left", [self.board.cell(p)])

    def eliminate(self, i: int, digit: int) -> None:
        b = bit(digit)
        if not self.masks[i] & b:
            return
        if self.digits[i]:
            raise Contradiction(f"{self.board.name(i)} holds {digit}, which cannot be ruled out", [self.board.cell(i)])
        self.masks[i] &= ~b
        if not self.masks[i]:
            raise Contradiction(f"{self.board.name(i)} would have no candidate left", [self.board.cell(i)])

    def apply(self, step: Step) -> None:
        for decision in step.decide:
            i = decision.cell[0] * self.board.n + decision.cell[1]
            if decision.eliminate:
                self.eliminate(i, decision.digit)
            else:
                self.place(i, decision.digit)

    @property
    def solved(self) -> bool:
        return self.undecided == 0

    def open_cells(self, unit: tuple[int, ...]) -> list[int]:
        digits = self.digits
        return [i for i in unit if not digits[i]]


def start(puzzle: Puzzle) -> Candidates:
    state = Candidates.empty(puzzle.board)
    for i, digit in enumerate(puzzle.givens):
        if digit:
            state.place(i, digit)
    return state


def placing(board: Board, i: int, digit: int) -> tuple[Decision, ...]:
    return (Decision(board.cell(i), digit),)


def eliminating(board: Board, pairs: list[tuple[int, int]]) -> tuple[Decision, ...]:
    return tuple(Decision(board.cell(i), d, True) for i, d in pairs)


def digit_list(digits: tuple[int, ...] | list[int]) -> str:
    """`3, 5 and 8`."""
    words = [str(d) for d in digits]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def removed_words(board: Board, pairs: list[tuple[int, int]]) -> str:
    """`7 from r1c2, r1c3; 9 from r1c3` — what a step takes out, grouped by digit."""
    by_digit: dict[int, list[int]] = {}
    for i, d in pairs:
        by_digit.setdefault(d, []).append(i)
    return "; ".join(f"{d} from {board.names_of(cells)}" for d, cells in sorted(by_digit.items()))


# --- singles ---------------------------------------------------------------------------------------


def _holder(board: Board, state: Candidates, i: int, digit: int, skip: frozenset[int] = frozenset()) -> int | None:
    """A peer of cell ``i`` (outside ``skip``) that holds ``digit``: what rules it out there."""
    return next((p for p in board.peers[i] if state.digits[p] == digit and p not in skip), None)


def hidden_single(puzzle: Puzzle, state: Candidates) -> list[Step]:
    """A digit with one place left in a box, row or column (boxes first: where people look first)."""
    board, digits, masks = puzzle.board, state.digits, state.masks
    full = board.full
    steps, taken = [], set()
    for k in board.single_order:
        unit = board.units[k]
        once = twice = placed = 0
        for i in unit:
            m = masks[i]
            if digits[i]:
                placed |= m
            else:
                twice |= once & m
                once |= m
        if (once | placed) != full:
            d = digits_of(full & ~placed & ~once)[0]
            raise Contradiction(f"{d} has no place left in {board.names[k]}", [board.cell(i) for i in unit])
        only = once & ~twice
        if not only:
            continue
        for d in digits_of(only):
            b = bit(d)
            i = next(j for j in unit if not digits[j] and masks[j] & b)
            if i in taken:
                continue
            taken.add(i)
            if not puzzle.explain:
                steps.append(Step("hidden-single", "", placing(board, i, d)))
                continue
            inside = frozenset(unit)
            holders = dict.fromkeys(h for j in unit if j != i and not digits[j]
                                    for h in [_holder(board, state, j, d, inside)] if h is not None)
            why = f": the {d}s in {board.names_of(holders)} rule out the other cells" if holders else ""
            steps.append(Step("hidden-single", f"Hidden single: in {board.names[k]}, {d} fits only in "
                                               f"{board.name(i)}{why}.",
                              placing(board, i, d), tuple(board.cell(j) for j in (i, *holders))))
    return steps


def naked_single(puzzle: Puzzle, state: Candidates) -> list[Step]:
    """A cell with one candidate left."""
    board, digits, masks = puzzle.board, state.digits, state.masks
    steps = []
    for i, m in enumerate(masks):
        if digits[i] or m & (m - 1):
            continue
        if not m:
            raise Contradiction(f"{board.name(i)} has no candidate left", [board.cell(i)])
        d = digits_of(m)[0]
        if not puzzle.explain:
            steps.append(Step("naked-single", "", placing(board, i, d)))
            continue
        holders = [h for e in range(1, board.n + 1) if e != d for h in [_holder(board, state, i, e)] if h is not None]
        steps.append(Step("naked-single", f"Naked single: {board.name(i)} can only be {d}; every other digit is "
                                          f"already in its row, column or box, or ruled out.",
                          placing(board, i, d), tuple(board.cell(j) for j in (i, *dict.fromkeys(holders)))))
    return steps


# --- one unit at a time: intersections and subsets ------------------------------------------------------


def _locked(puzzle: Puzzle, state: Candidates, pointing: bool) -> list[Step]:
    board, digits, masks = puzzle.board, state.digits, state.masks
    steps = []
    for box, line, shared, box_rest, line_rest in board.crossings:
        inside = 0
        for i in shared:
            if not digits[i]:
                inside |= masks[i]
        if not inside:
            continue
        in_box = in_line = 0
        for i in box_rest:
            if not digits[i]:
                in_box |= masks[i]
        for i in line_rest:
            if not digits[i]:
                in_line |= masks[i]
        # pointing: the digit's places in the box all lie on the line, so the line's other cells lose it
        confined, others, rest = (inside & ~in_box & in_line, line_rest, line) if pointing else \
            (inside & ~in_line & in_box, box_rest, box)
        for d in digits_of(confined):
            b = bit(d)
            where = [i for i in shared if not digits[i] and masks[i] & b]
            gone = [(i, d) for i in others if not digits[i] and masks[i] & b]
            home, away = (box, line) if pointing else (line, box)
            steps.append(Step(
                "pointing" if pointing else "claiming",
                f"{'Pointing' if pointing else 'Claiming'}: in {board.names[home]}, {d} can only go in "
                f"{board.names_of(where)}, all in {board.names[away]}; so the rest of {board.names[rest]} "
                f"cannot hold {d}: remove it from {board.names_of(i for i, _ in gone)}.",
                eliminating(board, gone), tuple(board.cell(i) for i in where)))
    return steps


def pointing(puzzle: Puzzle, state: Candidates) -> list[Step]:
    return _locked(puzzle, state, True)


def claiming(puzzle: Puzzle, state: Candidates) -> list[Step]:
    return _locked(puzzle, state, False)


SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}
Finder = Callable[[Puzzle, Candidates], list[Step]]


def naked_subset(size: int) -> Finder:
    def find(puzzle: Puzzle, state: Candidates) -> list[Step]:
        """``size`` cells of a unit whose candidates together are ``size`` digits: those digits go there."""
        board, masks = puzzle.board, state.masks
        steps = []
        for k, unit in enumerate(board.units):
            open_cells = state.open_cells(unit)
            small = [i for i in open_cells if masks[i].bit_count() <= size]
            for group in combinations(small, size):
                union = 0
                for i in group:
                    union |= masks[i]
                if union.bit_count() != size:
                    continue
                gone = [(i, d) for i in open_cells if i not in group for d in digits_of(masks[i] & union)]
                if gone:
                    shown = digit_list(digits_of(union))
                    steps.append(Step(
                        f"naked-{SUBSET_NAMES[size]}",
                        f"Naked {SUBSET_NAMES[size]}: in {board.names[k]}, {board.names_of(group)} hold only "
                        f"the digits {shown} between them, so those digits go there: remove "
                        f"{removed_words(board, gone)}.",
                        eliminating(board, gone), tuple(board.cell(i) for i in group)))
        return steps
    return find


def hidden_subset(size: int) -> Finder:
    def find(puzzle: Puzzle, state: Candidates) -> list[Step]:
        """``size`` digits of a unit that fit only in the same ``size`` cells: those cells hold nothing else."""
        board, digits, masks = puzzle.board, state.digits, state.masks
        steps = []
        for k, unit in enumerate(board.units):
            places: dict[int, int] = {}
            placed = 0
            for pos, i in enumerate(unit):
                if digits[i]:
                    placed |= masks[i]
                    continue
                for d in digits_of(masks[i]):
                    places[d] = places.get(d, 0) | 1 << pos
            few = [d for d in digits_of(board.full & ~placed) if 2 <= places.get(d, 0).bit_count() <= size]
            for group in combinations(few, size):
                where = 0
                for d in group:
                    where |= places[d]
                if where.bit_count() != size:
                    continue
                keep = sum(bit(d) for d in group)
                cells = [unit[pos] for pos in range(len(unit)) if where >> pos & 1]
                gone = [(i, d) for i in cells for d in digits_of(masks[i] & ~keep)]
                if gone:
                    shown = digit_list(group)
                    steps.append(Step(
                        f"hidden-{SUBSET_NAMES[size]}",
                        f"Hidden {SUBSET_NAMES[size]}: in {board.names[k]}, the digits {shown} fit only in "
                        f"{board.names_of(cells)}, so those cells hold nothing else: remove "
                        f"{removed_words(board, gone)}.",
                        eliminating(board, gone), tuple(board.cell(i) for i in cells)))
        return steps
    return find


# --- across units: fish and wings -------------------------------------------------------------------------


FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def fish(size: int) -> Finder:
    def find(puzzle: Puzzle, state: Candidates) -> list[Step]:
        """``size`` rows in which a digit fits only within the same ``size`` columns: those columns'
        other cells lose it (and the same with rows and columns swapped)."""
        board, digits, masks = puzzle.board, state.digits, state.masks
        n = board.n
        steps = []
        for d in range(1, n + 1):
            b = bit(d)
            for base_first, cover_first, base_word, cover_word in ((0, n, "rows", "columns"),
                                                                   (n, 0, "columns", "rows")):
                places = {}
                for k in range(n):
                    unit = board.units[base_first + k]
                    where = 0
                    for pos, i in enumerate(unit):
                        if not digits[i] and masks[i] & b:
                            where |= 1 << pos
                    if 2 <= where.bit_count() <= size:
                        places[k] = where
                for group in combinations(places, size):
                    cover = 0
                    for k in group:
                        cover |= places[k]
                    if cover.bit_count() != size:
                        continue
                    lines = [pos for pos in range(n) if cover >> pos & 1]
                    base_cells = {i for k in group for i in board.units[base_first + k]}
                    gone = [(i, d) for pos in lines for i in board.units[cover_first + pos]
                            if i not in base_cells and not digits[i] and masks[i] & b]
                    if gone:
                        corners = [i for k in group for pos, i in enumerate(board.units[base_first + k])
                                   if places[k] >> pos & 1]
                        steps.append(Step(
                            FISH_NAMES[size].lower(),
                            f"{FISH_NAMES[size]} on {d}: in {base_word} {digit_list([k + 1 for k in group])}, "
                            f"{d} fits only in {cover_word} {digit_list([p + 1 for p in lines])}; whichever cells "
                            f"take it, those {cover_word} get their {d} there: remove {d} from "
                            f"{board.names_of(i for i, _ in gone)}.",
                            eliminating(board, gone), tuple(board.cell(i) for i in corners)))
        return steps
    return find


def bivalue_cells(state: Candidates) -> list[int]:
    return [i for i, m in enumerate(state.masks) if not state.digits[i] and m.bit_count() == 2]


def _seen_by_both(board: Board, state: Candidates, a: int, b: int, digit: int) -> list[tuple[int, int]]:
    mask = bit(digit)
    return [(i, digit) for i in board.peer_sets[a] & board.peer_sets[b]
            if not state.digits[i] and state.masks[i] & mask]


def xy_wing(puzzle: Puzzle, state: Candidates) -> list[Step]:
    """A bivalue pivot {x,y} seeing pincers {x,z} and {y,z}: one pincer is z, so a cell seeing both is not."""
    board, masks = puzzle.board, state.masks
    twos = bivalue_cells(state)
    for pivot in twos:
        x, y = digits_of(masks[pivot])
        wings = [i for i in twos if i != pivot and board.sees(pivot, i)]
        for a in wings:
            if masks[a] & masks[pivot] != bit(x) and masks[a] & masks[pivot] != bit(y):
                continue
            shared = digits_of(masks[a] & masks[pivot])[0]
            z = digits_of(masks[a] & ~bit(shared))[0]
            want = bit(x if shared == y else y) | bit(z)
            for b in wings:
                if b == a or masks[b] != want:
                    continue
                gone = sorted(_seen_by_both(board, state, a, b, z))
                if gone:
                    return [Step("xy-wing", f"XY-Wing: {board.name(pivot)} is {x} or {y}; whichever it is, one of "
                                            f"{board.name(a)} and {board.name(b)} must be {z}, so a cell seeing "
                                            f"both cannot be {z}: remove it from {board.names_of(i for i, _ in gone)}.",
                                 eliminating(board, gone), tuple(board.cell(i) for i in (pivot, a, b)))]
    return []


# --- chains -----------------------------------------------------------------------------------------------------


def xy_chain_effort(cells: int) -> float:
    """A longer chain is more to hold in mind."""
    return cells / 3


def forcing_chain_effort(decided: int) -> float:
    """A larger net of singles followed is more to hold in mind."""
    return 1 + decided / 4


def xy_chain(puzzle: Puzzle, state: Candidates) -> list[Step]:
    """Bivalue cells in a row of peers, each sharing a digit with the next: if the first is not z, the
    link forces each next cell, and the last becomes z. So one end is z, and a cell seeing both ends is
    not. The shortest chain that eliminates something, breadth first."""
    board, masks = puzzle.board, state.masks
    twos = bivalue_cells(state)
    links = {i: [j for j in twos if j != i and board.sees(i, j)] for i in twos}
    best: tuple[int, list[tuple[int, int]], list[tuple[int, int]]] | None = None
    for first in twos:
        for z in digits_of(masks[first]):
            # each chain cell with the digit it is forced to take if the first cell is not z
            other = digits_of(masks[first] & ~bit(z))[0]
            frontier = [((first, other),)]
            seen = {(first, other)}
            while frontier and (best is None or len(frontier[0]) < len(best[1])):
                grown = []
                for chain in frontier:
                    cell, forced = chain[-1]
                    if len(chain) >= XY_CHAIN_CELLS:
                        continue
                    for nxt in links[cell]:
                        if not masks[nxt] & bit(forced) or any(nxt == c for c, _ in chain):
                            continue
                        then = digits_of(masks[nxt] & ~bit(forced))[0]
                        path = (*chain, (nxt, then))
                        if then == z and len(path) >= 3:
                            gone = sorted(_seen_by_both(board, state, first, nxt, z))
                            if gone and (best is None or len(path) < len(best[1])):
                                best = (z, list(path), gone)
                        if (nxt, then) not in seen:
                            seen.add((nxt, then))
                            grown.append(path)
                frontier = grown
    if best is None:
        return []
    z, chain, gone = best
    links_text = " → ".join(f"{board.name(i)} = {d}" for i, d in chain)
    start, end = board.name(chain[0][0]), board.name(chain[-1][0])
    return [Step("xy-chain", f"XY-Chain of {len(chain)} bivalue cells: if {start} is not {z}, then {links_text}. "
                             f"So {start} or {end} is {z}, and a cell seeing both cannot be: remove {z} from "
                             f"{board.names_of(i for i, _ in gone)}.",
                 eliminating(board, gone), tuple(board.cell(i) for i, _ in chain), effort=xy_chain_effort(len(chain)))]


def forcing_chain(puzzle: Puzzle, state: Candidates) -> list[Step]:
    """Assume a candidate and follow singles: if within ``FORCING_ROUNDS`` rounds a cell runs out of
    candidates or a digit out of places, the candidate is false. Of all such assumptions, the one whose
    singles decide the fewest cells before the rule breaks (the smallest net to keep in mind) is shown;
    its effort grows with that number."""
    board = puzzle.board
    g = engine.geometry(board.n)
    masks = np.array(state.masks, dtype=np.int32)
    placed_round = np.zeros(len(masks), dtype=np.int32)
    why = np.zeros(3, dtype=np.int32)
    cells = np.array(sorted((i for i, v in enumerate(state.digits) if not v), key=lambda i: state.masks[i].bit_count()),
                     dtype=np.int32)
    best = np.zeros(4, dtype=np.int64)
    if not engine.smallest_forcing_net(masks, cells, g.units, g.peers, board.full, FORCING_ROUNDS, best):
        return []
    decided, rounds, i, d = (int(v) for v in best)
    trial = masks.copy()
    engine.trial(trial, i, d, g.units, g.peers, board.full, FORCING_ROUNDS, placed_round, why)
    followed = sorted((int(placed_round[j]), j) for j in range(len(masks)) if placed_round[j] > 0)
    shown = [f"{board.name(j)} = {digits_of(int(trial[j]))[0]}" for _, j in followed if trial[j]][:8]
    kind, where, mask = (int(v) for v in why)
    if kind == engine.NO_CANDIDATE:
        broken, cells = f"{board.name(where)} would have no candidate left", [where]
    elif kind == engine.NO_PLACE:
        broken, cells = f"{digits_of(mask)[0]} would have no place left in {board.names[where]}", \
            list(board.units[where])
    else:
        both = digits_of(mask)
        broken, cells = f"{board.name(where)} would be the only place for both {both[0]} and {both[1]}", [where]
    rounds_text = f"{rounds} round{'s' if rounds > 1 else ''}"
    if shown:
        more = ", …" if len(followed) > len(shown) else ""
        follow = f"singles would decide {', '.join(shown)}{more} ({decided} cells in {rounds_text}); then {broken}"
    else:
        follow = broken
    return [Step("forcing-chain", f"Forcing chain: if {board.name(i)} were {d}, {follow}. So {board.name(i)} is "
                                  f"not {d}.",
                 eliminating(board, [(i, d)]), tuple(board.cell(j) for j in dict.fromkeys([i, *cells])),
                 effort=forcing_chain_effort(decided))]


SOLVER: HumanSolver[Puzzle, Candidates] = HumanSolver(
    levels=(
        Level("easy", (
            Technique("hidden-single", "A digit with one place left in a box, row or column goes there.", 1.0,
                      hidden_single),
            Technique("naked-single", "A cell with one candidate left takes it.", 1.5, naked_single),
        )),
        Level("medium", (
            Technique("pointing", "A digit confined to one line within a box leaves the rest of that line.", 4.0,
                      pointing),
            Technique("claiming", "A digit confined to one box within a line leaves the rest of that box.", 4.5,
                      claiming),
            Technique("naked-pair", "Two cells of a unit with the same two candidates: those digits leave the "
                                    "unit's other cells.", 5.0, naked_subset(2)),
            Technique("hidden-pair", "Two digits that fit only in the same two cells of a unit: those cells "
                                     "hold nothing else.", 6.0, hidden_subset(2)),
            Technique("naked-triple", "Three cells of a unit holding only three digits between them.", 7.0,
                      naked_subset(3)),
            Technique("hidden-triple", "Three digits that fit only in the same three cells of a unit.", 8.0,
                      hidden_subset(3)),
        )),
        Level("hard", (
            Technique("x-wing", "A digit in two rows confined to the same two columns (or the reverse) leaves "
                                "those columns elsewhere.", 10.0, fish(2)),
            Technique("swordfish", "The same with three rows and three columns.", 14.0, fish(3)),
            Technique("xy-wing", "A bivalue pivot and two bivalue pincers: a cell seeing both pincers loses "
                                 "their shared digit.", 14.0, xy_wing),
        )),
        Level("expert", (
            Technique("xy-chain", f"A chain of up to {XY_CHAIN_CELLS} bivalue cells: one of its ends holds the "
                                  "digit, so a cell seeing both ends does not.", 20.0, xy_chain),
            Technique("forcing-chain", f"Assume a candidate and follow singles for up to {FORCING_ROUNDS} rounds: "
                                       "a broken rule rules the candidate out.", 25.0, forcing_chain),
        )),
    ),
    start=start,
)
LEVELS = tuple(SOLVER.level_names)
assert [(level, t.name) for level, t in SOLVER.techniques()] == \
    list(zip(kernel.TECHNIQUE_LEVEL.tolist(), kernel.TECHNIQUES, strict=True)), "the kernel numbers the techniques"


# --- the path compiled ------------------------------------------------------------------------------------------

STEP_ROOM = 8  # step slots per candidate of the empty grid; a path with more goes through Python
LOOKS_PER_SLICE = 16  # looks between deadline checks (a 16×16 forcing-chain look takes milliseconds)
EFFORTS: dict[str, Callable[[int], float]] = {"xy-chain": xy_chain_effort, "forcing-chain": forcing_chain_effort}


@dataclass(frozen=True)
class KernelBoard:
    """The arrays ``solvers.sudoku.kernel.solve_path`` reads, per size."""

    units: np.ndarray
    single_order: np.ndarray
    peers: np.ndarray
    sees: np.ndarray  # (n², n²): whether two cells share a unit
    crossings: np.ndarray  # (k, 3, n): Board.crossings' shared cells, rest of box, rest of line (-1 pads)
    popcount: np.ndarray


@cache
def kernel_board(n: int) -> KernelBoard:
    board, g = board_for(n), engine.geometry(n)
    sees = np.zeros((n * n, n * n), dtype=np.bool_)
    for i, peers in enumerate(board.peers):
        sees[i, list(peers)] = True
    crossings = np.array([[list(part) + [-1] * (n - len(part)) for part in (shared, box_rest, line_rest)]
                          for _, _, shared, box_rest, line_rest in board.crossings], dtype=np.int32)
    return KernelBoard(g.units, np.array(board.single_order, dtype=np.int32), g.peers, sees, crossings, g.popcount)


@cache
def path_arguments(n: int) -> tuple[np.ndarray | int, ...]:
    """What the kernel's path (``solve_path``, ``finishes``, ``swap_toward_level``) reads after the state and
    level, in its order: the size's arrays and the techniques' limits."""
    arrays = kernel_board(n)
    return (arrays.units, arrays.single_order, arrays.peers, arrays.sees, arrays.crossings, arrays.popcount,
            (1 << n) - 1, XY_CHAIN_CELLS, FORCING_ROUNDS)


@dataclass
class Outline:
    """``SOLVER.run``'s path without its sentences (what grading and the generator read): where it stopped,
    and per step its level index, technique and effort."""

    state: Candidates
    steps: list[tuple[int, str, float]]

    def grade(self) -> Grade:
        return SOLVER.grade_steps(self.steps, self.state.solved)


def _follow(board: Board, cand: np.ndarray, digits: np.ndarray, upto: int | None, deadline: Deadline,
            with_steps: bool = True) -> tuple[int, list[tuple[int, str, float]]]:
    """``solvers.sudoku.kernel.solve_path`` in slices between deadline checks: its status and (``with_steps``) the
    steps it took; without them it only counts the steps, so it never overflows."""
    room = STEP_ROOM * board.n ** 3 if with_steps else 0
    techniques, params, control = np.empty(room, dtype=np.int32), np.empty(room, dtype=np.int32), np.zeros(1, np.int64)
    while True:
        deadline.check()
        status = kernel.solve_path(cand, digits, len(SOLVER.levels) - 1 if upto is None else upto,
                                   *path_arguments(board.n), techniques, params, control, LOOKS_PER_SLICE)
        if status != kernel.PAUSED:
            break
    steps: list[tuple[int, str, float]] = []
    taken = int(control[0]) if with_steps else 0
    for technique, param in zip(techniques[:taken].tolist(), params[:taken].tolist(), strict=True):
        name = kernel.TECHNIQUES[technique]
        steps.append((int(kernel.TECHNIQUE_LEVEL[technique]), name, EFFORTS[name](param) if name in EFFORTS else 1.0))
    return status, steps


def _placed(board: Board, givens: Sequence[int]) -> tuple[np.ndarray, np.ndarray, bool]:
    """The masks and digits of the givens (``start``), and whether they fit together."""
    cand = np.full(len(givens), board.full, dtype=np.int32)
    digits = np.zeros(len(givens), dtype=np.int32)
    fits = kernel.start(cand, digits, np.array(givens, dtype=np.int32), kernel_board(board.n).peers)
    return cand, digits, bool(fits)


def outline(puzzle: Puzzle, upto: int | None = None, state: Candidates | None = None,
            deadline: Deadline | None = None) -> Outline:
    """The path ``SOLVER.run`` takes (from ``state``, or the givens), compiled: the same steps, techniques and
    efforts, and the same state where it stops. A puzzle or state that breaks a rule takes the Python
    path, which raises the same Contradiction."""
    board = puzzle.board
    deadline = deadline or Deadline.never()
    if state is None:
        cand, digits, fits = _placed(board, puzzle.givens)
    else:
        cand, digits, fits = np.array(state.masks, dtype=np.int32), np.array(state.digits, dtype=np.int32), True
    status, steps = _follow(board, cand, digits, upto, deadline) if fits else (kernel.BROKEN, [])
    if status in (kernel.BROKEN, kernel.OVERFLOW):
        path = SOLVER.run(puzzle, upto, state.copy() if state is not None else None, deadline)
        return Outline(path.state, [(level, step.technique, step.effort)
                                    for level, step in zip(path.levels, path.steps, strict=True)])
    digits_now = digits.tolist()
    return Outline(Candidates(board, digits_now, cand.tolist(), digits_now.count(0)), steps)


def finishes(n: int, givens: Sequence[int], upto: int, deadline: Deadline) -> bool:
    """Whether the techniques up to level ``upto`` finish these givens (flat), which also proves them unique
    (every step holds in every solution): the generator's test of a candidate puzzle, without the steps."""
    board = board_for(n)
    cand, digits, fits = _placed(board, givens)
    if not fits:
        return False
    status, _ = _follow(board, cand, digits, upto, deadline, with_steps=False)
    return status == kernel.SOLVED


def warm_up() -> None:
    """Load (or compile) the kernel's entry points: every technique runs on a 4×4 that needs them all."""
    with compile_lock(__name__):
        outline(Puzzle(board_for(4), (0,) * 16, explain=False))
        finishes(4, [0] * 16, len(SOLVER.levels) - 1, Deadline.never())


def grade(puzzle: SudokuPuzzle, deadline: Deadline) -> Grade:
    return outline(board_of(puzzle, explain=False), deadline=deadline).grade()


class SudokuState(BaseModel):
    digits: list[list[int | None]] | None = Field(
        None, description="N×N: the digits entered so far (givens may be included), 0 or null for an empty cell; "
                          "null or omitted: nothing entered yet.")
    candidates: list[list[list[int] | None]] | None = Field(
        None, description="Optional N×N pencil marks: a cell's list narrows its candidates to those digits; "
                          "null or [] where the player has made no marks.")


def _player_state(n: int, state: SudokuState) -> tuple[list[int], list[int | None]]:
    """The player's digits and pencil-mark masks, flat; InvalidInput when they do not fit the grid."""
    grid = state.digits if state.digits is not None else [[0] * n for _ in range(n)]  # nothing entered yet
    if len(grid) != n or any(len(row) != n for row in grid):
        raise InvalidInput(f"`digits` must have {n} rows of {n} values (0..{n} or null), as the puzzle has")
    digits = [v or 0 for row in grid for v in row]
    if any(not 0 <= v <= n for v in digits):
        raise InvalidInput(f"`digits` values must be 0..{n} or null")
    marks: list[int | None] = [None] * (n * n)
    if state.candidates is not None:
        if len(state.candidates) != n or any(len(row) != n for row in state.candidates):
            raise InvalidInput(f"`candidates` must have {n} rows of {n} lists (digits 1..{n}) or nulls")
        for i, cell in enumerate(v for row in state.candidates for v in row):
            if cell:
                if any(not 1 <= d <= n for d in cell):
                    raise InvalidInput(f"`candidates` hold digits 1..{n}")
                marks[i] = sum(bit(d) for d in set(cell))
    return digits, marks


def hint(puzzle: SudokuPuzzle, state: SudokuState, solution: SudokuAnswer, deadline: Deadline) -> Hint:
    """The next step from the player's digits and pencil marks, or what disagrees with the solution."""
    return hint_on(SOLVER, board_of(puzzle), state, solution.digits, deadline)


def hint_on(solver: HumanSolver[Puzzle, Candidates], model: Puzzle, state: SudokuState, solution: list[list[int]],
            deadline: Deadline) -> Hint:
    """``hint`` with ``solver``'s techniques on ``model``: for a type whose puzzle adds to Sudoku's (its own
    ``Puzzle``) and whose player's state has Sudoku's fields."""
    board = model.board
    answer = [v for row in solution for v in row]
    digits, marks = _player_state(board.n, state)
    wrong = [i for i, v in enumerate(digits) if v and v != answer[i]]
    marked_out = [i for i, m in enumerate(marks) if m is not None and not digits[i] and not m & bit(answer[i])]
    if wrong or marked_out:
        parts = []
        if wrong:
            parts.append(f"{len(wrong)} digit(s) disagree with the solution: {board.names_of(wrong[:8])}"
                         + ("…" if len(wrong) > 8 else ""))
        if marked_out:
            parts.append(f"the pencil marks of {board.names_of(marked_out[:8])} leave out the cell's digit")
        cells = sorted({*wrong, *marked_out})
        return Hint("mistakes", "; ".join(parts) + ". Undo them first.",
                    mistakes=[list(board.cell(i)) for i in cells])
    current = start(model)
    for i, v in enumerate(digits):
        if v and not model.givens[i]:
            current.place(i, v)
    for i, m in enumerate(marks):
        if m is not None and not current.digits[i]:
            for d in digits_of(current.masks[i] & ~m):
                current.eliminate(i, d)
    if current.solved:
        return Hint("solved", "Every cell holds its digit: the puzzle is solved.")
    deadline.check()
    found = solver.next_steps(model, current)
    if found is not None:
        step = found[1][0]
        decide = [{"cell": list(d.cell), "value": d.digit, **({"eliminate": True} if d.eliminate else {})}
                  for d in step.decide]
        return Hint(step.technique, step.message, decide=decide, because=[list(c) for c in step.because])
    i = next(i for i, v in enumerate(current.digits) if not v)
    return Hint("reveal", f"No technique here finds the next step; in the solution {board.name(i)} is "
                          f"{answer[i]}.", decide=[{"cell": list(board.cell(i)), "value": answer[i]}],
                because=[list(board.cell(i))])


DIFFICULTY = Difficulty(SOLVER.describe(), "medium", grade, hint, SudokuState)
