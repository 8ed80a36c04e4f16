"""One exact test split across threads, young brothers waiting (Feldmann's YBWC), for the one search that
otherwise runs alone: the likeliest move's full window, which every other move is then compared with.

A node with at least ``SPLIT_MIN_EMPTIES`` empties searches its first move (its eldest brother) first and alone,
split the same way one ply down: with the table's move first, that move usually decides (a cut) and nothing else
is searched. When it does not cut, every other move must be searched too, and they are searched side by side:
an idle thread takes one and splits it the same way, so that work appears wherever a thread is idle; a thread
whose node waits on moves another thread is searching helps with those moves' own split nodes meanwhile. A cut by
any move stops the node's other moves and everything below them. Split nodes search as the engine's nodes do
(the table's bounds and move, principal variation windows) and leave their bounds in the table; below
``SPLIT_MIN_EMPTIES`` a node is one engine search. Every search is exact and every thread reads and writes the
process's one transposition table, so the value is the engine's.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from solvers.common import BudgetExceeded
from solvers.othello import engine

SPLIT_MIN_EMPTIES = 20  # below, a node's searches take tens of milliseconds: one engine search each
# The estimate before the split tests runs on one thread while the tests run on all, so it stops two plies sooner
# than one thread's (``engine.ESTIMATE_LEAF_EMPTIES``): chosen on training positions by ``bench/split_estimate.py``.
ESTIMATE_LEAF_EMPTIES = 12
HELPER_TRIAL_SECONDS, HELPER_MIN_CPU_SHARE = 0.5, 0.7  # a helper searching this long with less of a core stops
Child = tuple[int, int, int]  # a move's square and the position after it, from the opponent's side


@dataclass(eq=False)
class _Node:
    """A split node: its window (alpha raised to the best value, as principal variation search does), the best
    value its moves have returned and by which move, its moves not yet taken, how many are being searched, and
    the split node it is searched under."""

    alpha: int
    beta: int
    best: int
    best_move: int
    pending: deque[Child]
    parent: _Node | None
    depth: int
    running: int = 0
    cut: bool = False

    def stopped(self) -> bool:
        """This node or one above it was cut: its search is no longer needed."""
        node: _Node | None = self
        while node is not None:
            if node.cut:
                return True
            node = node.parent
        return False

    def under(self, other: _Node) -> bool:
        node: _Node | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False


def starved(wall: float, cpu: float) -> bool:
    """A helper that has searched ``wall`` seconds with ``cpu`` of them on a core gets too little of one."""
    return wall > HELPER_TRIAL_SECONDS and cpu < HELPER_MIN_CPU_SHARE * wall


class _Cut(Exception):
    """A search stopped because a node above it was cut."""


@dataclass
class Splitter:
    """The threads of one split test and the work they share. ``out_of_time`` is the caller's clock."""

    threads: int
    out_of_time: Callable[[], bool]
    nodes: int = 0
    _changed: threading.Condition = field(default_factory=threading.Condition)
    _open: list[_Node] = field(default_factory=list)  # split nodes with moves not yet finished
    _done: bool = False
    _error: BaseException | None = None  # a helper's failure: every search stops and the caller raises it

    def _halted(self) -> bool:
        return self._error is not None or self.out_of_time()

    def test(self, p: int, o: int, alpha: int, beta: int) -> int:
        """Fail-soft exact value of (p, o) within (alpha, beta), ``threads`` threads searching."""
        self._done = False
        helpers = [threading.Thread(target=self._help, name=f"split-{i}") for i in range(1, self.threads)]
        for helper in helpers:
            helper.start()
        try:
            value = self._value(p, o, alpha, beta, None)
        finally:
            with self._changed:
                self._done = True
                self._changed.notify_all()
            for helper in helpers:
                helper.join()
            if self._error is not None:
                raise self._error
        return value

    def _value(self, p: int, o: int, alpha: int, beta: int, parent: _Node | None,
               starved: Callable[[], bool] | None = None) -> int:
        """A node's search on this thread, under the split node ``parent``: split from ``SPLIT_MIN_EMPTIES``
        empties. Raises _Cut when a node above stops it (or ``starved``: a helper too slow to go on),
        BudgetExceeded when the time is out."""
        moves = engine.legal_moves(p, o)
        if 64 - (p | o).bit_count() < SPLIT_MIN_EMPTIES or moves & (moves - 1) == 0:
            return self._search(p, o, alpha, beta, parent, starved)
        table = engine.table()
        lo, hi = table.stored(p, o)
        if lo >= beta or hi <= alpha or lo == hi:
            return lo if lo >= beta or lo == hi else hi
        first, *others = [(sq, *engine.play(p, o, sq)) for sq in table.ordered(p, o)]
        best = -self._value(*first[1:], -beta, -alpha, parent, starved)
        node = _Node(max(alpha, best), beta, best, first[0], deque(others), parent,
                     0 if parent is None else parent.depth + 1)
        if best < beta:
            self._split(node)
        best = node.best
        lower, upper = (best, engine.SCORE_MAX) if best >= beta else (-engine.SCORE_MAX, best) if best <= alpha \
            else (best, best)
        table.store(p, o, lower, upper, node.best_move)
        return best

    def _search(self, p: int, o: int, alpha: int, beta: int, parent: _Node | None,
                starved: Callable[[], bool] | None) -> int:
        """One engine search on this thread."""
        counters = engine.Counters.with_limit(1 << 62)
        value = engine.table().search(
            p, o, alpha, beta, -1, counters,
            lambda: self._halted() or (parent is not None and parent.stopped()) or (starved is not None and starved()))
        with self._changed:
            self.nodes += counters.nodes
        if counters.aborted:
            if self._halted():
                raise BudgetExceeded("an exact search ran out of time")
            raise _Cut
        return value

    def _split(self, node: _Node) -> None:
        """The node's other moves, searched by this thread and idle ones until they are all done or one cuts;
        while the moves left are being searched by others, this thread helps below them."""
        with self._changed:
            self._open.append(node)
            self._changed.notify_all()
        try:
            while True:
                with self._changed:
                    work = self._take(node)
                    while work is None and node.running:
                        self._changed.wait()
                        work = self._take(node)
                if work is None:
                    break
                self._run(*work)
        except BaseException:  # stopped from above, or out of time: its moves still searched elsewhere stop too
            node.cut = True
            raise
        finally:
            with self._changed:
                self._open.remove(node)
                self._changed.notify_all()
        if self._halted():  # a move may have stopped unfinished: the node's value is unknown
            raise BudgetExceeded("an exact search ran out of time")
        if node.parent is not None and node.parent.stopped():
            raise _Cut

    def _take(self, within: _Node | None) -> tuple[_Node, Child] | None:
        """Under the lock, a move to search: of ``within`` or a split node below it (a thread waiting on its
        node helps only below it), else of any split node (an idle helper); the deepest first."""
        for node in sorted(self._open, key=lambda n: -n.depth):
            if node.pending and not node.stopped() and (within is None or node.under(within)):
                node.running += 1
                return node, node.pending.popleft()
        return None

    def _run(self, node: _Node, child: Child, starved: Callable[[], bool] | None = None) -> bool:
        """Search one move of a split node on this thread and record its value; False if a starved helper
        handed it back."""
        sq, p, o = child
        try:
            value = -self._value(p, o, -node.beta, -node.alpha, node, starved)
        except _Cut:
            if not node.stopped():  # a starved helper's search: handed back
                with self._changed:
                    node.running -= 1
                    node.pending.appendleft(child)
                    self._changed.notify_all()
                return False
            value = -engine.SCORE_MAX - 1
        except BaseException as error:
            with self._changed:
                node.running -= 1
                if not isinstance(error, BudgetExceeded) and self._error is None:
                    self._error = error
                self._changed.notify_all()
            raise
        with self._changed:
            node.running -= 1
            if value > node.best:
                node.best, node.best_move = value, sq
            node.alpha = max(node.alpha, value)  # within the window the value is exact: the moves left must beat it
            if value >= node.beta:
                node.cut = True
            self._changed.notify_all()
        return True

    def _help(self) -> None:
        """A helper thread: takes moves of the split nodes. A helper that gets too little of a core (a busy
        machine) hands its engine search back and stops."""
        started, cpu_started = time.perf_counter(), time.thread_time()  # since it last woke

        def short_of_a_core() -> bool:
            return starved(time.perf_counter() - started, time.thread_time() - cpu_started)

        while True:
            with self._changed:
                work = self._take(None)
                while work is None and not self._done:
                    self._changed.wait()
                    started, cpu_started = time.perf_counter(), time.thread_time()
                    work = self._take(None)
                if work is None:
                    return
            try:
                if not self._run(*work, short_of_a_core):
                    return
            except BaseException:  # noqa: BLE001 (kept in _error by _run, or out of time: the caller raises)
                return

