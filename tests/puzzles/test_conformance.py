"""What every registered genre promises, checked through its PuzzleType alone, so a genre gets these tests by
being registered: a generated puzzle at the default parameters is unique on every backend it offers, its
solution passes the checker and every single-cell change of it breaks a named rule, hints from an empty grid
never contradict the solution and finish the puzzle, each interchange format reads back what it writes, and
each picture is well-formed SVG. A genre built on the kit (``PuzzleType.model``) is also checked through its
model's layout, whatever its answer's shape: every key changed breaks a rule, hints followed key by key, and
its levels rise with the effort a plain backtracking search spends, a measure the grader does not use.
(The browser solve of every grid genre is tests/service/test_play_browser.py.)"""

from __future__ import annotations

import statistics
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest
from pydantic import ValidationError

from generators.pipeline import Generated
from generators.registry import TYPES
from solvers.common import Deadline, InvalidInput
from solvers.kit.rules import Broken

SEED = 5
DOCS = Path(__file__).resolve().parents[2] / "docs" / "genres"
SAMPLED_CELLS = 60  # single-cell changes tried per puzzle, spread over the grid


@cache
def made(name: str) -> Generated:
    puzzle_type = TYPES[name]
    return puzzle_type.generate(puzzle_type.params_model(), SEED, Deadline.after(120))


def grid_field(name: str) -> str | None:
    """The answer's field, for genres whose answer is one grid of numbers (read off the model, not a puzzle)."""
    fields = TYPES[name].answer_model.model_fields
    if len(fields) != 1:
        return None
    (field, info), = fields.items()
    rows = get_args(info.annotation)
    return field if get_origin(info.annotation) is list and rows and get_origin(rows[0]) is list else None


def answer_grid(name: str) -> tuple[str, list[list[int]]]:
    field = grid_field(name)
    assert field is not None
    return field, getattr(made(name).solution, field)


GRID_TYPES = sorted(name for name in TYPES if grid_field(name) is not None)


@pytest.mark.parametrize("name", sorted(TYPES))
def test_a_generated_puzzle_is_unique_on_every_backend_and_passes_its_checker(name: str) -> None:
    puzzle_type, generated = TYPES[name], made(name)
    verdict = puzzle_type.check(generated.puzzle, generated.solution)
    assert (verdict if isinstance(verdict, list) else verdict.violations) == []
    for backend in puzzle_type.backends:
        outcome = puzzle_type.solve(generated.puzzle, 2, Deadline.after(120), backend)
        assert outcome.complete and outcome.count == 1, (backend, outcome.count)
        assert generated.solution.model_dump() in [puzzle_type.answer_model.model_validate(s).model_dump()
                                                   for s in outcome.solutions], backend


