"""Ubongo generation: the pipeline steps and the type's registration.

In Ubongo the clue *is* the intended covering's outline, so clues cannot change while the covering
stays fixed. The pipeline's puzzle value is therefore the current arrangement (which pieces lie
where); its outline is the shape shown to the player, and the final answer is read from it.

Solution: pieces from the catalogue assembled one by one, each touching what is already placed,
preferring placements with many shared edges, inside a card-sized box (4×5 for 3 pieces, 5×6 for
4–5) and never enclosing a hole. Repair: when the solver finds a second covering (in mode
`hidden`, possibly with other pieces), one piece that the second covering does not place the same
way is lifted and put back elsewhere (in mode `hidden`, possibly as a different unused piece),
which changes the outline; the loop repeats until the outline has exactly one covering.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, generate
from generators.spec import PuzzleType
from solvers import ubongo as rules
from solvers.common import Cell, Deadline

Arrangement = tuple[tuple[str, frozenset[Cell]], ...]  # (piece, cells), in catalogue order
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
REPAIR_TRIES = 6  # candidate moves weighed per repair round
COUNT_CAP = 64  # coverings counted per candidate; more than this is "many"


class UbongoParams(BaseModel):
    pieces: int = Field(3, ge=3, le=5, description="How many pieces the card uses (3-5).")
    mode: rules.Mode = Field("given", description="`given`: the card names its pieces; `hidden`: only how many.")
    catalogue: rules.CatalogueName = Field("standard", description="`standard` (12 pieces) or `article` (7).")
    size: int | None = Field(None, ge=3, le=5, description="Alias of `pieces`, like the other types' `size`.")

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


def normalise_outline(arrangement: Arrangement) -> rules.Shape:
    return rules.normalise(outline(arrangement))


def _has_hole(cells: set[Cell]) -> bool:
    """Whether some empty cell inside the bounding box cannot reach the outside."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    r0, r1, c0, c1 = min(rows) - 1, max(rows) + 1, min(cols) - 1, max(cols) + 1
    seen = {(r0, c0)}
    stack = [(r0, c0)]
    while stack:
        r, c = stack.pop()
        for dr, dc in NEIGHBOURS:
            nb = (r + dr, c + dc)
            if r0 <= nb[0] <= r1 and c0 <= nb[1] <= c1 and nb not in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) + len(cells) < (r1 - r0 + 1) * (c1 - c0 + 1)


def _connected(cells: set[Cell]) -> bool:
    start = min(cells)
    seen = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for dr, dc in NEIGHBOURS:
            nb = (r + dr, c + dc)
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return len(seen) == len(cells)


def _fits(cells: set[Cell], box: tuple[int, int]) -> bool:
    rows = max(r for r, _ in cells) - min(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) - min(c for _, c in cells) + 1
    return rows <= box[0] and cols <= box[1]


def _place(catalogue: str, piece: str, rest: set[Cell], box: tuple[int, int], rng: random.Random
           ) -> frozenset[Cell] | None:
    """A placement of ``piece`` against ``rest``: touching it, inside ``box``, no hole, weighted
    towards many shared edges (compact cards); None if there is none."""
    if not rest:
        orient = rng.choice(rules.piece_orientations(catalogue, piece))
        return frozenset(orient)
    border = sorted({(r + dr, c + dc) for r, c in rest for dr, dc in NEIGHBOURS} - rest)
    options: list[tuple[int, frozenset[Cell]]] = []
    seen: set[frozenset[Cell]] = set()
    for orient in rules.piece_orientations(catalogue, piece):
        for br, bc in border:
            for ar, ac in orient:  # put each cell of the piece on each border cell
                cells = frozenset((br + r - ar, bc + c - ac) for r, c in orient)
                if cells in seen or cells & rest:
                    continue
                seen.add(cells)
                union = rest | cells
                if _fits(union, box) and _connected(union) and not _has_hole(union):
                    contacts = sum((r + dr, c + dc) in rest for r, c in cells for dr, dc in NEIGHBOURS)
                    options.append((contacts, cells))
    if not options:
        return None
    options.sort(key=lambda o: (-o[0], sorted(o[1])))
    return rng.choices([cells for _, cells in options], weights=[4 ** contacts for contacts, _ in options])[0]


