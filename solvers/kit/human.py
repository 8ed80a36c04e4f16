"""A person's techniques for any kit genre, read off its rules: levels, grades and hints with no genre code.

- easy: a rule alone. A rule that has all the 1s it may have empties its other cells ("the 1 at r2c3 has
  its light already: r2c4 stays empty"); one whose open cells are just the 1s it still needs fills them.
- medium: a short trial. Assume a cell and apply the rules for at most ``SHORT_ROUNDS`` rounds; if a rule
  breaks, the cell is the other value. The rounds a trial must be followed are the reading depth a person
  needs (the measure that separates our Dabuhamienai levels).
- hard: a trial followed as far as it goes.

A genre may put its own named techniques before these (``levels(extra=...)``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from pydantic import BaseModel, Field, create_model

from solvers.common import Deadline, InvalidInput
from solvers.kit.rules import Count, Model
from solvers.techniques.human import (
    Contradiction,
    Difficulty,
    Grade,
    GridState,
    Hint,
    HumanSolver,
    Level,
    Step,
    Technique,
    Trials,
    by_contradiction,
    cells_named,
    grid_hint,
)

SHORT_ROUNDS = 2


def _look(model: Model, state: GridState, counts: tuple[Count, ...] | list[Count]) -> list[Step]:
    steps = []
    for count in counts:
        open_cells = [cell for cell in count.cells if state[cell] is None]
        ones = sum(1 for cell in count.cells if state[cell] == 1)
        if ones > count.high or ones + len(open_cells) < count.low:
            have = f"{ones}" if ones > count.high else f"room for only {ones + len(open_cells)}"
            raise Contradiction(f"{count.says}, and it would have {have}", count.cells)
        if not open_cells:
            continue
        if ones == count.high:
            steps.append(Step("rule", f"{count.says}, and it has {ones} already: {cells_named(open_cells)} "
                                      f"{'is' if len(open_cells) == 1 else 'are'} {model.zero}",
                              tuple((cell, 0) for cell in open_cells), count.cells))
        elif ones + len(open_cells) == count.low:
            steps.append(Step("rule", f"{count.says}, and only {cells_named(open_cells)} "
                                      f"{'is' if len(open_cells) == 1 else 'are'} left for it: "
                                      f"{'it is' if len(open_cells) == 1 else 'each is'} {model.one}",
                              tuple((cell, 1) for cell in open_cells), count.cells))
    return steps


def _every_rule(model: Model, state: GridState) -> list[Step]:
    return _look(model, state, model.counts)


def _rules_near(model: Model, state: GridState, changed: set[int]) -> list[Step]:
    near = dict.fromkeys(k for i in changed for k in model.flat.at[i])
    return _look(model, state, [model.counts[k] for k in near])


RULE = Technique("rule", "A rule alone: it has all its 1s, so its other cells are 0; or only the 1s it needs are open.",
                 1.0, _every_rule, _rules_near)


def solver(one: str, zero: str, extra: tuple[Technique[Model, GridState], ...] = ()) -> HumanSolver[Model, GridState]:
    """The kit's levels (easy, medium, hard), a genre's own techniques first among the medium ones; ``one`` and
    ``zero`` name a cell's values in the trials' sentences ("If r2c3 were a light: ...")."""
    trials = Trials([RULE, *extra])
    names = {1: one, 0: zero}
    short = by_contradiction("short trial", f"Assume a cell and apply the rules for at most {SHORT_ROUNDS} rounds: a "
                             "broken rule means the cell is the other value.", 5.0, trials, names, max_rounds=SHORT_ROUNDS)
    long = by_contradiction("trial", "Assume a cell and follow the rules as far as they go: a broken rule means the "
                            "cell is the other value.", 20.0, trials, names)
    return HumanSolver((Level("easy", (RULE,)), Level("medium", (*extra, short)), Level("hard", (long,))),
                       start=start)


def start(model: Model) -> GridState:
    """The grid before any deduction: what the puzzle gives is decided (a wall holds no light)."""
    state = GridState(model.rows, model.cols)
    for cell, value in model.givens().items():
        state.set(cell, value)
    return state


class Fixpoint:
    """The rules on integer arrays, for the generator's thousands of "does this level still solve it?" checks:
    no Step objects and no sentences, the same deductions as ``RULE`` and the trials that follow it. A look is
    a round, as in ``Trial``: every rule beside the cells the last round decided, all their steps applied."""

    def __init__(self, model: Model, shown: frozenset[Hashable] | None = None):
        flat = self.flat = model.flat
        self.active = [clue is None or shown is None or clue in shown for clue in flat.clue]
        self.values = [-1] * (model.rows * model.cols)
        self.ones = [0] * len(flat.cells)
        self.left = [len(cells) for cells in flat.cells]
        for i, value in flat.givens.items():
            self.set(i, value)

    def copy(self) -> Fixpoint:
        other = object.__new__(Fixpoint)
        other.flat, other.active = self.flat, self.active
        other.values, other.ones, other.left = self.values[:], self.ones[:], self.left[:]
        return other

    def set(self, i: int, value: int) -> None:
        self.values[i] = value
        for k in self.flat.at[i]:
            self.ones[k] += value
            self.left[k] -= 1

    def near(self, cells: list[int]) -> set[int]:
        return {k for i in cells for k in self.flat.at[i] if self.active[k]}

    def follow(self, rules: set[int] | None = None, rounds: int | None = None) -> bool:
        """Apply the rules (all of them first when ``rules`` is None) round after round, at most ``rounds``
        rounds; False when one breaks."""
        flat, ones, left = self.flat, self.ones, self.left
        looking = {k for k, on in enumerate(self.active) if on} if rules is None else rules
        done = 0
        while looking and (rounds is None or done < rounds):
            done += 1
            decided: dict[int, int] = {}
            for k in looking:
                if ones[k] > flat.high[k] or ones[k] + left[k] < flat.low[k]:
                    return False
                if left[k] and (ones[k] == flat.high[k] or ones[k] + left[k] == flat.low[k]):
                    value = 0 if ones[k] == flat.high[k] else 1
                    for i in flat.cells[k]:
                        if self.values[i] < 0 and decided.setdefault(i, value) != value:
                            return False  # two rules decide the cell both ways
            for i, value in decided.items():
                self.set(i, value)
            looking = self.near(list(decided))
        return True

    def solved(self) -> bool:
        flat = self.flat
        return min(self.values) >= 0 and all(not on or flat.low[k] <= self.ones[k] <= flat.high[k]
                                             for k, on in enumerate(self.active))


def rules_alone(model: Model, shown: frozenset[Hashable] | None = None) -> bool:
    """Whether the rules alone (the easy level) solve ``model`` showing the clues ``shown`` (all when None). The
    rules only ever decide more as more is decided, so any order of looks reaches the level's stuck state."""
    state = Fixpoint(model, shown)
    return state.follow() and state.solved()