@pytest.mark.parametrize("name", GRID_TYPES)
def test_every_single_cell_change_breaks_a_named_rule(name: str) -> None:
    puzzle_type, generated = TYPES[name], made(name)
    field, grid = answer_grid(name)
    values = sorted({v for row in grid for v in row})
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    for r, c in cells[:: max(1, len(cells) // SAMPLED_CELLS)]:
        changed = [row[:] for row in grid]
        changed[r][c] = values[(values.index(grid[r][c]) + 1) % len(values)] if len(values) > 1 else grid[r][c] + 1
        try:
            verdict = puzzle_type.check(generated.puzzle, puzzle_type.answer_model(**{field: changed}))
        except InvalidInput as exc:  # a value the answer shape refuses is named too
            assert exc.message
            continue
        violations = verdict if isinstance(verdict, list) else verdict.violations
        assert violations and all(v.rule and v.message for v in violations), (r, c)


@pytest.mark.parametrize("name", sorted(name for name in GRID_TYPES if TYPES[name].difficulty is not None))
def test_hints_from_an_empty_grid_are_sound_and_finish_the_puzzle(name: str) -> None:
    difficulty, generated = TYPES[name].difficulty, made(name)
    field, solution = answer_grid(name)
    state_field = next(iter(difficulty.state_model.model_fields))
    if not isinstance(getattr(difficulty.state_model(), state_field, None) or [], list):
        pytest.skip(f"{name}'s hint state is not a grid")
    grid: list[list[Any]] = [[None] * len(row) for row in solution]
    for _ in range(len(solution) * len(solution[0]) + 1):
        hint = difficulty.hint(generated.puzzle, difficulty.state_model(**{state_field: grid}), generated.solution,
                               Deadline.after(60))
        if hint.technique == "solved":
            return
        assert hint.decide and not hint.mistakes and hint.message, hint
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            if step.get("eliminate"):  # a candidate taken out (a pencil mark): never the solution's digit
                assert value != solution[r][c], hint.message
                continue
            assert value == solution[r][c], hint.message  # never a step against the solution
            grid[r][c] = value
        if all(step.get("eliminate") for step in hint.decide):
            return  # pencil marks live in the genre's own state fields: its own tests follow them to the end
    pytest.fail("the hints did not finish the puzzle")


KIT_TYPES = sorted(name for name in TYPES if TYPES[name].model is not None)


@pytest.mark.parametrize("name", KIT_TYPES)
def test_every_single_key_change_of_a_kit_genre_breaks_a_named_rule(name: str) -> None:
    """Each sampled key of the solution flipped breaks a rule, named by a code the genre's page documents."""
    puzzle_type, generated = TYPES[name], made(name)
    page = DOCS / f"{name}.md"  # its rule codes are part of the API: each one named there
    documented = page.read_text()
    model = puzzle_type.model(generated.puzzle)  # type: ignore[misc]
    values = model.layout.read(generated.solution.model_dump())
    ones = {key for key, value in values.items() if value}
    keys = list(model.keys)
    for key in keys[:: max(1, len(keys) // SAMPLED_CELLS)]:
        try:
            answer = puzzle_type.answer_model(**model.layout.write(ones ^ {key}))
            verdict = puzzle_type.check(generated.puzzle, answer)
        except (InvalidInput, ValidationError) as exc:  # a shape the answer refuses is named too
            assert str(exc)
            continue
        violations = verdict if isinstance(verdict, list) else verdict.violations
        assert violations and all(v.rule and v.message for v in violations), key
        assert all(f"`{v.rule}`" in documented for v in violations), ({v.rule for v in violations}, page)


@pytest.mark.parametrize("name", sorted(name for name in KIT_TYPES if TYPES[name].difficulty is not None))
def test_hints_of_a_kit_genre_are_sound_and_finish_the_puzzle(name: str) -> None:
    puzzle_type, generated = TYPES[name], made(name)
    difficulty, layout = puzzle_type.difficulty, puzzle_type.model(generated.puzzle).layout  # type: ignore[misc]
    target = layout.read(generated.solution.model_dump())
    decided: dict = {}
    for _ in range(len(target) + 1):
        state = difficulty.state_model(**layout.state_of(decided))  # type: ignore[union-attr]
        hint = difficulty.hint(generated.puzzle, state, generated.solution, Deadline.after(60))  # type: ignore[union-attr]
        if hint.technique == "solved":
            return
        assert hint.decide and not hint.mistakes and hint.message, hint
        for entry in hint.decide:
            key, value = layout.decision(entry)
            assert target[key] == value, hint.message  # never a step against the solution
            decided[key] = value
    pytest.fail("the hints did not finish the puzzle")


class _Past(Exception):
    """The search went past its most nodes."""


def search_nodes(model: Any, most: int = 5_000) -> int:
    """The effort a plain backtracking search spends to prove a kit model's answer unique: every rule applied
    to a fixpoint at each node, the first open key tried both ways, nodes counted. The grader never counts
    these: it reads how far a person's trial must be followed. A search past ``most`` nodes counts as ``most``
    (a rare hard draw can take millions, minutes here; the median per level is what the test compares, and each
    lies below it)."""
    flat, count = model.flat, 0

    def settled(values: list[int | None], queue: set[int]) -> bool:
        while queue:
            k = queue.pop()
            members = flat.cells[k]
            try:
                forced = model.rules[k].look([values[i] for i in members])
            except Broken:
                return False
            for p, v in forced:
                i = members[p]
                if values[i] is None:
                    values[i] = v
                    queue.update(flat.at[i])
                elif values[i] != v:
                    return False
        return True

    def answers(values: list[int | None], queue: set[int]) -> int:
        nonlocal count
        count += 1
        if count > most:
            raise _Past
        if not settled(values, queue):
            return 0
        if None not in values:
            return 1
        i, found = values.index(None), 0
        for v in (1, 0):
            found += answers([*values[:i], v, *values[i + 1:]], set(flat.at[i]))
            if found > 1:
                break
        return found

    start: list[int | None] = [None] * len(model.keys)
    for i, v in flat.givens.items():
        start[i] = v
    try:
        assert answers(start, set(range(len(model.rules)))) == 1
    except _Past:
        return most
    return count


# Puzzles per level whose plain-search effort is compared: five, or more where two levels' efforts lie close.
# Skyscrapers' hard and expert differ by a few nodes of the plain search at its default size, so that five puzzles
# a level may put either first; twenty keep their order.
SAMPLES = {"skyscrapers": 20}


def made_at_each_level(name: str) -> dict[str, list[Generated]]:
    """Five puzzles per level the genre generates (``SAMPLES``: more), at its default size (seeds from 0)."""
    puzzle_type, found = TYPES[name], {}
    for level in puzzle_type.difficulty.names:  # type: ignore[union-attr]
        try:
            params = puzzle_type.params_model(difficulty=level)
        except ValidationError:
            continue  # a level the genre grades but does not generate
        found[level] = [puzzle_type.generate(params, seed, Deadline.after(120)) for seed in range(SAMPLES.get(name, 5))]
    return found


@pytest.mark.slow  # five generations a level: started first, so no process is left with it at the end
@pytest.mark.parametrize("name", sorted(name for name in KIT_TYPES if TYPES[name].difficulty is not None))
def test_a_kit_genres_levels_are_unique_of_their_level_and_rise(name: str) -> None:
    """At every level the genre generates, at its default size: every backend finds the puzzle unique, its solution
    passes the checker, and the grader puts it at the level asked. Over five puzzles per level (``SAMPLES``), the median effort
    of a plain backtracking search (a measure the grader does not use) never falls from one level to the next, and
    the top level's is above the first's. (That a seed makes the same puzzle again is the golden record's test.)"""
    puzzle_type, medians = TYPES[name], []
    for level, made_here in made_at_each_level(name).items():
        first = made_here[0]
        for backend in puzzle_type.backends[1:]:  # the first made it unique already
            assert puzzle_type.solve(first.puzzle, 2, Deadline.after(60), backend).count == 1, (level, backend)
        assert puzzle_type.check(first.puzzle, first.solution) == [], level
        assert first.difficulty is not None and first.difficulty.level == level
        assert puzzle_type.difficulty.grade(first.puzzle, Deadline.after(60)).level == level  # type: ignore[union-attr]
        medians.append(statistics.median(search_nodes(puzzle_type.model(m.puzzle)) for m in made_here))  # type: ignore[misc]
    assert medians == sorted(medians) and medians[0] < medians[-1], medians


@pytest.mark.parametrize("name", sorted(TYPES))
def test_every_interchange_format_reads_back_what_it_writes(name: str) -> None:
    puzzle_type, puzzle = TYPES[name], made(name).puzzle
    formats = [(write, read) for write, read in ((puzzle_type.to_url, puzzle_type.parse_url),
                                                  (puzzle_type.to_tatham, puzzle_type.parse_tatham)) if write and read]
    if not formats:
        pytest.skip(f"{name} has no interchange format")
    for write, read in formats:
        assert read(write(puzzle)) == puzzle


@pytest.mark.parametrize("name", sorted(name for name in TYPES if TYPES[name].render is not None))
def test_the_picture_of_puzzle_solution_and_play_page_is_svg(name: str) -> None:
    puzzle_type, generated = TYPES[name], made(name)
    for answer, play in ((None, False), (generated.solution, False), (None, True)):
        root = ET.fromstring(puzzle_type.render(generated.puzzle, answer, play))  # type: ignore[misc]
        assert root.tag.endswith("svg") and root.get("viewBox")