class UbongoSteps:
    def __init__(self, params: UbongoParams, deadline: Deadline):
        self.params = params
        self.deadline = deadline  # for the counts a repair makes between the pipeline's own checks
        self.box = card_box(params.pieces)
        self.names = list(rules.CATALOGUES[params.catalogue])

    def _ordered(self, placed: dict[str, frozenset[Cell]]) -> Arrangement:
        return tuple((name, placed[name]) for name in self.names if name in placed)

    def random_solution(self, rng: random.Random) -> Arrangement:
        self.seen: set[rules.Shape] = set()  # outlines already weighed in this attempt
        self.counts: dict[rules.Shape, int] = {}
        for _ in range(100):
            pieces = rng.sample(self.names, self.params.pieces)
            placed: dict[str, frozenset[Cell]] = {}
            for piece in sorted(pieces, key=lambda p: -len(rules.catalogue_pieces(self.params.catalogue)[p])):
                cells = _place(self.params.catalogue, piece, outline(self._ordered(placed)), self.box, rng)
                if cells is None:
                    break
                placed[piece] = cells
            else:
                return self._ordered(placed)
        raise RuntimeError("no card-sized arrangement found")  # unreachable for the shipped catalogues

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
        """A covering of the current outline other than the current arrangement, in its coordinates."""
        outcome = rules.solve(self.puzzle(arrangement), 2, deadline)
        mine = {(p.piece, frozenset(map(tuple, p.cells))) for p in self.answer(arrangement).placements}
        cells = outline(arrangement)
        r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
        for found in outcome.solutions:
            theirs = {(p["piece"], frozenset((r, c) for r, c in p["cells"])) for p in found["placements"]}
            if theirs != mine:
                return self._ordered({p: frozenset((r + r0, c + c0) for r, c in cs) for p, cs in theirs})
        return None

    def coverings(self, arrangement: Arrangement) -> int:
        """How many coverings the arrangement's outline has, counted up to ``COUNT_CAP``."""
        return len(rules.solve(self.puzzle(arrangement), COUNT_CAP, self.deadline).solutions)

    def repair(self, arrangement: Arrangement, solution: Arrangement, other: Arrangement, rng: random.Random
               ) -> Arrangement | None:
        """Of a few random moves of pieces that ``other`` places differently, the one leaving the fewest
        coverings (a greedy descent: a blind move as often adds coverings as it removes them)."""
        differ = [name for name, cells in arrangement if (name, cells) not in other]
        same = [name for name, cells in arrangement if (name, cells) in other]
        rng.shuffle(differ)
        rng.shuffle(same)
        movable = differ + same  # moving a piece both coverings share can break the other too, via its neighbours
        unused = [n for n in self.names if n not in dict(arrangement)]
        best: tuple[int, Arrangement] | None = None
        for attempt in range(REPAIR_TRIES):
            name = movable[attempt % len(movable)]
            piece = rng.choice(unused) if self.params.mode == "hidden" and unused and rng.random() < 0.5 else name
            rest = outline(tuple((n, c) for n, c in arrangement if n != name))
            cells = _place(self.params.catalogue, piece, rest, self.box, rng)
            if cells is None:
                continue
            placed = {n: c for n, c in arrangement if n != name}
            placed[piece] = cells
            moved = self._ordered(placed)
            key = normalise_outline(moved)
            if key in self.seen:
                continue  # tabu: the descent would otherwise circle on a plateau
            self.seen.add(key)
            count = self.coverings(moved)
            if best is None or count < best[0]:
                best = (count, moved)
            if count == 1:
                break
        if best is None:
            return None
        current = self.counts.get(normalise_outline(arrangement)) or self.coverings(arrangement)
        self.counts[normalise_outline(best[1])] = best[0]
        # Never uphill: a worse outline is refused and the next round draws fresh moves from here.
        return best[1] if best[0] <= current else arrangement


def generate_puzzle(params: UbongoParams, seed: int, deadline: Deadline) -> Generated:
    steps = UbongoSteps(params, deadline)
    result = generate(steps, seed, deadline, max_rounds=60, max_restarts=30)
    arrangement = result.puzzle
    result.puzzle = steps.puzzle(arrangement)
    result.solution = steps.answer(arrangement)
    return result



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
    catalogue=rules.catalogue_facts(),
)