def short_trials(model: Model, shown: frozenset[Hashable] | None = None) -> bool:
    """Whether the rules and short trials (the medium level) solve ``model``: each undecided cell assumed each
    way and followed ``SHORT_ROUNDS`` rounds; a broken rule decides it the other way, and the rules go on."""
    state = Fixpoint(model, shown)
    if not state.follow():
        return False
    progress = True
    while progress and min(state.values) < 0:
        progress = False
        for i in [i for i, value in enumerate(state.values) if value < 0]:
            for value in (1, 0):
                if state.values[i] >= 0:
                    break
                trial = state.copy()
                trial.set(i, value)
                if not trial.follow(trial.near([i]), SHORT_ROUNDS):
                    state.set(i, 1 - value)
                    if not state.follow(state.near([i])):
                        return False
                    progress = True
    return state.solved()


def within(people: HumanSolver[Model, GridState], model: Model, level: str, shown: frozenset[Hashable] | None = None) -> bool:
    """Whether the techniques up to ``level`` solve ``model`` showing the clues ``shown`` (all when None): the
    generator keeps a draw at its level with it. The kit's own levels take the array versions; a genre's own
    techniques take its path."""
    index = people.level_names.index(level)
    if index == 0:
        return rules_alone(model, shown)
    if index == 1 and len(people.levels[1].techniques) == 1:
        return short_trials(model, shown)
    try:
        return people.run(model if shown is None else model.showing(shown), upto=index).state.solved
    except Contradiction:
        return False


def difficulty(people: HumanSolver[Model, GridState], model_of: Callable[[Any], Model], field: str, description: str,
               one: str, zero: str, default: str = "medium") -> Difficulty:
    """The Difficulty of a kit genre: ``model_of(puzzle)`` builds its model, ``field`` names the answer's grid.
    A hint reads the player's grid with the puzzle's givens filled in, so it never tells what the page shows."""
    name = f"{field.title()}State"
    state_model = create_model(name, __base__=BaseModel, __module__=__name__, **{field: (
        list[list[int | None]] | None, Field(None, description=f"{description}: the player's grid so far, 1, 0 or "
                                                                "null for undecided; null or left out: nothing decided."))})
    globals()[name] = state_model  # a hint's state crosses to a worker process by pickle, which looks it up here

    def grade(puzzle: Any, deadline: Deadline) -> Grade:
        return people.grade(model_of(puzzle), deadline)

    def hint(puzzle: Any, state: BaseModel, solution: BaseModel, deadline: Deadline) -> Hint:
        model, target = model_of(puzzle), getattr(solution, field)
        grid = getattr(state, field) or [[None] * model.cols for _ in range(model.rows)]
        if len(grid) != model.rows or any(len(row) != model.cols for row in grid):
            raise InvalidInput(f"`{field}` must have {model.rows} rows of {model.cols} values (1, 0 or null), "
                               "as the puzzle has")
        player = GridState.from_grid(grid)
        for (r, c), value in model.givens().items():
            player.values[r * model.cols + c] = value
        player.undecided = player.values.count(None)
        return grid_hint(people, model, player, target, {1: one, 0: zero})

    return Difficulty(people.describe(), default, grade, hint, state_model)
