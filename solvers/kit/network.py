"""``Connected`` with a look that reads each link once, on node numbers: ``Connected.look`` goes through every link
for each group in turn, which a level check of a large network (thousands of looks, most of them with one group per
node) spends most of its time on. Same groups, same decisions, same sentences; the SAT cuts are Connected's.

``Deferred`` is a network a person reads only as a technique (``NETWORK``), at the level the genre puts it."""

from __future__ import annotations

from collections.abc import Sequence

from solvers.kit.rules import Broken, Connected, Model
from solvers.techniques.human import Contradiction, GridState, Step, Technique


class Network(Connected):
    """Connected, looked at in one pass over the links."""

    def __post_init__(self) -> None:
        super().__post_init__()
        number = {node: i for i, node in enumerate(dict.fromkeys([*self.nodes, *(n for _, a, b in self.links for n in (a, b))]))}
        object.__setattr__(self, "ends", [(number[a], number[b]) for _, a, b in self.links])
        object.__setattr__(self, "required", [number[node] for node in self.nodes])
        object.__setattr__(self, "size", len(number))

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        parent = list(range(self.size))

        def root(x: int) -> int:
            while parent[x] != x:
                parent[x] = x = parent[parent[x]]
            return x

        present, ends = set(self.required), self.ends
        for i in [i for i, value in enumerate(values) if value == 1]:
            a, b = ends[i]
            parent[root(a)] = root(b)
            present.update((a, b))
        top = [root(x) for x in range(self.size)]
        members: dict[int, int] = {}
        for x in present:
            members[top[x]] = members.get(top[x], 0) + 1
        if len(members) < 2:
            return []
        ways: dict[int, list[int]] = {g: [] for g in members}
        for i in [i for i, value in enumerate(values) if value is None]:
            a, b = top[ends[i][0]], top[ends[i][1]]
            if a != b:
                if a in ways:
                    ways[a].append(i)
                if b in ways:
                    ways[b].append(i)
        for g, out in ways.items():
            if not out:
                raise Broken(f"a group of {members[g]} would be cut off from the rest")
        return [(out[0], 1) for out in ways.values() if len(out) == 1]


class Deferred(Network):
    """A network that, as a rule alone, decides nothing and is broken only once every link is decided: a person
    reads it as the technique ``NETWORK``, at the level the genre puts it."""

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        return [] if None in values else super().look(values)


def read_network(model: Model, state: GridState) -> list[Step]:
    """Each deferred network's look: a group with one way out to the rest takes it; one with none breaks the rule."""
    steps = []
    for k, rule in enumerate(model.rules):
        if isinstance(rule, Deferred):
            members = model.flat.cells[k]
            try:
                forced = Network.look(rule, [state.values[i] for i in members])
            except Broken as broken:
                raise Contradiction(f"{rule.says}, and {broken.why}", model.where(rule)) from None
            steps += [Step("network", f"{rule.says}, and this is a group's last way out: "
                           f"{model.layout.say([model.keys[i]], 1)}", (((0, i), 1),), (model.layout.cell(model.keys[i]),))
                      for i in dict.fromkeys(members[p] for p, _ in forced)]
    return steps


NETWORK = Technique("network", "A group with one way out to the rest takes it; a group with none is a contradiction.",
                    3.0, read_network)
