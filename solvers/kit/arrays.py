"""The kit's levels on integer arrays, for every kit generator's thousands of "does this level still solve it?"
checks and for the grade: one reading of a model with any rules (counts, a ``Loop``, a genre's own, and a level's
``deeper`` reading of them when the rules alone are stuck), the same deductions as the kit's techniques
(``solvers.kit.human``) with no Step objects and no sentences.

A trial changes the state itself and puts back a copy of its arrays after: a few list copies cost less than
recording each write. A loop's rule is followed by its paths' ends (each end knows the other end and
the path's length), looking only at the paths that changed, not at every link.

``Levels.fits`` also remembers which rules the last solve it accepted used: a clue whose rules that solve never
used can go without a new solve (the same deductions still apply), so polishing a puzzle of many clues runs a
solve only for the clues that matter.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import Any

from solvers.common import Deadline
from solvers.kit import counts_kernel
from solvers.kit.counts_kernel import BROKEN, NOTHING, Table, count_table
from solvers.kit.human import SHORT_ROUNDS
from solvers.kit.known import Known
from solvers.kit.loop import Loop
from solvers.kit.rules import Broken, Model, Read, for_the_last_model, shows, touches
from solvers.techniques.human import Contradiction, Difficulty, Grade, HumanSolver

TRIALS = (SHORT_ROUNDS, None)  # the kit's trials by level: the medium level takes the first, the hard one both
Step = tuple[int, float]  # (the technique's number: 0 rule, 1 short trial, 2 trial, 3 the deeper reading; effort)
COMPILED = True  # ``solves`` and ``grade`` read a model the compiled kernel takes by it (tests compare it off)


@dataclass
class Compiled:
    """What a model's states share: each count's table, each key's counts, the loop's links as node pairs."""

    model: Model
    tables: list[Table | None]
    counts_at: list[list[int]]
    loop: int
    ends: dict[int, tuple[int, int]]
    between: dict[frozenset[int], int]
    nodes: int
    quiet: list[int] = field(default_factory=list)  # a rule with ``quiet_above``: not looked at while more keys are open
    quiet_at: list[list[int]] = field(default_factory=list)  # each key's rules with ``quiet_above`` (their open keys)
    early: bool = True  # the loop's look decides links that would close it early (``Loop.early``)
    givens: list[tuple[int, int, int]] = field(default_factory=list)  # (given rule, key, value): set while shown
    taken: list[Callable[[list[int]], tuple[int, ...]] | None] = field(default_factory=list)  # ``takes_arrays`` rules' keys

    @classmethod
    def of(cls, model: Model) -> Compiled:
        flat = model.flat
        tables: list[Table | None] = [count_table(r.low, r.high, r.allowed, len(r.cells)) if counted else None  # type: ignore[attr-defined]
                                      for r, counted in zip(model.rules, flat.counts, strict=True)]
        loops = [k for k, rule in enumerate(model.rules) if isinstance(rule, Loop)]
        ends: dict[int, tuple[int, int]] = {}
        if loops:
            rule = model.rules[loops[0]]
            assert isinstance(rule, Loop)
            ends = {i: rule.ends[p] for p, i in enumerate(flat.cells[loops[0]])}
        quiet = [getattr(r, "quiet_above", len(r.cells)) for r in model.rules]
        if all(flat.counts):  # every rule read by its table: each key's counts are its rules, none quiet
            counts_at, quiet_at = flat.at, [[] for _ in flat.at]
        else:
            counts_at = [[k for k in ks if tables[k] is not None] for ks in flat.at]
            quiet_at = [[k for k in ks if tables[k] is None and quiet[k] < len(model.rules[k].cells)] for ks in flat.at]
        taken = [itemgetter(*cells) if table is None and len(cells) > 1 and getattr(rule, "takes_arrays", False) else None
                 for rule, table, cells in zip(model.rules, tables, flat.cells, strict=True)]
        return cls(model, tables, counts_at, loops[0] if loops else -1,
                   ends, {frozenset(pair): i for i, pair in ends.items()}, 1 + max((max(p) for p in ends.values()), default=0),
                   quiet, quiet_at,
                   not loops or getattr(model.rules[loops[0]], "early", True),
                   flat.given_by, taken)


@for_the_last_model
def compiled(model: Model) -> Compiled:
    """The model's compiled form, kept for the last model asked (the generator asks about one at a time)."""
    return Compiled.of(model)


