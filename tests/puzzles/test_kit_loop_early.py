"""``Loop.early``: whether a person reads "this link would close the loop early" off the loop rule alone (the
default, as in Slitherlink) or finds it only by a trial (Masyu, as Tatham's Pearl puts it at Tricky). Both the
kit's techniques (``Loop.look``) and the generator's array levels (``solvers.kit.arrays``) follow the flag."""

from __future__ import annotations

import pytest

from solvers.common import Deadline
from solvers.kit.arrays import State
from solvers.kit.loop import Loop
from solvers.kit.rules import Broken, Count, Layers, Model
from solvers.kit.solving import solve

# A square a-b-c-d with three sides drawn, and a line e-f apart from it: the fourth side would close a loop
# with e-f outside it.
LINKS = ((("l", 0, 0), "a", "b"), (("l", 0, 1), "b", "c"), (("l", 0, 2), "c", "d"), (("l", 0, 3), "d", "a"),
         (("l", 0, 4), "e", "f"))


def model(early: bool) -> Model:
    givens = tuple(Count((key,), 1, 1, "given", f"{key} is drawn", given=True) for key, _, _ in LINKS if key[2] != 3)
    return Model(Layers({"l": (1, 5)}, "a line", "crossed"), (*givens, Loop(LINKS, "one-loop", "one loop", early=early)))


@pytest.mark.parametrize("early", [True, False])
def test_the_closing_link_is_read_off_the_rule_only_when_early(early: bool) -> None:
    loop = Loop(LINKS, "one-loop", "one loop", early=early)
    assert loop.look([1, 1, 1, None, 1]) == ([(3, 0)] if early else [])
    with pytest.raises(Broken):  # drawn, it closes a loop early either way: a trial finds that
        loop.look([1, 1, 1, 1, 1])
    state = State(model(early))
    assert state.follow(None, None, set()) == 0
    assert state.values[3] == (0 if early else -1)


def test_the_flag_changes_no_answer() -> None:
    for early in (True, False):
        assert solve(model(early), 10, Deadline.after(20)).count == 0  # e-f can join no loop
