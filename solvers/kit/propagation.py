"""The generator's level checks on integer arrays for models whose rules are not all plain counts.

``solvers.kit.human.Fixpoint`` reads plain counts by their arithmetic and nothing else; ``Propagation`` reads
those the same way and any other rule (a visibility clue, a connection) by its own ``look``, or by a deeper
reading a level names (``read``), still with no Step objects and no sentences. Every reading only decides more
as more is decided, so the order of the looks does not change where the rules get stuck.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence

from solvers.kit.human import Fixpoint
from solvers.kit.rules import Broken, Count, Model, Rule, shows

Read = Callable[[Rule, Sequence[int | None]], list[tuple[int, int]]]


def plain_look(rule: Rule, values: Sequence[int | None]) -> list[tuple[int, int]]:
    return rule.look(values)


class Propagation(Fixpoint):
    """A Fixpoint whose other rules speak through ``read`` (default: their ``look``)."""

    def __init__(self, model: Model, shown: frozenset[Hashable] | None = None, read: Read = plain_look,
                 deeper: Read | None = None):
        """As Fixpoint's, but a given the generator may hide (a digit inside) is decided only while shown;
        ``deeper``: a level's deeper reading of the other rules (a genre technique's), used when ``read`` is stuck."""
        flat = self.flat = model.flat
        self.active = [shows(clue, shown) for clue in flat.clue]
        self.values = [-1] * len(model.keys)
        self.ones = [0] * len(flat.cells)
        self.left = [len(cells) for cells in flat.cells]
        self.rules, self.read, self.deeper = model.rules, read, deeper
        self.plain = [isinstance(r, Count) and r.allowed is None and len(set(r.cells)) == len(r.cells)
                      for r in model.rules]
        for k, rule in enumerate(model.rules):
            if rule.given and self.active[k]:
                for i in flat.cells[k]:
                    self.set(i, flat.low[k])

    def copy(self) -> Propagation:
        other = object.__new__(Propagation)
        other.__dict__.update(self.__dict__)
        other.values, other.ones, other.left = self.values[:], self.ones[:], self.left[:]
        return other

    def _other(self, k: int, read: Read) -> list[tuple[int, int]] | None:
        """What rule ``k`` (not a plain count) decides, as (key index, value); None when it is broken."""
        members = self.flat.cells[k]
        try:
            forced = read(self.rules[k], [None if (v := self.values[i]) < 0 else v for i in members])
        except Broken:
            return None
        return [(members[p], value) for p, value in forced]

    def _round(self, looking: Iterable[int], read: Read) -> dict[int, int] | None:
        """What the rules ``looking`` decide together (key index -> value); None when one breaks."""
        flat, ones, left, values = self.flat, self.ones, self.left, self.values
        decided: dict[int, int] = {}
        for k in looking:
            if not self.plain[k]:
                forced = self._other(k, read)
                if forced is None:
                    return None
            elif ones[k] > flat.high[k] or ones[k] + left[k] < flat.low[k]:
                return None
            elif left[k] and (ones[k] == flat.high[k] or ones[k] + left[k] == flat.low[k]):
                value = 0 if ones[k] == flat.high[k] else 1
                forced = [(i, value) for i in flat.cells[k]]
            else:
                continue
            for i, value in forced:
                if values[i] < 0 and decided.setdefault(i, value) != value:
                    return None  # two rules decide the key both ways
        return decided

    def follow(self, rules: set[int] | None = None, rounds: int | None = None) -> bool:
        """Rounds of looks as a person's trial takes them: a round is what the rules decide together; only when
        they decide nothing does the deeper reading look, at the rules changed since it last did."""
        looking = {k for k, on in enumerate(self.active) if on} if rules is None else rules
        deep = {k for k in looking if not self.plain[k]} if self.deeper else set()
        done = 0
        while (looking or deep) and (rounds is None or done < rounds):
            done += 1
            decided = self._round(looking, self.read)
            if decided == {} and deep and self.deeper:
                decided, deep = self._round(deep, self.deeper), set()
            if not decided:
                return decided is not None
            for i, value in decided.items():
                self.set(i, value)
            looking = self.near(list(decided))
            deep |= {k for k in looking if not self.plain[k]}
        return True

    def solved(self) -> bool:
        flat = self.flat
        return min(self.values) >= 0 and all(
            not on or (flat.low[k] <= self.ones[k] <= flat.high[k] if self.plain[k]
                       else self._other(k, self.read) is not None) for k, on in enumerate(self.active))


def solves(model: Model, shown: frozenset[Hashable] | None = None, deeper: Read | None = None,
           trials: int = 0) -> bool:
    """Whether the rules (and their ``deeper`` reading, when they are stuck), and with ``trials`` trials of that
    many rounds, solve ``model`` showing ``shown``: as ``solvers.kit.human.short_trials``, each undecided key
    assumed each way and followed; a broken rule decides it the other way, and the rules go on."""
    state = Propagation(model, shown, plain_look, deeper)
    if not state.follow():
        return False
    progress = trials > 0
    while progress and min(state.values) < 0:
        progress = False
        for i in [i for i, value in enumerate(state.values) if value < 0]:
            for value in (1, 0):
                if state.values[i] >= 0:
                    break
                trial = state.copy()
                trial.set(i, value)
                if not trial.follow(trial.near([i]), trials):
                    state.set(i, 1 - value)
                    if not state.follow(state.near([i])):
                        return False
                    progress = True
    return state.solved()
