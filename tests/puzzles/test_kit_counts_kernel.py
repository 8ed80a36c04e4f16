"""The compiled level check and grade (``solvers.kit.counts_kernel``) answer as the Python ``State`` does
(``solvers.kit.arrays.solves_on_state``, ``arrays.grade`` with the kernel off) on random models of counts, spaced
lines and pairings, and on Light Up's, Tents', Takuzu's and KenKen's boards; the Light Up, Tents and KenKen
generators make the same puzzles with it as without it."""

from __future__ import annotations

import random

import pytest

from generators import kenken, light_up, takuzu, tents
from generators.kenken import KenkenParams
from generators.light_up import LightUpGenre, LightUpParams, generate_puzzle
from generators.takuzu import TakuzuParams
from generators.tents import TentsGenre, TentsParams
from solvers.common import Deadline
from solvers.kit import arrays, counts_kernel
from solvers.kit.arrays import TRIALS, solves_on_state
from solvers.kit.distinct import Distinct
from solvers.kit.known import Known
from solvers.kit.matching import Matching
from solvers.kit.rules import Cells, Count, Model, for_the_last_model
from solvers.kit.spaced import Spaced
from solvers.kit.tuples import Tuples, analysed

TRIAL_SETS = ((), (TRIALS[0],), TRIALS)


def random_model(rng: random.Random) -> tuple[Model, list[str]]:
    """Counts over random keys of one row: some given, some reading a clue; the clues."""
    size = rng.randint(1, 12)
    keys = [(0, c) for c in range(size)]
    clues = [f"clue{n}" for n in range(rng.randint(0, 4))]
    rules = []
    for _ in range(rng.randint(1, 3 * size)):
        cells = tuple(rng.sample(keys, rng.randint(1, min(size, 5))))
        if rng.random() < 0.1:
            rules.append(Count(cells[:1], *(2 * [rng.randint(0, 1)]), "given", "", given=True))
            continue
        low = rng.randint(0, len(cells))
        high = rng.randint(low, len(cells)) if rng.random() < 0.6 else low
        clue = rng.choice(clues) if clues and rng.random() < 0.4 else None
        rules.append(Count(cells, low, high, "count", "", clue=clue))
    return Model(Cells("keys", 1, size, "one", "zero"), tuple(rules)), clues


def shown_sets(rng: random.Random, clues: list[str]) -> list[frozenset[str] | None]:
    return [None, frozenset(), frozenset(c for c in clues if rng.random() < 0.5)]


@pytest.mark.parametrize("seed", range(4))
def test_random_counts_answer_as_the_state(seed: int) -> None:
    rng = random.Random(seed)
    answers = []
    for _ in range(100):
        model, clues = random_model(rng)
        assert model.flat.counts_only
        for shown in shown_sets(rng, clues):
            for trials in TRIAL_SETS:
                expected = solves_on_state(model, shown, trials)
                assert counts_kernel.solves(model, shown, trials) == expected, (model, shown, trials)
                answers.append(expected)
    assert True in answers and False in answers  # the cases reach both answers


def test_keys_without_rules_answer_as_the_state() -> None:
    model = Model(Cells("keys", 1, 2, "one", "zero"), ())
    for trials in TRIAL_SETS:
        assert counts_kernel.solves(model, None, trials) == solves_on_state(model, None, trials)


@pytest.mark.parametrize(("size", "seed"), [(7, 0), (7, 1), (10, 2), (10, 3), (14, 4)])
def test_light_up_boards_answer_as_the_state(size: int, seed: int) -> None:
    genre, rng = LightUpGenre(), random.Random(seed)
    params = LightUpParams(size=size, difficulty="medium")
    answers = []
    for _ in range(6):
        board, answer = genre.draw(params, rng)
        every = frozenset(genre.clues(board, answer))
        model = genre.model(genre.puzzle(board, answer, every))
        order = sorted(every)
        for shown in (every, None, frozenset(), *(frozenset(rng.sample(order, rng.randint(0, len(order))))
                                                  for _ in range(4))):
            for trials in TRIAL_SETS:
                expected = solves_on_state(model, shown, trials)
                assert counts_kernel.solves(model, shown, trials) == expected, (size, seed, shown, trials)
                answers.append(expected)
    assert True in answers and False in answers


