"""One small SAT interface with two backends, so each puzzle model is written once.

``CadicalBackend`` (CaDiCaL 1.9.5 through python-sat) is the fast default; ``Z3Backend`` (z3's own
SAT core with native pseudo-boolean constraints) is the independent second opinion the tests use.
Variables are positive integers and literals are signed integers, DIMACS style, on both backends.

Z3 objects are not shareable across threads, so every ``Z3Backend`` owns its own ``z3.Context``
and nothing of it outlives the call that built it.
"""

from __future__ import annotations

import ctypes
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from functools import cache, partial

from solvers.common import BudgetExceeded, Deadline

Clause = Sequence[int]
# Given a model (the set of true variables), return clauses that cut it off, or [] to accept it.
Refiner = Callable[[set[int]], list[list[int]]]

BACKENDS = ("cadical", "z3")


class SatBackend(ABC):
    """Clauses, cardinality and weighted-sum constraints, incremental solving under a deadline."""

    def __init__(self) -> None:
        self.top = 0  # highest variable number handed out

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def new_vars(self, count: int) -> list[int]:
        return [self.new_var() for _ in range(count)]

    @abstractmethod
    def add_clause(self, lits: Clause) -> None: ...

    @abstractmethod
    def add_at_most(self, lits: Sequence[int], k: int, guard: int | None = None) -> None:
        """At most ``k`` of ``lits`` are true; only when ``guard`` is, if one is given (a clue that a solve
        switches on by assuming its guard, so one instance answers for any subset of clues)."""

    @abstractmethod
    def add_at_least(self, lits: Sequence[int], k: int, guard: int | None = None) -> None: ...

    def add_exactly(self, lits: Sequence[int], k: int) -> None:
        self.add_at_most(lits, k)
        self.add_at_least(lits, k)

    @abstractmethod
    def add_weighted_equal(self, lits: Sequence[int], weights: Sequence[int], total: int) -> None:
        """sum(weights[i] for true lits[i]) == total, weights positive."""

    @abstractmethod
    def solve(self, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
        """True if satisfiable; raises BudgetExceeded when the deadline passes first."""

    @abstractmethod
    def true_vars(self) -> set[int]:
        """The variables set true by the last satisfying assignment."""

    def close(self) -> None:  # noqa: B027 - optional hook
        pass

    def __enter__(self) -> SatBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CadicalBackend(SatBackend):
    """CaDiCaL via python-sat; cardinality by pysat's totalizer, weighted sums by a BDD. Clauses go straight to
    pysat's C call (its Python wrappers cost more than CaDiCaL's own work on a puzzle's thousands of clauses);
    ``unless`` literals, when set, join every clause added (``solvers.kit.rules.Sieve`` switches a draw's clauses
    off with them)."""

    def __init__(self) -> None:
        super().__init__()
        import pysolvers  # python-sat's C module
        from pysat.solvers import Solver

        self._solver = Solver(name="cadical195")
        self._add_cl = partial(pysolvers.cadical195_add_cl, self._solver.solver.cadical)
        self._model: set[int] = set()
        self.unless: list[int] = []

    def add_clause(self, lits: Clause) -> None:
        self._add_cl([*lits, *self.unless])

    def _add_card(self, kind: str, lits: Sequence[int], k: int, guard: int | None) -> None:
        clauses, aux = _totalizer(kind, len(lits), k)
        top, add = self.top, self._add_cl
        # The template's variables 1..n are ``lits``, the rest new variables after ``top``: the same clauses, in the
        # same order, as pysat writes for these literals.
        value = [0, *lits, *range(top + 1, top + aux + 1)]
        tail = self.unless if guard is None else [-guard, *self.unless]
        for clause in clauses:
            add([value[v] if v > 0 else -value[-v] for v in clause] + tail)
        self.top = top + aux

    def add_at_most(self, lits: Sequence[int], k: int, guard: int | None = None) -> None:
        if k < 0:
            self.add_clause([] if guard is None else [-guard])
        elif k < len(lits):
            self._add_card("atmost", lits, k, guard)

    def add_at_least(self, lits: Sequence[int], k: int, guard: int | None = None) -> None:
        if k > len(lits):
            self.add_clause([] if guard is None else [-guard])
        elif k > 0:
            self._add_card("atleast", lits, k, guard)

    def add_weighted_equal(self, lits: Sequence[int], weights: Sequence[int], total: int) -> None:
        for clause in _weighted_equal_bdd(self, lits, weights, total):
            self.add_clause(clause)

    def prefer(self, lits: Sequence[int]) -> None:
        """Try these values first: a second answer near a known one is found sooner from it."""
        self._solver.set_phases(list(lits))

    def solve(self, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
        # pysat cannot interrupt CaDiCaL inside a call, so the deadline is checked between calls;
        # puzzle-sized calls take milliseconds, and the caller's own wait is bounded regardless.
        deadline.check()
        result = self._solver.solve(assumptions=list(assumptions))
        if result:
            self._model = {v for v in self._solver.get_model() if v > 0}
        return bool(result)

    def true_vars(self) -> set[int]:
        return self._model

    def close(self) -> None:
        self._solver.delete()


@cache
def _totalizer(kind: str, n: int, k: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """pysat's totalizer for ``kind`` (atmost/atleast) of ``k`` over the literals 1..n, and how many auxiliary
    variables it adds after them: a template each constraint of that shape renames, since building the encoding
    in pysat costs more than the clauses do."""
    from pysat.card import CardEnc, EncType

    cnf = getattr(CardEnc, kind)(lits=list(range(1, n + 1)), bound=k, top_id=n, encoding=EncType.totalizer)
    return tuple(tuple(clause) for clause in cnf.clauses), max(cnf.nv - n, 0)


class Z3Backend(SatBackend):
    """z3 with its own Context; cardinality and weighted sums as native pseudo-boolean constraints."""

    def __init__(self) -> None:
        super().__init__()
        import z3

        self._z3 = z3
        self._ctx = z3.Context()
        self._solver = z3.SolverFor("QF_FD", ctx=self._ctx)
        self._vars: dict[int, object] = {}
        self._negated: dict[int, object] = {}
        self._model: set[int] = set()

    def _lit(self, lit: int) -> object:
        v = abs(lit)
        if v not in self._vars:
            self._vars[v] = self._z3.Bool(f"v{v}", self._ctx)
        if lit > 0:
            return self._vars[v]
        if v not in self._negated:  # z3's C API, as ``add_clause``: z3py's ``Not`` checks and converts its argument
            self._negated[v] = self._made(self._z3.Z3_mk_not(self._ctx.ref(), self._vars[v].as_ast()))
        return self._negated[v]

    def new_var(self) -> int:
        v = super().new_var()
        self._lit(v)
        return v

    def add_clause(self, lits: Clause) -> None:
        """Through z3's C API: z3py's ``Or`` and ``Solver.add`` check and convert every argument, which made
        adding a model of 100,000 clauses take seconds where solving it took a fraction of one."""
        z3 = self._z3
        if not lits:
            self._solver.add(z3.BoolVal(False, self._ctx))
            return
        ctx = self._ctx.ref()
        clause = self._made(z3.Z3_mk_or(ctx, len(lits), self._asts(lits)))  # holds a reference while it is asserted
        z3.Z3_solver_assert(ctx, self._solver.solver, clause.as_ast())

    def _guarded(self, constraint: object, guard: int | None) -> object:
        return constraint if guard is None else self._z3.Implies(self._lit(guard), constraint)

    def _asts(self, lits: Sequence[int]) -> object:
        return (self._z3.Ast * len(lits))(*[self._lit(x).as_ast() for x in lits])  # type: ignore[attr-defined]

    def _made(self, ast: object) -> object:
        return self._z3.BoolRef(ast, self._ctx)

    def add_at_most(self, lits: Sequence[int], k: int, guard: int | None = None) -> None:
        """Through the C API, as ``add_clause``: z3py's ``PbLe`` coerces every term, most of a Killer model's encoding."""
        bound = self._z3.BoolVal(k >= 0, self._ctx) if not 0 <= k < len(lits) else \
            self._made(self._z3.Z3_mk_atmost(self._ctx.ref(), len(lits), self._asts(lits), k))
        self._solver.add(self._guarded(bound, guard))

    def add_at_least(self, lits: Sequence[int], k: int, guard: int | None = None) -> None:
        bound = self._z3.BoolVal(k <= 0, self._ctx) if not 0 < k <= len(lits) else \
            self._made(self._z3.Z3_mk_atleast(self._ctx.ref(), len(lits), self._asts(lits), k))
        self._solver.add(self._guarded(bound, guard))

    def add_weighted_equal(self, lits: Sequence[int], weights: Sequence[int], total: int) -> None:
        if not lits:
            self._solver.add(self._z3.BoolVal(total == 0, self._ctx))
        else:
            coefficients = (ctypes.c_int * len(weights))(*weights)
            self._solver.add(self._made(self._z3.Z3_mk_pbeq(self._ctx.ref(), len(lits), self._asts(lits), coefficients,
                                                            total)))

    def solve(self, deadline: Deadline, assumptions: Sequence[int] = ()) -> bool:
        remaining = deadline.remaining()
        if remaining <= 0:
            raise BudgetExceeded("time budget exceeded")
        if remaining != float("inf"):
            self._solver.set("timeout", max(1, int(remaining * 1000)))
        result = self._solver.check([self._lit(x) for x in assumptions])
        if result == self._z3.unknown:
            raise BudgetExceeded("time budget exceeded in z3")
        if result == self._z3.sat:
            self._model = self._true_in(self._solver.model())
            return True
        return False

    def _true_in(self, model: object) -> set[int]:
        """The variables ``model`` sets true (one it leaves out is false), read through z3's C API: evaluating
        each variable through z3py cost more than the solve on models of thousands of variables."""
        z3, ctx, m = self._z3, self._ctx.ref(), model.model  # type: ignore[attr-defined]
        true = set()
        for i in range(z3.Z3_model_get_num_consts(ctx, m)):
            decl = z3.Z3_model_get_const_decl(ctx, m, i)
            if z3.Z3_get_bool_value(ctx, z3.Z3_model_get_const_interp(ctx, m, decl)) == z3.Z3_L_TRUE:
                name = z3.Z3_get_symbol_string(ctx, z3.Z3_get_decl_name(ctx, decl))
                if name[:1] == "v" and name[1:].isdigit() and int(name[1:]) in self._vars:
                    true.add(int(name[1:]))
        return true

    def true_vars(self) -> set[int]:
        return self._model


def make_backend(name: str = "cadical") -> SatBackend:
    if name == "cadical":
        return CadicalBackend()
    if name == "z3":
        return Z3Backend()
    raise ValueError(f"unknown SAT backend {name!r}; known: {', '.join(BACKENDS)}")


def _weighted_equal_bdd(
    backend: SatBackend, lits: Sequence[int], weights: Sequence[int], total: int
) -> list[list[int]]:
    """Clauses for sum(w_i * x_i) == total as a reduced decision diagram over partial sums.

    Node (i, s) means "the first i terms add up to s"; only sums from which ``total`` is still
    reachable get a node, so the encoding stays small for puzzle-sized sums.
    """
    n = len(lits)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + weights[i]
    if total < 0 or total > suffix[0]:
        return [[]]
    nodes: dict[tuple[int, int], int] = {}
    clauses: list[list[int]] = []

    def feasible(i: int, s: int) -> bool:
        return s <= total <= s + suffix[i]

    root = backend.new_var()
    nodes[(0, 0)] = root
    clauses.append([root])
    frontier = {0}
    for i in range(n):
        nxt: set[int] = set()
        for s in sorted(frontier):
            here = nodes[(i, s)]
            for take, s2 in ((False, s), (True, s + weights[i])):
                lit = lits[i] if take else -lits[i]
                if not feasible(i + 1, s2):
                    clauses.append([-here, -lit])  # this choice can no longer reach the total
                    continue
                if (i + 1, s2) not in nodes:
                    nodes[(i + 1, s2)] = backend.new_var()
                clauses.append([-here, -lit, nodes[(i + 1, s2)]])
                nxt.add(s2)
        frontier = nxt
    return clauses


def solve_refined(
    backend: SatBackend, deadline: Deadline, refine: Refiner | None = None, assumptions: Sequence[int] = ()
) -> set[int] | None:
    """Solve, letting ``refine`` add lazy cuts until it accepts a model; None if unsatisfiable."""
    while backend.solve(deadline, assumptions):
        model = backend.true_vars()
        cuts = refine(model) if refine else []
        if not cuts:
            return model
        for clause in cuts:
            backend.add_clause(clause)
    return None


def block(model: set[int], decision_vars: Iterable[int]) -> list[int]:
    """The clause that forbids this exact assignment of the decision variables."""
    return [-v if v in model else v for v in decision_vars]


def count_models(
    backend: SatBackend,
    decision_vars: Sequence[int],
    limit: int,
    deadline: Deadline,
    refine: Refiner | None = None,
    keep: int | None = None,
) -> tuple[list[set[int]], int, bool]:
    """Count models differing on ``decision_vars`` up to ``limit``, keeping the first ``keep`` (all when
    None); the flag says the search was exhausted, i.e. the count is exact."""
    found: list[set[int]] = []
    count = 0
    while count < limit:
        model = solve_refined(backend, deadline, refine)
        if model is None:
            return found, count, True
        count += 1
        if keep is None or len(found) < keep:
            found.append(model)
        backend.add_clause(block(model, decision_vars))
    return found, count, False


def enumerate_models(
    backend: SatBackend,
    decision_vars: Sequence[int],
    limit: int,
    deadline: Deadline,
    refine: Refiner | None = None,
) -> tuple[list[set[int]], bool]:
    """Up to ``limit`` models differing on ``decision_vars``; the flag says the search was exhausted."""
    found, _, complete = count_models(backend, decision_vars, limit, deadline, refine)
    return found, complete
