"""The play pages and the front page in a real browser: Debian's Chromium driven by Playwright against a
real service (uvicorn on a free loopback port). For each type a person enters the solution by clicks and
sees `solved`; a wrong answer shows the broken rules on their cells; the front page shows every daily's
picture and every link on it answers. Screenshots (phone 360 px and desktop) go to each test's temporary
folder; the README's (a play page, the front page) to docs/screenshots/, so they show the pages as they
are (puzzles of a fixed date: a rerun draws the same pictures, and leaves the files alone).

`make test` installs Chromium (scripts/ensure-chromium.sh); where it cannot be installed these tests
skip with that reason, everywhere else they run.
"""

from __future__ import annotations

import io
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from generators.registry import TYPES
from solvers.battleship.rules import segment_kind
from tests.conftest import REPO
from tests.operations.test_replicas import start_replica, wait_until_up

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
SCREENSHOTS = REPO / "docs" / "screenshots"  # shown in the README
README_DAY = "2026-11-22"  # the README's pictures show this day's dailies, so reruns draw the same ones

if not Path(CHROMIUM).exists():
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (scripts/ensure-chromium.sh installs it as root)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a dev dependency: make installs it")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("play") / "puzzles.db"
    process, url = start_replica(f"sqlite:///{database}")
    try:
        wait_until_up(process, url)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def fresh_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A service with nothing stored (its day's first visitor) and a work budget of one request a minute:
    a page that spent `work` on its pictures would get 429s at once."""
    database = tmp_path_factory.mktemp("front") / "puzzles.db"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RATE_LIMITS", "true")
        env.setenv("RATE_LIMIT_WORK", "1/minute")
        env.setenv("GENERATE_BUDGET_SECONDS", "60")  # eighteen dailies made at once on a loaded machine
        process, url = start_replica(f"sqlite:///{database}")
    try:
        wait_until_up(process, url)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def generate(service: str, type_name: str, **params: object) -> dict:
    response = httpx.post(f"{service}/generate/{type_name}", params={**params, "include_solution": "true"}, timeout=120)
    assert response.status_code == 201, response.text
    return response.json()


def open_page(browser, service: str, record: dict, viewport: dict):  # noqa: ANN001, ANN201 - playwright types
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{service}/play/{record['id']}")
    page.wait_for_selector("body[data-ready=true]")
    page.errors = errors  # type: ignore[attr-defined]
    return page


def cell(page, r: int, c: int):  # noqa: ANN001, ANN201
    return page.locator(f'[data-cell="{r},{c}"]')


def set_cell(page, r: int, c: int, wanted: str) -> None:  # noqa: ANN001
    """Click the cell until it shows ``wanted`` (the cycle is undecided -> filled -> empty)."""
    for _ in range(3):
        if cell(page, r, c).get_attribute("data-state") == wanted:
            return
        cell(page, r, c).click()
    assert cell(page, r, c).get_attribute("data-state") == wanted


def check(page) -> str:  # noqa: ANN001
    page.click('[data-action="check"]')
    result = page.locator("[data-result]")
    sync_api.expect(result).not_to_have_text("Checking…", timeout=30_000)
    sync_api.expect(result).not_to_be_empty()
    return result.inner_text()


def ask_for_a_hint(page) -> None:  # noqa: ANN001
    """Press the page's hint button and wait until the hint is shown."""
    page.click('[data-action="hint"]')
    sync_api.expect(page.locator("[data-result]")).to_contain_text("Hint", timeout=30_000)


GRID_CASES = [
    ("dabuhamienai", {"size": 6, "seed": 11}, "shaded"),
    ("battleship", {"size": 7, "seed": 11}, "ships"),
    ("number-sums", {"size": 5, "seed": 11, "regions": "true"}, "selected"),
    ("nonogram", {"size": 6, "seed": 11}, "filled"),
    ("light-up", {"size": 7, "seed": 11}, "lights"),
    ("tents", {"size": 6, "seed": 11}, "tents"),
    ("hitori", {"size": 6, "seed": 11}, "shaded"),
    ("takuzu", {"size": 6, "seed": 11}, "grid"),
    ("nurikabe", {"size": 5, "seed": 11}, "shaded"),
    ("star-battle", {"size": 6, "seed": 11, "difficulty": "easy"}, "stars"),
]


@pytest.mark.parametrize(("type_name", "params", "field"), GRID_CASES, ids=[case[0] for case in GRID_CASES])
def test_grid_types_solve_by_clicks_and_show_violations(browser, service: str, tmp_path: Path, type_name: str,
                                                         params: dict, field: str) -> None:
    record = generate(service, type_name, **params)
    grid = record["solution"][field]
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_page(browser, service, record, viewport)
        page.screenshot(path=tmp_path / f"{type_name}-{name}-start.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # no sideways scrolling
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if value:
                    set_cell(page, r, c, "filled")
        assert check(page).startswith("solved")
        if type_name == "battleship":  # each ship cell drawn as the segment the rules checker names
            given = {tuple(item["cell"]) for item in record["puzzle"]["revealed"]}
            for r, c in ((r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v and (r, c) not in given):
                assert cell(page, r, c).get_attribute("data-shape") == segment_kind(grid, r, c)
        page.screenshot(path=tmp_path / f"{type_name}-{name}-solved.png", full_page=True)
        assert page.errors == []  # type: ignore[attr-defined]
        page.close()

    # One wrong cell: fill a cell the solution leaves empty, next to a filled one.
    page = open_page(browser, service, record, PHONE)
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value:
                set_cell(page, r, c, "filled")
    wrong = next((r, c) for r, row in enumerate(grid) for c, value in enumerate(row)
                 if not value and not {"given", "filled", "empty"} & set(cell(page, r, c).get_attribute("class").split()))
    set_cell(page, *wrong, "filled")
    text = check(page)
    assert not text.startswith("solved") and "broken" in text
    assert page.locator(".violation").count() >= 1
    assert page.locator("#problems li").count() >= 1
    page.screenshot(path=tmp_path / f"{type_name}-phone-wrong.png", full_page=True)
    page.close()


def test_keyboard_alone_enters_and_checks_an_answer(browser, service: str) -> None:
    record = generate(service, "dabuhamienai", size=5, seed=3)
    page = open_page(browser, service, record, PHONE)
    page.focus('[data-cell="0,0"]')
    for r, row in enumerate(record["solution"]["shaded"]):
        for c, value in enumerate(row):
            if value:
                page.keyboard.press("Enter")
            if c < len(row) - 1:
                page.keyboard.press("ArrowRight")
        if r < len(record["solution"]["shaded"]) - 1:
            page.keyboard.press("ArrowDown")
            for _ in range(len(row) - 1):
                page.keyboard.press("ArrowLeft")
    page.focus('[data-action="check"]')
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("[data-result]")).to_have_text("solved: well done!", timeout=30_000)
    page.close()


def test_othello_click_the_move(browser, service: str, tmp_path: Path) -> None:
    record = generate(service, "othello", empties=10, seed=5)
    move = record["solution"]["move"]
    r, c = int(move[1:]) - 1, ord(move[0].upper()) - ord("A")
    page = open_page(browser, service, record, PHONE)
    empty = [(i // 8, i % 8) for i, square in enumerate(record["puzzle"]["board"]) if square == "-"]
    other = next(square for square in empty if square != (r, c))
    cell(page, *other).click()
    assert not check(page).startswith("solved")
    cell(page, r, c).click()
    assert check(page).startswith("solved")
    fill = cell(page, r, c).locator(".bg").evaluate("el => getComputedStyle(el).fill")
    assert fill == "rgb(143, 214, 169)"  # the picture's look "green-when-filled" marks the chosen square
    page.screenshot(path=tmp_path / "othello-phone-solved.png", full_page=True)
    page.close()


def test_links_join_islands_by_taps_drags_and_keys_and_take_a_hint(browser, service: str, tmp_path: Path) -> None:
    """Hashi's bridges through the shared `links` widget: the first pair by two taps, the others by drags, the
    last by Shift+arrow from its first island; one missing shows a broken rule, all of them are solved."""
    record = generate(service, "hashi", size=7, seed=11)
    first, *middle, last = record["solution"]["bridges"]
    page = open_page(browser, service, record, DESKTOP)
    page.screenshot(path=tmp_path / "hashi-desktop-start.png", full_page=True)
    for _ in range(first["count"]):
        cell(page, *first["from"]).click()
        cell(page, *first["to"]).click()
    for bridge in middle:
        for _ in range(bridge["count"]):
            cell(page, *bridge["from"]).drag_to(cell(page, *bridge["to"]))
    assert page.locator("[data-links] line").count() == sum(b["count"] for b in [first, *middle])
    assert not check(page).startswith("solved")
    assert page.locator(".violation").count() >= 1
    (r0, c0), (_, c1) = last["from"], last["to"]
    arrow = "ArrowDown" if c0 == c1 else "ArrowRight"  # the answer lists each pair from its top or left island
    page.focus(f'[data-cell="{r0},{c0}"]')
    for _ in range(last["count"]):
        page.keyboard.press(f"Shift+{arrow}")
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / "hashi-desktop-solved.png", full_page=True)
    page.click('[data-action="clear"]')
    assert page.locator("[data-links] line").count() == 0
    ask_for_a_hint(page)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def normalise(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - r0, c - c0) for r, c in cells)


def presses_for(shape: list[tuple[int, int]], target: list[tuple[int, int]]) -> list[str]:
    """Which Rotate/Flip clicks turn ``shape`` (as the page shows it first) into ``target``."""
    current = normalise(shape)
    for flips in range(2):
        for turns in range(4):
            if current == normalise(target):
                return ["flip"] * flips + ["rotate"] * turns
            current = normalise([(c, -r) for r, c in current])
        current = normalise([(r, -c) for r, c in current])
    raise AssertionError(f"{target} is no orientation of {shape}")


@pytest.mark.parametrize("mode", ["given", "hidden"])
def test_ubongo_place_pieces(browser, service: str, tmp_path: Path, mode: str) -> None:
    record = generate(service, "ubongo", pieces=3, mode=mode, seed=4)
    catalogue = {p["name"]: [tuple(c) for c in p["cells"]]
                 for p in next(t for t in httpx.get(f"{service}/types").json() if t["name"] == "ubongo")
                 ["catalogue"]["catalogues"][record["puzzle"]["catalogue"]]}
    page = open_page(browser, service, record, PHONE)
    placements = record["solution"]["placements"]
    for placement in placements[:-1]:
        target = [tuple(c) for c in placement["cells"]]
        page.click(f'[data-piece="{placement["piece"]}"]')
        for action in presses_for(catalogue[placement["piece"]], target):
            page.click(f'[data-action="{action}"]')
        cell(page, *min(target)).click()
    assert not check(page).startswith("solved")  # a piece is missing
    assert page.locator(".violation").count() >= 1
    last = placements[-1]
    target = [tuple(c) for c in last["cells"]]
    page.click(f'[data-piece="{last["piece"]}"]')
    for action in presses_for(catalogue[last["piece"]], target):
        page.keyboard.press("r" if action == "rotate" else "f")
    cell(page, *min(target)).click()
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / f"ubongo-{mode}-phone-solved.png", full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_daily_page_and_hint_button_follow_types(browser, service: str) -> None:
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{service}/play/daily/dabuhamienai")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("[data-cell]").count() > 0
    types = {t["name"]: t for t in httpx.get(f"{service}/types").json()}
    has_hints = bool(types["dabuhamienai"].get("difficulties"))
    assert page.locator('[data-action="hint"]').is_visible() == has_hints
    page.close()


def test_hint_button_asks_the_service_and_shows_its_answer(browser, service: str, tmp_path: Path) -> None:
    types = {t["name"]: t for t in httpx.get(f"{service}/types").json()}
    if not types["dabuhamienai"].get("difficulties"):
        pytest.skip("the service lists no difficulties for dabuhamienai yet, so the page hides the hint button")
    record = generate(service, "dabuhamienai", size=6, seed=21)
    page = open_page(browser, service, record, PHONE)
    decided_before = page.locator('[data-state="filled"], [data-state="empty"]').count()
    page.click('[data-action="hint"]')
    result = page.locator("[data-result]")
    sync_api.expect(result).to_contain_text("Hint", timeout=30_000)
    decided_after = page.locator('[data-state="filled"], [data-state="empty"]').count()
    assert decided_after > decided_before or page.locator(".because").count() > 0
    page.screenshot(path=tmp_path / "dabuhamienai-phone-hint.png", full_page=True)
    page.close()


def same_picture(old: bytes, new: bytes) -> bool:
    """Chromium's antialiasing differs by a level or two on a few dozen pixels from one run to the next."""
    from PIL import Image, ImageChops

    first, second = (Image.open(io.BytesIO(png)).convert("RGB") for png in (old, new))
    if first.size != second.size:
        return False
    levels = ImageChops.difference(first, second).convert("L").histogram()
    changed = sum(levels[1:])
    worst = max((level for level, count in enumerate(levels) if count), default=0)
    return worst <= 16 and changed <= first.width * first.height // 1000


def save_for_readme(page, name: str, **options: object) -> None:  # noqa: ANN001
    """Write a README picture unless the committed one shows the same page, so a rerun of the tests leaves
    no changed file behind for that noise, while any real change to a page is drawn anew."""
    shot = page.screenshot(**options)
    path = SCREENSHOTS / name
    if not (path.exists() and same_picture(path.read_bytes(), shot)):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path.write_bytes(shot)


def heading(page) -> tuple[str, str, str]:  # noqa: ANN001
    return page.locator("h1").inner_text(), page.locator(".facts").inner_text(), page.locator("[data-id]").inner_text()


def test_play_page_title_says_type_day_size_and_level_with_the_id_in_small_print(browser, service: str) -> None:
    record = httpx.get(f"{service}/daily/dabuhamienai", params={"difficulty": "easy", "date": README_DAY}, timeout=120).json()
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{service}/play/daily/dabuhamienai?difficulty=easy&date={README_DAY}")
    page.wait_for_selector("body[data-ready=true]")
    title, facts, small_print = heading(page)
    assert title == "Dabuhamienai · 8×8 · easy" == page.title()
    assert facts == "Daily puzzle for Sunday 22 November 2026 · 8×8 · level: easy"
    assert small_print == record["id"] and record["id"] not in title
    font_size = "selector => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)"
    assert page.evaluate(font_size, ".id") < page.evaluate(font_size, ".facts")  # small print
    page.click('[data-action="hint"]')  # the README's picture: a hint on a fresh grid
    sync_api.expect(page.locator("[data-result]")).to_contain_text("Hint", timeout=30_000)
    save_for_readme(page, "play-page.png", full_page=True)
    page.close()

    stored = generate(service, "battleship", size=7, seed=12)
    page = open_page(browser, service, stored, PHONE)
    title, facts, small_print = heading(page)
    level = stored["difficulty"]["level"]
    assert title == f"Battleship · 7×7 · {level}" and facts == f"7×7 · level: {level}"
    assert small_print == stored["id"]
    page.close()


def load_every_picture(page) -> list[str]:  # noqa: ANN001
    """Scroll to each picture as a person would (they load lazily) and wait until it shows; the sources."""
    sources = []
    for picture in page.locator("img[data-daily]").all():
        picture.scroll_into_view_if_needed()
        # A day's first visit: the service makes every type's puzzles meanwhile, one after another per worker.
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=picture.element_handle(),
                               timeout=600_000)
        sources.append(picture.get_attribute("src"))
    return sources


def made_at_default(name: str, level: str) -> bool:
    """Whether the type's default parameters take ``level`` (a level the default size cannot have is a note)."""
    try:
        TYPES[name].params_model(difficulty=level)
    except ValidationError:
        return False
    return True


def test_front_page_shows_every_daily_and_every_link_answers(browser, fresh_service: str, tmp_path: Path) -> None:
    types = httpx.get(f"{fresh_service}/types").json()
    page = browser.new_page(viewport=PHONE)
    pictures: dict[str, dict] = {}
    page.on("response", lambda r: "/daily/" in r.url and ".svg" in r.url and pictures.setdefault(
        r.url, {}).update({r.status: r.headers.get("ratelimit-limit")}))
    # The README's day, not today: the desktop test below then finds its dailies stored instead of making all
    # of them again (today's heading and dailies are tests/service/test_front_page.py's).
    page.goto(f"{fresh_service}/?date={README_DAY}")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator("h1").inner_text() == "Puzzles of 22 November 2026"

    sources = load_every_picture(page)
    wanted = {(t["name"], level) for t in types for level in t["difficulties"] if made_at_default(t["name"], level)}
    assert ("number-sums", "expert") not in wanted
    assert {re.fullmatch(rf"/daily/([a-z-]+)\.svg\?difficulty=(\w+)&date={README_DAY}", src).groups()
            for src in sources} == wanted
    assert "expert" in page.locator("#number-sums .note").inner_text()  # the level its default size cannot have, and why
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    page.screenshot(path=tmp_path / "front-phone.png", full_page=True)
    # Every picture came from the read budget (1200 a minute), never from work (1 a minute here).
    assert {limit for statuses in pictures.values() for status, limit in statuses.items() if status == 200} == {"1200"}
    assert not any(status == 429 for statuses in pictures.values() for status in statuses)

    links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    assert {"/docs", "#curl"} <= set(links)
    assert len([link for link in links if link.startswith("/play/daily/")]) == len(wanted)
    for link in set(links):
        if link.startswith("#"):
            assert page.locator(link).count() == 1, link
        else:
            assert page.request.get(fresh_service + link).status == 200, link
    assert "curl" in page.locator("#curl pre").inner_text()
    page.close()


def test_front_page_of_the_readme_day_on_a_desktop(browser, fresh_service: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{fresh_service}/?date={README_DAY}")
    page.wait_for_selector("body[data-ready=true]")
    load_every_picture(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    page.evaluate("window.scrollTo(0, 0)")
    save_for_readme(page, "front-page.png")  # the top of the page, as a visitor first sees it


def type_digit(page, r: int, c: int, digit: int) -> None:  # noqa: ANN001
    cell(page, r, c).click()
    page.keyboard.press("ABCDEFG"[digit - 10] if digit >= 10 else str(digit))


def test_sudoku_digits_and_pencil_marks(browser, service: str, tmp_path: Path) -> None:
    """A 4×4 solved by clicking cells and typing digits (and one by the keypad); pencil marks shown and
    cleared; a wrong digit shows its broken rules; a hint fills a digit or pencils a cell."""
    record = generate(service, "sudoku", size=4, seed=5)
    givens, solution = record["puzzle"]["givens"], record["solution"]["digits"]
    open_cells = [(r, c) for r in range(4) for c in range(4) if not givens[r][c]]
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_page(browser, service, record, viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        first = open_cells[0]
        cell(page, *first).click()
        page.click('[data-action="pencil"]')
        for d in (1, 3):
            page.keyboard.press(str(d))
        assert cell(page, *first).get_attribute("data-marks") == "1 3"
        assert cell(page, *first).locator(".mark").count() == 2
        page.screenshot(path=tmp_path / f"sudoku-{name}-pencil.png", full_page=True)
        page.keyboard.press("p")  # back to digits
        assert page.locator('[data-action="pencil"]').get_attribute("aria-pressed") == "false"
        for r, c in open_cells[:-1]:
            type_digit(page, r, c, solution[r][c])
        last = open_cells[-1]
        cell(page, *last).click()
        page.click(f'.keypad [data-digit="{solution[last[0]][last[1]]}"]')
        assert cell(page, *first).locator(".mark").count() == 0  # a digit hides the marks
        assert cell(page, *first).get_attribute("data-state") == "filled"
        assert check(page).startswith("solved")
        page.screenshot(path=tmp_path / f"sudoku-{name}-solved.png", full_page=True)
        given = next((r, c) for r in range(4) for c in range(4) if givens[r][c])
        type_digit(page, *given, givens[given[0]][given[1]] % 4 + 1)
        assert page.locator("[data-result]").inner_text() == "That cell is given."
        assert page.errors == []  # type: ignore[attr-defined]
        page.close()

    page = open_page(browser, service, record, PHONE)
    r, c = open_cells[0]
    type_digit(page, r, c, solution[r][c] % 4 + 1)
    text = check(page)
    assert not text.startswith("solved") and "broken" in text and page.locator(".violation").count() >= 1
    page.click('[data-action="clear"]')
    ask_for_a_hint(page)
    filled = page.locator('[data-cell][data-state="filled"]').count()
    assert filled > sum(1 for row in givens for v in row if v) or page.locator("[data-marks]").count() > 0
    page.screenshot(path=tmp_path / "sudoku-phone-hint.png", full_page=True)
    page.close()


def test_sudoku_16_takes_letters_for_10_to_16(browser, service: str, tmp_path: Path) -> None:
    record = generate(service, "sudoku", size=16, difficulty="easy", seed=2)
    givens, solution = record["puzzle"]["givens"], record["solution"]["digits"]
    page = open_page(browser, service, record, DESKTOP)
    high = [(r, c) for r in range(16) for c in range(16) if not givens[r][c] and solution[r][c] >= 10][:3]
    for r, c in high:
        type_digit(page, r, c, solution[r][c])
        assert cell(page, r, c).get_attribute("data-digit") == str(solution[r][c])
        assert cell(page, r, c).locator(".entry").text_content() == str(solution[r][c])
    page.screenshot(path=tmp_path / "sudoku16-desktop.png", full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def edge(page, field: str, r: int, c: int):  # noqa: ANN001, ANN201
    return page.locator(f'[data-edge="{field},{r},{c}"]')


def test_loop_edges_drawn_by_taps_and_keys_solve_and_a_wrong_edge_is_named(browser, service: str,
                                                                            tmp_path: Path) -> None:
    """Slitherlink on the shared edges widget: the loop drawn by tapping its edges solves (on a phone and a
    desktop); an edge tapped once more is a cross, and the keyboard draws the same loop (Shift+arrow at a
    focused cell); a stray line shows its broken rule; a hint decides edges."""
    record = generate(service, "slitherlink", size=5, seed=7, difficulty="easy")
    loop = [(field, r, c) for field in ("horizontal", "vertical")
            for r, row in enumerate(record["solution"][field]) for c, v in enumerate(row) if v]
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_page(browser, service, record, viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        for field, r, c in loop:
            edge(page, field, r, c).click()
            assert edge(page, field, r, c).get_attribute("data-state") == "line"
        assert check(page).startswith("solved")
        page.screenshot(path=tmp_path / f"slitherlink-{name}-solved.png", full_page=True)
        field, r, c = loop[0]
        edge(page, field, r, c).click()
        assert edge(page, field, r, c).get_attribute("data-state") == "cross"
        assert not check(page).startswith("solved")
        assert page.errors == []  # type: ignore[attr-defined]
        page.close()

    page = open_page(browser, service, record, PHONE)
    rows, cols = len(record["solution"]["vertical"]), len(record["solution"]["horizontal"][0])
    for field, r, c in loop:  # each edge from the cell it borders (the last row and column from the inside)
        cr, cc = min(r, rows - 1), min(c, cols - 1)
        side = ("ArrowUp" if r == cr else "ArrowDown") if field == "horizontal" else ("ArrowLeft" if c == cc else "ArrowRight")
        page.focus(f'[data-cell="{cr},{cc}"]')
        page.keyboard.press(f"Shift+{side}")
    assert check(page).startswith("solved")
    stray = next((f, r, c) for f in ("horizontal", "vertical") for r, row in enumerate(record["solution"][f])
                 for c, v in enumerate(row) if not v)
    edge(page, *stray).focus()
    page.keyboard.press("Enter")
    text = check(page)
    assert "broken" in text and page.locator(".violation").count() >= 1
    page.click('[data-action="clear"]')
    assert page.locator('[data-edge][data-state="line"]').count() == 0
    ask_for_a_hint(page)
    assert page.locator('[data-edge][data-state="line"], [data-edge][data-state="cross"]').count() > 0
    page.screenshot(path=tmp_path / "slitherlink-phone-hint.png", full_page=True)


def test_rectangles_drawn_as_borders_on_the_edges_widget_solve_and_a_missing_one_is_named(browser, service: str,
                                                                                        tmp_path: Path) -> None:
    """Shikaku on the shared edges widget: every border between two rectangles tapped solves (the page's genre
    module turns the borders into `regions`); one border taken away leaves two numbers in one region, which the
    check names; a hint answers from the finished rectangles."""
    record = generate(service, "shikaku", size=5, seed=3, difficulty="easy")
    regions = record["solution"]["regions"]
    borders = [("horizontal", r, c) for r in range(1, 5) for c in range(5) if regions[r][c] != regions[r - 1][c]]
    borders += [("vertical", r, c) for r in range(5) for c in range(1, 5) if regions[r][c] != regions[r][c - 1]]
    page = open_page(browser, service, record, PHONE)
    for field, r, c in borders:
        edge(page, field, r, c).click()
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / "shikaku-phone-solved.png", full_page=True)
    field, r, c = borders[0]
    edge(page, field, r, c).click()  # a cross: no border there any more
    text = check(page)
    assert "broken" in text and page.locator(".violation").count() >= 1
    ask_for_a_hint(page)


def test_loop_through_centres_drawn_by_taps_and_keys(browser, service: str, tmp_path: Path) -> None:
    """Masyu on the same edges widget, its lines between cells' centres: the loop tapped line by line solves,
    and so does the loop drawn from the keyboard (Shift+arrow from a cell toward its neighbour)."""
    record = generate(service, "masyu", size=5, seed=3, difficulty="easy")
    loop = [(field, r, c) for field in ("horizontal", "vertical")
            for r, row in enumerate(record["solution"][field]) for c, v in enumerate(row) if v]
    page = open_page(browser, service, record, PHONE)
    for field, r, c in loop:
        edge(page, field, r, c).click()
        assert edge(page, field, r, c).get_attribute("data-state") == "line"
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / "masyu-phone-solved.png", full_page=True)
    page.click('[data-action="clear"]')
    for field, r, c in loop:  # from the cell left of or above the line, toward the other
        page.focus(f'[data-cell="{r},{c}"]')
        page.keyboard.press("Shift+ArrowRight" if field == "horizontal" else "Shift+ArrowDown")
    assert check(page).startswith("solved")
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_skyscrapers_digits_beside_the_clues(browser, service: str, tmp_path: Path) -> None:
    """A 5×5 (no boxes: pencil marks in 2 rows of 3) solved by typing heights, the clues outside the cells; a
    pencil mark allowed by its row and column alone, and a hint that fills or pencils."""
    record = generate(service, "skyscrapers", size=5, difficulty="easy", seed=3)
    givens, solution = record["puzzle"]["givens"], record["solution"]["digits"]
    open_cells = [(r, c) for r in range(5) for c in range(5) if givens[r][c] is None]
    for viewport, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = open_page(browser, service, record, viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert page.locator(".clue").count() == sum(v is not None for side in ("top", "bottom", "left", "right")
                                                    for v in record["puzzle"][side])
        first = open_cells[0]
        cell(page, *first).click()
        page.click('[data-action="pencil"]')
        for d in (1, 5):
            page.keyboard.press(str(d))
        assert cell(page, *first).get_attribute("data-marks") == "1 5"
        page.keyboard.press("p")
        for r, c in open_cells:
            type_digit(page, r, c, solution[r][c])
        assert check(page).startswith("solved")
        page.screenshot(path=tmp_path / f"skyscrapers-{name}-solved.png", full_page=True)
        assert page.errors == []  # type: ignore[attr-defined]
        page.close()
    page = open_page(browser, service, record, PHONE)
    ask_for_a_hint(page)
    assert page.locator('[data-cell][data-state="filled"]').count() > 0 or page.locator("[data-marks]").count() > 0
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_kakuro_digits_in_white_cells_only(browser, service: str, tmp_path: Path) -> None:
    """A 6×6 solved by typing digits in its white cells (its clue cells are no cells), and a hint."""
    record = generate(service, "kakuro", size=6, difficulty="medium", seed=3)
    solution = record["solution"]["digits"]
    white = [(r, c) for r, row in enumerate(solution) for c, v in enumerate(row) if v]
    page = open_page(browser, service, record, PHONE)
    assert page.locator("[data-cell]").count() == len(white)
    for r, c in white:
        type_digit(page, r, c, solution[r][c])
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / "kakuro-phone-solved.png", full_page=True)
    page.click('[data-action="clear"]')
    ask_for_a_hint(page)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()


def test_fillomino_digits_with_givens_fixed(browser, service: str, tmp_path: Path) -> None:
    """A 5×5 solved by typing each open cell's number (the givens fixed, drawn by the digits widget); a wrong number
    shows the region it breaks; a hint fills a number or pencils a cell."""
    record = generate(service, "fillomino", size=5, difficulty="easy", seed=3)
    givens, solution = record["puzzle"]["givens"], record["solution"]["digits"]
    open_cells = [(r, c) for r in range(5) for c in range(5) if givens[r][c] is None]
    page = open_page(browser, service, record, PHONE)
    first = open_cells[0]
    type_digit(page, *first, solution[first[0]][first[1]] % 5 + 1)
    for r, c in open_cells[1:]:
        type_digit(page, r, c, solution[r][c])
    text = check(page)
    assert "broken" in text and page.locator(".violation").count() >= 1
    type_digit(page, *first, solution[first[0]][first[1]])
    assert check(page).startswith("solved")
    page.screenshot(path=tmp_path / "fillomino-phone-solved.png", full_page=True)
    page.click('[data-action="clear"]')
    ask_for_a_hint(page)
    assert page.errors == []  # type: ignore[attr-defined]
    page.close()