class State:
    """The keys' values (-1 open), each count's ones and open keys, and each loop path's ends, on arrays. A given
    the generator may hide (a digit inside) is decided only while shown; ``deeper`` reads the rules that are not
    counts when the rules alone are stuck."""

    def __init__(self, model: Model, shown: frozenset[Hashable] | None = None, deeper: Read | None = None):
        self.c = c = compiled(model)
        self.deeper = deeper
        flat = model.flat
        self.cells = flat.cells
        self.counts_at, self.quiet_at, self.ends = c.counts_at, c.quiet_at, c.ends  # read by every set
        self.active = active = [shows(clue, shown) for clue in flat.clue]
        self.at_active = flat.at if all(active) else [[k for k in ks if active[k]] for ks in flat.at]  # read by near
        self.values = [-1] * len(model.keys)
        self.answer: Sequence[int] | None = None  # each key's value in the answer where known (``trials``), else -1
        self.ones = [0] * len(flat.cells)
        self.open = [len(cells) for cells in flat.cells]
        self.partner = [-1] * c.nodes  # the other end of the path a node ends; -1 alone, -2 inside a path
        self.length = [0] * c.nodes  # the links of the path a node ends
        self.lines = [0, 0]  # the loop's 1-links, and the length of a closed loop (0: none)
        self.fresh: list[int] = []  # paths' ends joined since the loop last looked; [-1]: look at every path
        self.arrays = (self.values, self.ones, self.open)  # what a trial changes
        if c.loop >= 0:
            self.arrays += (self.partner, self.length, self.lines)
        for i, value in {i: value for k, i, value in c.givens if self.active[k]}.items():
            self.set(i, value)

    def set(self, i: int, value: int) -> None:
        self.values[i] = value
        open_ = self.open
        if value:
            ones = self.ones
            for k in self.counts_at[i]:
                open_[k] -= 1
                ones[k] += 1
            if i in self.ends:
                self._join(*self.ends[i])
        else:
            for k in self.counts_at[i]:
                open_[k] -= 1
        for k in self.quiet_at[i]:
            open_[k] -= 1

    def _join(self, a: int, b: int) -> None:
        partner, length, lines = self.partner, self.length, self.lines
        if partner[a] == -2 or partner[b] == -2:
            return  # a third link at a node: its count breaks
        far_a = (partner[a], length[a]) if partner[a] >= 0 else (a, 0)
        far_b = (partner[b], length[b]) if partner[b] >= 0 else (b, 0)
        if far_a[1] == far_b[1] == 0 and lines[0]:
            self.fresh.append(-1)  # a new path beside others: a path that held every line no longer does
        lines[0] += 1
        if far_a[0] == b:
            lines[1] = far_a[1] + 1
            return
        for node in (a, b):
            if partner[node] >= 0:
                partner[node] = -2
        joined = far_a[1] + far_b[1] + 1
        for node, far in ((far_a[0], far_b[0]), (far_b[0], far_a[0])):
            partner[node] = far
            length[node] = joined
        self.fresh.append(far_a[0])

    def _loop_look(self) -> list[tuple[int, int]]:
        """The loop rule's look: broken when a loop closed with other lines outside it; else every open link
        that would close a path while other lines exist is 0."""
        lines, partner, length = self.lines, self.partner, self.length
        if not lines[0] and min(self.values) >= 0:
            raise Broken("there would be no loop")
        if lines[1]:
            if lines[0] > lines[1]:
                raise Broken("a loop closed early")
            return [(i, 0) for i in self.c.ends if self.values[i] < 0]
        ends = range(len(partner)) if -1 in self.fresh else self.fresh
        self.fresh = []
        if not self.c.early:
            return []
        forced = []
        for node in ends:
            far = partner[node]
            if far >= 0 and length[node] < lines[0]:
                i = self.c.between.get(frozenset((node, far)))
                if i is not None and self.values[i] < 0:
                    forced.append((i, 0))
        return forced

    def look(self, k: int, read: Read | None = None) -> list[tuple[int, int]]:
        """The open keys rule ``k`` decides now, a rule that is not a count read by ``read`` (None: its look);
        raises Broken."""
        table = self.c.tables[k]
        if table is not None:
            action = table[self.ones[k]][self.open[k]]
            if action == BROKEN:
                raise Broken("")
            return [] if action == NOTHING else [(i, action) for i in self.cells[k] if self.values[i] < 0]
        if k == self.c.loop:
            return self._loop_look()
        if self.open[k] > self.c.quiet[k]:
            return []
        members, values, rule, taken = self.cells[k], self.values, self.c.model.rules[k], self.c.taken[k]
        known = taken(values) if taken is not None else [None if values[i] < 0 else values[i] for i in members]
        return [(members[p], v) for p, v in (rule.look(known) if read is None else read(rule, known))
                if values[members[p]] < 0]

    def near(self, keys: Any) -> set[int]:
        at = self.at_active
        return {k for i in keys for k in at[i]}

    def follow(self, looking: set[int] | None = None, rounds: int | None = None, used: set[int] | None = None,
               steps: list[Step] | None = None) -> int:
        """Apply the rules round after round (all of them first when ``looking`` is None), at most ``rounds``;
        a round in which they decide nothing reads instead, by ``deeper``, the rules changed since it last did. The
        round a rule broke in, else 0. ``used`` gathers the rules that decided something or broke, ``steps`` a rule step
        for each rule that decided something."""
        if looking is None:
            self.fresh = [-1]
            looking = {k for k, on in enumerate(self.active) if on}
        tables = self.c.tables
        deep = {k for k in looking if tables[k] is None} if self.deeper else set()
        done = 0
        while (looking or deep) and (rounds is None or done < rounds):
            done += 1
            decided = self._round(looking, None, used, steps)
            if decided == {} and deep:
                decided, deep = self._round(deep, self.deeper, used, steps), set()
            if decided is None:
                return done
            for i, value in decided.items():
                self.set(i, value)
            looking = self.near(decided)
            if self.deeper:
                deep |= {k for k in looking if tables[k] is None}
        return 0

    def _round(self, looking: Iterable[int], read: Read | None, used: set[int] | None,
               steps: list[Step] | None) -> dict[int, int] | None:
        """What the rules ``looking`` decide together (key -> value); None when one breaks or two decide a key
        both ways."""
        tables, ones, open_, values, cells, quiet = self.c.tables, self.ones, self.open, self.values, self.cells, self.c.quiet
        decided: dict[int, int] = {}
        for k in looking:
            table = tables[k]
            try:
                if table is None:
                    if open_[k] > quiet[k]:
                        continue
                    forced = self.look(k, read)
                else:  # a count, inline: most of the looks
                    action = table[ones[k]][open_[k]]
                    if action == NOTHING:
                        continue
                    if action == BROKEN:
                        raise Broken("")
                    forced = [(i, action) for i in cells[k] if values[i] < 0]
            except Broken:
                if used is not None:
                    used.add(k)
                return None
            if forced:
                if used is not None:
                    used.add(k)
                if steps is not None:
                    steps.append((0 if read is None else 3, 1.0))
            for i, value in forced:
                if decided.setdefault(i, value) != value:
                    return None
        return decided

    def solved(self) -> bool:
        """Every key decided and no rule broken."""
        if min(self.values) < 0:
            return False
        self.fresh = [-1]
        try:
            for k, on in enumerate(self.active):
                if on:
                    self.look(k)
        except Broken:
            return False
        return True

    def attempt(self, i: int, value: int, rounds: int | None, used: set[int], steps: list[Step] | None,
                plan: list[tuple[int, int, int | None]] | None) -> bool | None:
        """Assume key ``i`` is ``value`` and follow it ``rounds`` rounds: True when a rule broke (``i`` is then the
        other value, followed as far as the rules go), False when none did, None when the rules then break."""
        fired: set[int] = set()
        kept = [array[:] for array in self.arrays]
        self.set(i, value)
        broke = self.follow(self.near([i]), rounds, fired)
        for array, old in zip(self.arrays, kept, strict=True):
            array[:] = old
        self.fresh = []  # the trial's paths are gone; the state before it had its look
        if not broke:
            return False
        used |= fired
        if steps is not None:
            steps.append((1 if rounds is not None else 2, float(broke)))
        if plan is not None:
            plan.append((i, value, rounds))
        self.set(i, 1 - value)
        return None if self.follow(self.near([i]), None, used, steps) else True

    def trials(self, rounds: int | None, used: set[int], steps: list[Step] | None = None,
               plan: list[tuple[int, int, int | None]] | None = None, keys: set[int] | None = None,
               deadline: Deadline | None = None) -> bool:
        """Each open key (of ``keys``, else all) assumed each way and followed ``rounds`` rounds (None: as far as
        they go); a broken rule decides it the other way, and the rules go on. False when the rules break. A trial
        that agrees with the ``answer`` is not followed: it would not break (``solvers.kit.known``)."""
        answer = self.answer
        progress = True
        while progress and min(self.values) < 0:
            progress = False
            for i in [i for i in (range(len(self.values)) if keys is None else sorted(keys)) if self.values[i] < 0]:
                if deadline is not None:
                    deadline.check()
                for value in (1, 0):
                    if self.values[i] >= 0:
                        break
                    if answer is not None and answer[i] == value:
                        continue
                    found = self.attempt(i, value, rounds, used, steps, plan)
                    if found is None:
                        return False
                    progress = progress or found
        return True

    def finish(self, trials: Sequence[int | None], used: set[int], steps: list[Step] | None = None,
               plan: list[tuple[int, int, int | None]] | None = None, keys: set[int] | None = None) -> bool:
        """Whether the trials of each of ``trials`` rounds in turn (as ``trials``) solve the state the rules left."""
        for rounds in trials:
            if min(self.values) < 0 and not self.trials(rounds, used, steps, plan, keys):
                return False
        return self.solved()


