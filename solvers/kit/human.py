"""A person's techniques for any kit genre, read off its rules: levels, grades and hints with no genre code.

- easy: a rule alone. A count that has all the 1s it may have empties its other keys ("the 1 at r2c3 has
  its light already: r2c4 is empty"); one whose open keys are just the 1s it still needs fills them; a
  rule of another kind decides what its ``look`` says (a group of islands with one way out takes it).
- medium: a short trial. Assume a cell and apply the rules for at most ``SHORT_ROUNDS`` rounds; if a rule
  breaks, the cell is the other value. The rounds a trial must be followed are the reading depth a person
  needs (the measure that separates our Dabuhamienai levels).
- hard: a trial followed as far as it goes.

A genre may put its own named techniques before these (``solver(extra=...)``). The state is a GridState of one
row: the model's key ``i`` is its cell ``(0, i)``, and the layout names keys for people.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, create_model

from solvers.common import Deadline
from solvers.kit.rules import Broken, Count, Key, Layout, Model
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
    cell_name,
    cells_named,
)

SHORT_ROUNDS = 2


def _look(model: Model, state: GridState, rules: Iterable[int], worded: bool = True) -> list[Step]:
    """The steps each rule takes alone from ``state`` (keys are the state's cells ``(0, i)``); without ``worded``
    no sentence (a trial's steps are applied, never shown: only what breaks is said)."""
    steps, decided = [], {}  # decided: index -> (value, the rule that decided it), so two rules never clash unseen
    layout, flat, keys = model.layout, model.flat, model.keys
    for k in rules:
        rule, members = model.rules[k], flat.cells[k]
        values = [state.values[i] for i in members]
        try:
            forced = rule.look(values)
        except Broken as broken:
            raise Contradiction(f"{rule.says}, and {broken.why}", model.where(rule)) from None
        forced = list(dict.fromkeys((members[p], v) for p, v in dict(forced).items()))  # a rule may hold a key twice
        if not forced:
            continue
        for i, value in forced:
            if decided.setdefault(i, (value, rule.says))[0] != value:
                raise Contradiction(f"{decided[i][1]}, so {layout.say([keys[i]], decided[i][0])}; yet {rule.says}",
                                    model.where(rule))
        message = _worded(model, rule, members, values, forced) if worded else ""
        steps.append(Step("rule", message, tuple(((0, i), v) for i, v in forced), tuple(model.where(rule))))
    return steps


def _worded(model: Model, rule: Any, members: Sequence[int], values: list[int | None],
            forced: list[tuple[int, int]]) -> str:
    """What a rule decided, as a hint says it: "row 1 holds 1 star, and only one place is left for it: r1c3 is a
    star", or "..., and r1c2 is a star already: r1c1 and r1c3 are empty" (the 1s that fill it named, so the
    player sees which they are); the keys set to each value named together."""
    layout, keys = model.layout, model.keys
    said = "; ".join(layout.say([keys[i] for i, v in forced if v == value], value)
                     for value in dict.fromkeys(v for _, v in forced))
    if not isinstance(rule, Count) or len({v for _, v in forced}) > 1:
        return f"{rule.says}: {said}"
    left = len(forced)
    placed = list(dict.fromkeys(keys[i] for i, v in zip(members, values, strict=True) if v))
    full = f"{_it(model, rule, layout.say(placed, 1))} already" if placed else "it takes none"
    why = (full if forced[0][1] == 0 else
           f"only {'one place is' if left == 1 else f'{left} places are'} left for it")
    return f"{rule.says}, and {why}: {said}"


def _it(model: Model, rule: Count, said: str) -> str:
    """``said`` of a rule on one cell, that cell called "it": "r1c3 holds one number, and it is 4 already", not
    "…, and r1c3 is 4 already"."""
    where = model.where(rule)
    name = f"{cell_name(where[0])} " if len(where) == 1 else None
    return f"it {said[len(name):]}" if name and rule.says.startswith(name) and said.startswith(name) else said


def _every_rule(model: Model, state: GridState) -> list[Step]:
    return _look(model, state, range(len(model.rules)))


def _rules_near(model: Model, state: GridState, changed: set[int]) -> list[Step]:
    """The rules' steps around the keys ``changed``: for a trial (``Technique.near``), so unworded."""
    return _look(model, state, dict.fromkeys(k for i in changed for k in model.flat.at[i]), worded=False)


RULE = Technique("rule", "A rule alone: it has all its 1s, so its other cells are 0; or only the 1s it needs are open.",
                 1.0, _every_rule, _rules_near)


def _trial(name: str, description: str, weight: float, trials: Trials, max_rounds: int) -> Technique[Model, GridState]:
    """Assume a key each way and follow the rules at most ``max_rounds`` rounds: a broken rule decides it."""

    def find(model: Model, state: GridState) -> list[Step]:
        layout = model.layout
        for i, current in enumerate(state.values):
            if current is not None:
                continue
            for value in (1, 0):
                broken = trials.get(model, state, (0, i), value, max_rounds).broken_within(max_rounds)
                if broken is not None:
                    key = model.keys[i]
                    message = (f"If {layout.say([key], value)}: {broken.message}. "
                               f"So {layout.say([key], 1 - value)}.")
                    because = tuple(dict.fromkeys((layout.cell(key), *broken.cells)))
                    return [Step(name, message, (((0, i), 1 - value),), because, effort=broken.rounds)]
        return []

    return Technique(name, description, weight, find)


def _short_and_long(trials: Trials, rounds: int, assumed: str, broken: str) -> tuple[Technique[Model, GridState], ...]:
    """A trial followed at most ``rounds`` rounds and one followed to the end, worded alike: "Assume ``assumed``
    ... a broken rule ``broken``"."""
    return (_trial("short trial", f"Assume {assumed} and follow the rules for at most {rounds} rounds: a broken rule "
                   f"{broken}.", 5.0, trials, rounds),
            _trial("trial", f"Assume {assumed} and follow the rules as far as they go: a broken rule {broken}.", 20.0,
                   trials, 10_000))


def solver(extra: tuple[Technique[Model, GridState], ...] = (),
           first: tuple[Technique[Model, GridState], ...] = ()) -> HumanSolver[Model, GridState]:
    """The kit's levels (easy, medium, hard), a genre's own techniques first among the medium ones; ``first``:
    named readings of its rules (a group read together) before the rules alone, at the easy level."""
    short, long = _short_and_long(Trials([RULE, *extra]), SHORT_ROUNDS, "a cell", "means the cell is the other value")
    return HumanSolver((Level("easy", (*first, RULE)), Level("medium", (*extra, short)), Level("hard", (long,))),
                       start=start)


def group_levels(names: tuple[str, str, str, str], reading: Technique[Model, GridState], chain: int,
                 what: str, first: tuple[Technique[Model, GridState], ...] = ()) -> HumanSolver[Model, GridState]:
    """Four levels for a genre of digits read by groups (Tatham's Towers, Keen, Solo's killer cages): the rules
    alone, the groups read with what their cells may still hold (``reading``), a trial followed at most ``chain``
    rounds, a trial followed to the end. ``what`` names a cell's value for people ("digit", "height"); ``first``,
    as ``solver``'s, named readings of the rules before the rules alone."""
    short, long = _short_and_long(Trials([RULE, reading]), chain, f"a cell's {what}", "rules it out")
    return HumanSolver((Level(names[0], (*first, RULE)), Level(names[1], (reading,)), Level(names[2], (short,)),
                        Level(names[3], (long,))), start)


def start(model: Model) -> GridState:
    """The state before any deduction, one cell ``(0, i)`` per key: what the puzzle gives is decided."""
    state = GridState(1, len(model.keys))
    for i, value in model.flat.givens.items():
        state.set((0, i), value)
    return state


def difficulty(people: HumanSolver[Model, GridState], model_of: Callable[[Any], Model], layout: Layout,
               description: str, default: str = "medium") -> Difficulty:
    """The Difficulty of a kit genre: ``model_of(puzzle)`` builds its model; ``layout`` (any size) names the
    fields of the player's partial answer. A hint reads that answer with the puzzle's givens filled in, so it
    never tells what the page shows."""
    name = f"{model_of.__module__.split('.')[-2].title().replace('_', '')}State"
    state_model = create_model(name, __base__=BaseModel, __module__=__name__, **layout.state_fields(description))
    globals()[name] = state_model  # a hint's state crosses to a worker process by pickle, which looks it up here

    def grade(puzzle: Any, deadline: Deadline) -> Grade:
        return people.grade(model_of(puzzle), deadline)

    def hint(puzzle: Any, state: BaseModel, solution: BaseModel, deadline: Deadline) -> Hint:
        model = model_of(puzzle)
        return kit_hint(people, model, model.layout.partial(state.model_dump()), solution.model_dump())

    return Difficulty(people.describe(), default, grade, hint, state_model)


def kit_hint(people: HumanSolver[Model, GridState], model: Model, decided: dict[Key, int],
             solution: dict[str, Any]) -> Hint:
    """The next step a person can take from the keys the player ``decided``, or the player's mistakes; where no
    technique finds one, the hint reveals a key, so hints always finish the puzzle."""
    layout, target = model.layout, model.layout.read(solution)
    wrong = [key for key, value in decided.items() if key in target and target[key] != value]
    if wrong:
        cells = list(dict.fromkeys(layout.cell(key) for key in wrong))
        return Hint("mistakes", f"{len(cells)} cell(s) disagree with the solution: {cells_named(cells[:8])}"
                    + ("…" if len(cells) > 8 else "") + ". Undo them first.", mistakes=[list(c) for c in cells])
    state = start(model)
    for key, value in decided.items():
        if key in model.index and state.values[model.index[key]] is None:
            state.set((0, model.index[key]), value)
    if state.solved:
        return Hint("solved", "Every cell is decided and right: the puzzle is solved.")
    found = people.next_steps(model, state)
    if found is not None:
        step = found[1][0]
        return Hint(step.technique, step.message, decide=[layout.hint_entry(model.keys[i], v) for (_, i), v in step.decide],
                    because=[list(cell) for cell in step.because])
    open_keys = [key for i, key in enumerate(model.keys) if state.values[i] is None]
    key = next((k for k in open_keys if target[k]), open_keys[0])
    return Hint("reveal", f"No deduction finds the next step from here; in the solution {layout.say([key], target[key])}.",
                decide=[layout.hint_entry(key, target[key])])
