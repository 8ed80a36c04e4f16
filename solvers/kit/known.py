"""The answer a level's sound deductions found on a model, kept for the checks that follow on the same model.

The generator asks a level thousands of times about one model with fewer and fewer of its clues shown. Once a
level has solved it showing some clues, their only answer is known, and it is an answer of every puzzle showing
fewer of them: a trial that agrees with it never breaks a rule (sound deductions never break on a true answer),
so the level's trials need only follow the trials that disagree. The checks answer exactly as before.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np


class Known:
    """A model's answer on its keys (``unknown`` where nothing is known), and the clues shown when it was found
    (None: all of them)."""

    def __init__(self, keys: int, unknown: int = -1):
        self.blank = np.full(keys, unknown, np.int64)
        self.values = self.blank.copy()
        self.shown: frozenset[Hashable] | None = frozenset()
        self.learnt = False
        self._listed: list[int] | None = None

    def on(self, shown: frozenset[Hashable] | None) -> np.ndarray:
        """The answer where it is one of the puzzle showing ``shown`` (it was found with those clues shown and
        perhaps more), else every key unknown."""
        if self.learnt and (self.shown is None or (shown is not None and shown <= self.shown)):
            return self.values
        return self.blank

    def listed(self, shown: frozenset[Hashable] | None) -> list[int] | None:
        """``on`` as a list for a Python state, None where nothing is known."""
        if self.on(shown) is self.blank:
            return None
        if self._listed is None:
            self._listed = self.values.tolist()
        return self._listed

    def learn(self, shown: frozenset[Hashable] | None, values: Sequence[int] | np.ndarray) -> None:
        """A level solved the puzzle showing ``shown`` to ``values``: kept unless what is kept holds more widely."""
        if self.learnt and (self.shown is None or (shown is not None and not shown > self.shown)):
            return
        self.values[:] = values
        self.shown, self.learnt, self._listed = shown, True, None