def on_kernel(model: Model, deeper: Read | None = None) -> bool:
    """Whether ``model``, read with ``deeper`` (None: the rules alone), is solved and graded on the compiled kernel
    (``solvers.kit.counts_kernel``): the same deductions in the same order as on ``State``."""
    return COMPILED and counts_kernel.takes(model) and (deeper is None or counts_kernel.reads_deeper(deeper))


def solves(model: Model, shown: frozenset[Hashable] | None = None, trials: Sequence[int | None] = (),
           deeper: Read | None = None) -> bool:
    """Whether the rules (read by ``deeper`` too when they are stuck), then trials of each of ``trials`` rounds
    (None: followed to the end), solve ``model`` showing ``shown``: the kit's level ``n`` takes ``TRIALS[:n]``. A
    model the compiled kernel takes (``solvers.kit.counts_kernel``), read with no ``deeper`` or one the kernel reads
    too, is solved by it: the same deductions in the same order."""
    if on_kernel(model, deeper):
        return counts_kernel.solves(model, shown, trials, deeper is not None)
    return solves_on_state(model, shown, trials, deeper)


def solves_on_state(model: Model, shown: frozenset[Hashable] | None = None, trials: Sequence[int | None] = (),
                    deeper: Read | None = None) -> bool:
    """``solves`` on the Python ``State``: any model's rules, any ``deeper``."""
    state = State(model, shown, deeper)
    used: set[int] = set()
    return not state.follow(None, None, used) and state.finish(trials, used)


