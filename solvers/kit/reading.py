"""The technique of the rules a person reads as a whole group (a line of towers, a cage, a sum): the group read
with what its cells may still hold, not only with the digits placed. Each such rule reads itself by
``read(values, candidates)``; this turns that into a technique, its hints and the level checks' reading."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solvers.common import Cell
from solvers.kit.rules import Broken, Model, Read, Rule
from solvers.techniques.human import Contradiction, GridState, Step, Technique


def group_reading(kind: type, name: str, description: str, phrase: Callable[[Any], str],
                  cells: Callable[[Any], tuple[Cell, ...]]) -> tuple[Technique, Read]:
    """The technique that reads every rule of ``kind`` with its cells' candidates (a hint says "<rule>: <phrase>
    <what they agree on>", pointing at ``cells(rule)``), and the reading of a level that has it, for
    ``solvers.kit.arrays``: such a rule's full reading, any other rule's look."""

    def analyse(model: Model, state: GridState, rules: Sequence[int]) -> list[Step]:
        steps, layout, keys = [], model.layout, model.keys
        for k in rules:
            rule, members = model.rules[k], model.flat.cells[k]
            if not isinstance(rule, kind):
                continue
            try:
                forced = rule.read([state.values[i] for i in members], candidates=True)
            except Broken as broken:
                raise Contradiction(f"{rule.says}, and {broken.why}", cells(rule)) from None
            if forced:
                said = "; ".join(layout.say([keys[members[p]] for p, v in forced if v == value], value)
                                 for value in (1, 0) if any(v == value for _, v in forced))
                steps.append(Step(name, f"{rule.says}: {phrase(rule)} {said}",
                                  tuple(((0, members[p]), v) for p, v in forced), cells(rule)))
        return steps

    technique = Technique(
        name, description, 2.0, lambda model, state: analyse(model, state, range(len(model.rules))),
        lambda model, state, changed: analyse(model, state, list(dict.fromkeys(k for i in changed for k in model.flat.at[i]))))

    def analysed(rule: Rule, values: Sequence[int | None]) -> list[tuple[int, int]]:
        return rule.read(values, candidates=True) if isinstance(rule, kind) else rule.look(values)

    return technique, analysed
