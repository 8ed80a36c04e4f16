"""The nonogram play page in Chromium (fixtures of tests/service/test_play_browser.py): a person solves a
small puzzle by clicks, crossing empty cells too, and watches each clue grey out as its line's filled
runs come to match it; Check then says solved."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.service.test_play_browser import (  # noqa: F401 - fixtures
    DESKTOP,
    PHONE,
    browser,
    cell,
    check,
    generate,
    open_page,
    service,
    set_cell,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]


def done(page, kind: str, index: int) -> bool:  # noqa: ANN001
    return "done" in (page.locator(f'[data-clue="{kind},{index}"]').get_attribute("class") or "")


def test_clues_grey_out_as_lines_match_and_check_says_solved(browser, service: str, tmp_path: Path) -> None:  # noqa: F811
    record = generate(service, "nonogram", size=6, seed=4, difficulty="easy")
    grid = record["solution"]["filled"]
    rows, cols = len(grid), len(grid[0])
    page = open_page(browser, service, record, PHONE)
    page.screenshot(path=tmp_path / "nonogram-start.png", full_page=True)
    assert not any(done(page, "row", r) for r in range(rows) if any(grid[r]))
    for r in range(rows):
        for c in range(cols):
            set_cell(page, r, c, "filled" if grid[r][c] else "empty")
        assert done(page, "row", r), f"row {r + 1} is complete but its clue is not greyed"
        page.screenshot(path=tmp_path / f"nonogram-row{r + 1}.png", full_page=True)
    assert all(done(page, "col", c) for c in range(cols))
    # One wrong cell un-greys its row and column, and Check names what is broken.
    r, c = next((r, c) for r in range(rows) for c in range(cols) if not grid[r][c])
    set_cell(page, r, c, "filled")
    assert not done(page, "row", r) and not done(page, "col", c)
    text = check(page)
    assert not text.startswith("solved") and "broken" in text
    set_cell(page, r, c, "empty")
    assert done(page, "row", r)
    assert check(page).startswith("solved")
    assert cell(page, 0, 0).get_attribute("data-state") in ("filled", "empty")
    page.screenshot(path=tmp_path / "nonogram-solved.png", full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()
    wide = open_page(browser, service, generate(service, "nonogram", size=30, seed=1), DESKTOP)
    wide.screenshot(path=tmp_path / "nonogram-30-desktop.png", full_page=True)
    assert wide.errors == []  # type: ignore[attr-defined]
    wide.close()