def within(people: HumanSolver[Model, Any], model: Model, level: str, shown: frozenset[Hashable] | None = None) -> bool:
    """Whether the techniques up to ``level`` solve ``model`` showing the clues ``shown`` (all when None): the
    generator keeps a draw at its level with it. A model the compiled kernel reads (``counts_kernel.takes``: counts,
    spaced lines, pairings) at the kit's first two levels is read on arrays (``solves``); a genre's own techniques
    take their path."""
    index = people.level_names.index(level)
    kits = [t.name for t in people.levels[1].techniques] == ["short trial"]  # the kit's levels, not a genre's own
    if counts_kernel.takes(model) and (index == 0 or index == 1 and kits):
        return solves(model, shown, TRIALS[:index])
    try:
        return people.run(model if shown is None else model.showing(shown), upto=index).state.solved
    except Contradiction:
        return False


def grade(people: HumanSolver[Model, Any], model: Model, deeper: Read | None = None,
          chain: int = SHORT_ROUNDS) -> Grade:
    """The kit's grade (its level, and a score from its techniques' weights) from the array solve of the lowest
    level that solves the model; the kit's own three levels, with any named readings of the rules at the first
    (``solver(first=...)``), whose steps count as the rules' own (the arrays read them as rules). With ``deeper``,
    ``group_levels``' four: the rules read by ``deeper`` second, then trials of ``chain`` rounds and trials to the
    end. One solve: a level's solve is the one below's, then its own reading or trials, so each level goes on
    where the one below stopped."""
    names = [t.name for _, t in people.techniques()]
    rule = names.index("rule")
    own = ["rule", *([names[rule + 1]] if deeper is not None else []), "short trial", "trial"]
    assert names[rule:] == own and len(people.levels[0].techniques) == rule + 1
    numbers = [rule, len(names) - 2, len(names) - 1, rule + 1]  # the arrays' technique numbers in ``names``
    if on_kernel(model, deeper):
        solved, tallies = counts_kernel.graded(model, (chain, None), deeper is not None)
        return people.grade_tallied([(numbers[t], count, effort) for t, count, effort in tallies], solved)
    steps: list[Step] = []
    state = State(model)

    def read_deeper() -> bool:
        state.deeper = deeper  # from here on, trials read deeper too
        return bool(state.follow(None, None, set(), steps))

    # What each level adds to the one below, True when a rule broke.
    above = [*([read_deeper] if deeper is not None else []), lambda: not state.trials(chain, set(), steps),
             lambda: not state.trials(None, set(), steps)]
    broken = bool(state.follow(None, None, set(), steps))
    for level in range(len(above) + 1):  # each level goes on from the state the one below left: what ``solves`` does anew
        if level and not broken and min(state.values) < 0:
            broken = above[level - 1]()
        if not broken and state.solved():
            return people.grade_numbered([(numbers[t], effort) for t, effort in steps], True)
    return people.grade_numbered([(numbers[t], effort) for t, effort in steps], False)