@pytest.mark.parametrize(("size", "difficulty", "seed"),
                         [(7, "easy", 0), (7, "medium", 1), (10, "easy", 2), (10, "medium", 3)])
def test_light_up_puzzles_unchanged(size: int, difficulty: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    params = LightUpParams(size=size, difficulty=difficulty)
    compiled = generate_puzzle(params, seed, Deadline.after(120))
    monkeypatch.setattr(arrays, "COMPILED", False)
    on_state = generate_puzzle(params, seed, Deadline.after(120))
    assert compiled.puzzle.model_dump() == on_state.puzzle.model_dump()


def planted_model(rng: random.Random) -> Model:
    """Counts, spaced lines (some places skipped) and a pairing over the keys of one row, each true of a random
    answer: a model with an answer, whose grade's rounds never break (a round that breaks stops at a rule that
    depends on the order the rules are looked at)."""
    size = rng.randint(2, 12)
    keys = [(0, c) for c in range(size)]
    answer = {key: int(rng.random() < 0.4) for key in keys}
    rules: list = []
    for _ in range(rng.randint(1, 2 * size)):
        cells = tuple(rng.sample(keys, rng.randint(1, min(size, 5))))
        ones = sum(answer[key] for key in cells)
        if rng.random() < 0.1:
            rules.append(Count(cells[:1], answer[cells[0]], answer[cells[0]], "given", "", given=True))
        else:
            rules.append(Count(cells, rng.randint(0, ones), rng.randint(ones, len(cells)), "count", ""))
    for _ in range(rng.randint(0, 3)):
        cells = tuple(rng.sample(keys, rng.randint(1, min(size, 6))))
        places, place = [], 0
        for n, key in enumerate(cells):  # apart wherever two 1s would stand side by side
            place += 1 + (n > 0 and (answer[key] and answer[cells[n - 1]] or rng.random() < 0.3))
            places.append(place)
        rules.append(Spaced(cells, tuple(places), sum(answer[key] for key in cells), "line", ""))
    ones = [key for key in keys if answer[key]]
    if ones and rng.random() < 0.8:
        owners = tuple(((0, n), tuple(dict.fromkeys([key, *rng.sample(keys, rng.randint(0, 2))])))
                       for n, key in enumerate(ones))
        rules.append(Matching(owners, "pairs", ""))
    rng.shuffle(rules)
    return Model(Cells("keys", 1, size, "one", "zero"), tuple(rules))


def test_a_spaced_line_out_of_order_is_left_to_the_state() -> None:
    """The kernel reads a spaced line's neighbours by position: a line whose places do not rise, or that holds a
    key twice, goes the Python way, with the same answer."""
    keys = ((0, 0), (0, 1), (0, 2))
    for cells, places in ((keys, (2, 1, 0)), (keys[:2] + keys[:1], (0, 1, 2))):
        model = Model(Cells("keys", 1, 3, "one", "zero"), (Spaced(cells, places, 1, "line", ""),
                                                            Count(keys[:1], 0, 0, "given", "", given=True)))
        assert not counts_kernel.takes(model)
        assert arrays.solves(model, None, TRIALS) == solves_on_state(model, None, TRIALS)
    assert counts_kernel.takes(Model(Cells("keys", 1, 3, "one", "zero"), (Spaced(keys, (0, 2, 3), 1, "line", ""),)))


def graded_both_ways(people, model: Model, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(arrays, "COMPILED", False)
    on_state = arrays.grade(people, model)
    monkeypatch.setattr(arrays, "COMPILED", True)
    return arrays.grade(people, model), on_state


@pytest.mark.parametrize("seed", range(4))
def test_random_spaced_lines_and_pairings_answer_and_grade_as_the_state(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(100 + seed)
    answers, levels = [], set()
    for _ in range(150):
        model = planted_model(rng)
        assert counts_kernel.takes(model)
        for trials in TRIAL_SETS:
            expected = solves_on_state(model, None, trials)
            assert counts_kernel.solves(model, None, trials) == expected, (model, trials)
            answers.append(expected)
        compiled, on_state = graded_both_ways(tents.PEOPLE, model, monkeypatch)
        assert compiled == on_state, model
        levels.add(compiled.level)
    assert True in answers and False in answers
    assert {"easy", "medium", None} <= levels  # the grades reach the rules, short trials, and unsolved


@pytest.mark.parametrize(("size", "seed"), [(6, 0), (8, 1), (10, 2), (15, 3)])
def test_tents_boards_answer_and_grade_as_the_state(size: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    answers, levels = [], set()
    for hide in (False, True):
        genre = TentsGenre(hide)
        for _ in range(4):
            board, answer = genre.draw(TentsParams(size=size), rng)
            every = frozenset(genre.clues(board, answer))
            model, order = genre.model(genre.puzzle(board, answer, every)), sorted(every)
            for shown in (None, frozenset(), frozenset(rng.sample(order, len(order) // 2))):
                for trials in TRIAL_SETS:
                    expected = solves_on_state(model, shown, trials)
                    assert counts_kernel.solves(model, shown, trials) == expected, (size, seed, shown, trials)
                    answers.append(expected)
            compiled, on_state = graded_both_ways(tents.PEOPLE, model, monkeypatch)
            assert compiled == on_state
            levels.add(compiled.level)
    assert True in answers and False in answers
    assert len(levels) > 1


@pytest.mark.parametrize(("size", "difficulty"), [(7, "easy"), (10, "medium"), (14, "hard")])
def test_light_up_puzzles_grade_as_on_the_state(size: int, difficulty: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        made = generate_puzzle(LightUpParams(size=size, difficulty=difficulty), seed, Deadline.after(120))
        compiled, on_state = graded_both_ways(light_up.PEOPLE, light_up.model(made.puzzle), monkeypatch)
        assert compiled == on_state
        assert compiled.level == difficulty


@pytest.mark.parametrize(("generate", "params", "seed"), [
    (tents.generate_puzzle, TentsParams(size=8, difficulty="easy"), 0),
    (tents.generate_puzzle, TentsParams(size=8, difficulty="medium"), 1),
    (tents.generate_puzzle, TentsParams(size=10, difficulty="medium"), 2),
    (kenken.generate_puzzle, KenkenParams(size=6, difficulty="normal"), 0),
    (kenken.generate_puzzle, KenkenParams(size=6, difficulty="hard"), 1),
    (kenken.generate_puzzle, KenkenParams(size=5, difficulty="extreme"), 2),
], ids=lambda value: getattr(value, "__module__", None) or str(value))
def test_puzzles_unchanged(generate, params, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """Tents' and KenKen's generators make the same puzzle, with the same grade, with the kernel as without it."""
    compiled = generate(params, seed, Deadline.after(120))
    monkeypatch.setattr(arrays, "COMPILED", False)
    on_state = generate(params, seed, Deadline.after(120))
    assert compiled.puzzle.model_dump() == on_state.puzzle.model_dump()
    assert compiled.difficulty == on_state.difficulty


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_the_levels_of_plain_counts_make_the_puzzles_the_remembered_plan_makes(
        difficulty: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Levels.fits`` solves a model of plain counts (Takuzu without its unique-lines rule) whole on the compiled
    kernel, where the Python state replays the last solve's plan and tries trials near the clue gone first: the
    generator makes the same puzzles either way."""
    params = TakuzuParams(size=8, difficulty=difficulty, unique_lines=False)
    made = {}
    for compiled in (True, False):
        monkeypatch.setattr(arrays, "COMPILED", compiled)
        made[compiled] = [takuzu.generate_puzzle(params, seed, Deadline.never()).puzzle for seed in range(3)]
    assert made[True] == made[False]


@pytest.mark.parametrize("size", [6, 8, 10])
def test_distinct_groups_answer_and_grade_as_the_state(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Takuzu's unique lines (a ``Distinct`` per pair of rows or columns) on the compiled kernel: under random
    subsets of a generated puzzle's digits, every level's solve answers as the Python state's, and the grade is the
    same both ways; some subsets are solved and some not."""
    made = takuzu.generate_puzzle(TakuzuParams(size=size, difficulty="hard"), size, Deadline.never())
    model = takuzu.model(made.puzzle)
    assert counts_kernel.takes(model) and any(isinstance(rule, Distinct) for rule in model.rules)
    rng, clues, answers = random.Random(size), [c for c in model.flat.clue if c is not None], []
    for _ in range(40):
        shown = frozenset(rng.sample(clues, rng.randrange(len(clues) // 2, len(clues) + 1)))
        for trials in TRIAL_SETS:
            expected = solves_on_state(model, shown, trials)
            assert counts_kernel.solves(model, shown, trials) == expected, (shown, trials)
            answers.append(expected)
    compiled, on_state = graded_both_ways(takuzu.PEOPLE, model, monkeypatch)
    assert compiled == on_state
    assert any(answers) and not all(answers)


@pytest.mark.parametrize(("size", "difficulty"), [(5, "extreme"), (6, "hard")])
def test_cages_answer_and_grade_as_the_state(size: int, difficulty: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """KenKen's cages (a ``Tuples`` each, read by their placed digits, or by their candidates with the group reading
    ``tuples.analysed``) on the compiled kernel: a generated puzzle's cages and the alternatives ``Harder`` would
    show instead, each a clue, under random subsets; every level's solve, with and without the group reading,
    answers as the Python state's, and the grade is the same both ways."""
    params = KenkenParams(size=size, difficulty=difficulty)
    made = kenken.generate_puzzle(params, size, Deadline.never())
    alternatives = [cage for _, cage in kenken.Harder(params).changes(made.puzzle, made.solution.digits)]
    model = kenken.model(made.puzzle, alternatives)
    assert counts_kernel.takes(model) and any(isinstance(rule, Tuples) for rule in model.rules)
    rng, answers = random.Random(size), []
    clues = sorted({c for c in model.flat.clue if c is not None})
    for _ in range(25):
        shown = frozenset(rng.sample(clues, rng.randrange(len(clues) // 2, len(clues) + 1)))
        for deeper in (None, analysed):
            for trials in ((), (kenken.CHAIN,), (kenken.CHAIN, None)):
                expected = solves_on_state(model, shown, trials, deeper)
                assert counts_kernel.solves(model, shown, trials, deeper is not None) == expected, (shown, deeper, trials)
                answers.append(expected)
    for graded in (kenken.model(made.puzzle), model):
        grades = []
        for compiled in (False, True):
            monkeypatch.setattr(arrays, "COMPILED", compiled)
            grades.append(arrays.grade(kenken.PEOPLE, graded, analysed, kenken.CHAIN))
        assert grades[0] == grades[1]
    assert any(answers) and not all(answers)


def test_a_value_is_kept_for_the_last_model_only() -> None:
    """``for_the_last_model`` (the kernel's packed model and the arrays' compiled one, Skyscrapers' clues) makes a
    value once for the model asked again, and anew for another model, then for the first again."""
    made: list[object] = []

    @for_the_last_model
    def named(model):  # type: ignore[no-untyped-def]
        made.append(model)
        return ("value of", model)

    a, b = object(), object()
    assert named(a) == ("value of", a) and named(a) == ("value of", a) and made == [a]
    assert named(b) == ("value of", b) and named(a) == ("value of", a) and made == [a, b, a]


def test_a_known_answer_holds_for_fewer_clues_only() -> None:
    known = Known(3)
    assert known.on(None).tolist() == [-1, -1, -1]
    known.learn(frozenset({"a", "b"}), [1, 0, 1])
    assert known.on(frozenset({"a"})).tolist() == [1, 0, 1] and known.on(frozenset()).tolist() == [1, 0, 1]
    assert known.on(frozenset({"a", "c"})).tolist() == [-1, -1, -1] and known.on(None).tolist() == [-1, -1, -1]
    known.learn(frozenset({"a"}), [0, 0, 0])  # found with fewer clues: what is kept holds more widely
    assert known.on(frozenset({"a", "b"})).tolist() == [1, 0, 1]
    known.learn(None, [0, 1, 1])
    assert known.on(frozenset({"c"})).tolist() == [0, 1, 1]


@pytest.mark.parametrize("seed", range(3))
def test_checks_told_the_answer_answer_as_the_state(seed: int) -> None:
    """Once a check has solved a model with every clue shown, the checks with fewer clues skip the trials that agree
    with its answer, and still answer as the Python ``State``, which is told nothing."""
    rng, told = random.Random(seed), 0
    for _ in range(300):
        model, clues = random_model(rng)
        if not counts_kernel.solves(model, None, TRIALS):
            continue
        for shown in [frozenset(rng.sample(clues, rng.randint(0, len(clues)))) for _ in range(4)]:
            for trials in TRIAL_SETS[1:]:
                assert counts_kernel.packed(model)[2].on(shown).min() >= 0
                assert counts_kernel.solves(model, shown, trials) == solves_on_state(model, shown, trials)
                told += 1
    assert told > 100