def fast(difficulty: Difficulty, people: HumanSolver[Model, Any], model_of: Any, deeper: Read | None = None,
         chain: int = SHORT_ROUNDS) -> Difficulty:
    """A kit Difficulty that grades on arrays (``grade``; the hints keep the kit's techniques and sentences)."""
    return replace(difficulty, grade=lambda puzzle, deadline: grade(people, model_of(puzzle), deeper, chain))


class Levels:
    """``fits(model, shown)`` for the kit's generator at a level. It remembers the last solve it accepted: the
    rules it used (a clue none of whose rules it used goes without a new solve) and its trials in order, which a
    solve without one more clue tries first, then trials near the clue gone. A solve that does not finish so
    answers no (a clue kept that a full search might have let go: the puzzle stays at its level, with one more
    clue); the first solve of a board is a full one. A model of plain counts (``counts_kernel.takes``) is solved
    whole by the compiled kernel instead, which answers as a full solve does."""

    def __init__(self, level: int):
        self.level = level
        self.model: Model | None = None
        self.shown: frozenset[Hashable] = frozenset()
        self.used: set[int] = set()
        self.plan: list[tuple[int, int, int | None]] = []
        self.known, self.known_for = Known(0), None  # the answer of ``known_for`` once a solve finds it

    def fits(self, model: Model, shown: frozenset[Hashable]) -> bool:
        if on_kernel(model):  # a compiled solve from scratch beats the plan
            return counts_kernel.solves(model, shown, TRIALS[:self.level])
        again = model is self.model and shown < self.shown
        if again:
            gone = self.shown - shown
            if not any(touches(model.flat.clue[k], gone) for k in self.used):
                self.shown = shown
                return True
        used: set[int] = set()
        plan: list[tuple[int, int, int | None]] = []
        state = State(model, shown)
        if model is not self.known_for:
            self.known, self.known_for = Known(len(state.values)), model
        state.answer = self.known.listed(shown)
        if state.follow(None, None, used):
            return False
        for i, value, rounds in self.plan if again else ():
            if state.values[i] < 0 and state.attempt(i, value, rounds, used, None, plan) is None:
                return False
        if not state.finish(TRIALS[:self.level], used, None, plan,
                            self._near(state, self.shown - shown) if again else None):
            return False
        self.known.learn(shown, state.values)
        self.model, self.shown, self.used, self.plan = model, shown, used, plan
        return True

    @staticmethod
    def _near(state: State, gone: frozenset[Hashable]) -> set[int]:
        """The keys within two counts of the clues ``gone``: where a trial can newly be needed without them."""
        flat, counts_at = state.c.model.flat, state.c.counts_at
        keys = {i for k, clue in enumerate(flat.clue) if touches(clue, gone) for i in flat.cells[k]}
        for _ in range(2):
            keys |= {j for i in keys for k in counts_at[i] for j in flat.cells[k]}
        return keys
