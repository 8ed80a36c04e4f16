"""Pictures and play pages: a puzzle as SVG (stored or posted), and a page where a person plays a stored
puzzle or today's daily in a browser. The page is plain HTML, one ES module and one stylesheet from
``app/static`` (no build step, nothing from another host), plus the genre's own module where its
``PuzzleType.play_script`` names one.

Include this router before the stored-puzzle routes: `/puzzles/{id}.svg` would otherwise match
`/puzzles/{id}`.
"""


import hashlib
import html
import json
import math
import sys
from collections.abc import Callable
from datetime import date
from importlib import resources
from pathlib import Path
from string import Template
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field, create_model
from starlette.concurrency import run_in_threadpool

from app.routes.puzzles import (
    ERRORS,
    NOT_FOUND,
    _stored_row,
    camel,
    daily_query,
    daily_row,
    immutable_response,
    puzzle_input_fields,
    text_or_json_puzzle,
    unknown_type,
)
from app.service import ServiceDep
from app.store import PuzzleRow
from generators.registry import TYPES
from generators.spec import PuzzleType

STATIC = Path(str(resources.files("app") / "static"))  # shipped in the package: a wheel serves it too
# The pages' files: play.js, play.css, front.js, front.css and each shared play mode's own module (play-<mode>.js).
ASSETS = {path.name: {".js": "text/javascript", ".css": "text/css"}[path.suffix]
          for path in sorted(STATIC.iterdir()) if path.suffix in (".js", ".css")}
SVG = "image/svg+xml"
HTML = "text/html; charset=utf-8"
PAGE = Template((STATIC / "play.html").read_text())


def play_script(puzzle_type: PuzzleType) -> Path | None:
    """The genre's own play module (``PuzzleType.play_script``, e.g. ``solvers/nonogram/play.js``: the file
    ``play.js`` of the package ``solvers.nonogram``), found through the installed package."""
    if puzzle_type.play_script is None:
        return None
    package, _, name = puzzle_type.play_script.rpartition("/")
    path = Path(str(resources.files(package.replace("/", ".")) / name))
    if path.suffix != ".js" or not path.is_file():
        raise RuntimeError(f"{puzzle_type.name}: play_script {puzzle_type.play_script!r} is no .js file of its package")
    return path


# Each genre's own play module, served as /play/assets/<type>/<file name>.
GENRE_ASSETS = {(t.name, path.name): path for t in TYPES.values() if (path := play_script(t)) is not None}


def _version() -> str:
    """Changes whenever a picture or the page changes, so cached SVGs and pages are never stale: the shared
    picture layer, every type's own drawing module (wherever its genre keeps it), the page's files and the
    genres' own play modules."""
    digest = hashlib.sha256()
    drawings = {Path(str(sys.modules[t.render.__module__].__file__)) for t in TYPES.values() if t.render is not None}
    sources = (sorted(Path(str(resources.files("pictures"))).glob("*.py")) + sorted(drawings) + sorted(STATIC.iterdir())
               + sorted(GENRE_ASSETS.values()))
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


VERSION = _version()

router = APIRouter(tags=["pictures and play"], responses=ERRORS)


async def rendered_response(request: Request, etag: str, render: Callable[[], bytes], media_type: str,
                            until: float = math.inf) -> Response:
    """An immutable response whose body is drawn in a thread: a large board takes a good fraction of a
    second to draw, which must not stall the event loop. A client that holds this version gets its 304
    without any drawing."""
    if f'"{etag}"' in request.headers.get("if-none-match", ""):
        return immutable_response(request, etag, bytes, until=until, media_type=media_type)
    body = await run_in_threadpool(render)
    return immutable_response(request, etag, lambda: body, until=until, media_type=media_type)


def picture(puzzle_type: PuzzleType, puzzle: dict[str, Any], solution: dict[str, Any] | None, play: bool = False) -> str:
    if puzzle_type.render is None:
        raise HTTPException(404, f"{puzzle_type.name} puzzles have no picture.")
    answer = puzzle_type.answer_model.model_validate(solution) if solution is not None else None
    return puzzle_type.render(puzzle_type.puzzle_model.model_validate(puzzle), answer, play)


PICTURE_DOC = {200: {"content": {SVG: {"schema": {"type": "string"}}}, "description": "The picture."}}


async def svg_response(request: Request, row: PuzzleRow, solution: bool = False, until: float = math.inf) -> Response:
    """A stored puzzle's picture, cached as the record is (the same picture under any URL that shows it)."""
    puzzle_type = TYPES[row.type]
    etag = f"{row.id}-svg{'-s' if solution else ''}-{VERSION}"
    return await rendered_response(
        request, etag, lambda: picture(puzzle_type, row.puzzle, row.solution if solution else None).encode(), SVG,
        until=until,
    )


@router.get("/puzzles/{puzzle_id}.svg", summary="A stored puzzle as an SVG picture", responses={**NOT_FOUND, **PICTURE_DOC})
async def stored_svg(
    puzzle_id: str, service: ServiceDep, request: Request,
    solution: Annotated[bool, Query(description="Draw the solution.")] = False,
) -> Response:
    return await svg_response(request, await _stored_row(service, puzzle_id), solution)


def render_router(puzzle_type: PuzzleType) -> APIRouter:
    """`POST /render/{type}`: anyone's puzzle of this type as a picture; it comes as a solve request's
    does (JSON `puzzle`, or `csv` / `url` where the type reads them)."""
    type_router = APIRouter(tags=["pictures and play"], responses=ERRORS)
    RenderRequest = create_model(f"{camel(puzzle_type.name)}RenderRequest", **puzzle_input_fields(puzzle_type))  # noqa: N806

    @type_router.post(f"/render/{puzzle_type.name}", summary=f"Draw a {puzzle_type.name} puzzle as SVG",
                      responses={200: {"content": {SVG: {"schema": {"type": "string"}}}, "description": "The picture."}})
    async def render(body: RenderRequest) -> Response:  # type: ignore[valid-type]
        puzzle = text_or_json_puzzle(puzzle_type, body)
        svg = await run_in_threadpool(picture, puzzle_type, puzzle.model_dump(mode="json"), None)
        return Response(svg, media_type=SVG)

    return type_router


class PlayData(BaseModel):
    """What the page's script reads (embedded in the page as JSON)."""

    id: str
    type: str
    puzzle: dict[str, Any]
    answer_field: str = Field(description="The answer's field the board fills in, e.g. `shaded`.")
    difficulty: dict[str, Any] | None = None
    mode: str = Field(description="The shared widget the page plays the board with (`PuzzleType.play_mode`).")
    module: str | None = Field(None, description="The URL of the genre's own play module (`PuzzleType.play_script`).")


def long_date(day: date) -> str:
    """`Sunday 22 November 2026` (strftime's `%-d` is not portable)."""
    return f"{day:%A} {day.day} {day:%B %Y}"


def size_and_setting(params: dict[str, Any]) -> list[str]:
    """A record's parameters as a player reads them: a square grid is `size` alone and any other `rows`
    and `cols` (how every type writes them), so both read `R×C`; a count reads `12 empties`, a switch that
    is on its name, anything else `name value`. Seed, date and level are shown elsewhere."""
    shown = {name: value for name, value in params.items() if name not in ("seed", "date", "difficulty")}
    facts = []
    if isinstance(shown.get("rows"), int) and isinstance(shown.get("cols"), int):
        facts.append(f"{shown.pop('rows')}×{shown.pop('cols')}")
        shown.pop("size", None)
    elif isinstance(shown.get("size"), int):
        size = shown.pop("size")
        facts.append(f"{size}×{size}")
    for name, value in shown.items():
        words = name.replace("_", " ")
        if value is True:
            facts.append(words)
        elif isinstance(value, int) and not isinstance(value, bool):
            facts.append(f"{value} {words}")
        elif isinstance(value, list):
            facts.append(f"{words} {','.join(map(str, value))}")
        elif value not in (False, None):
            facts.append(f"{words} {value}")
    return facts


def play_heading(row: PuzzleRow) -> tuple[str, str]:
    """The page's title (also the browser tab's) and the line under it: what a player cares about, the
    type, the day of a daily, size and level; the id is small print of its own."""
    puzzle_type = TYPES[row.type]
    name = puzzle_type.name.replace("-", " ").title()
    grade = getattr(row, "difficulty", None) or {}
    level = grade.get("level") or row.params.get("difficulty")  # the grade says what it is, the request what was asked
    facts = size_and_setting(row.params)
    title = " · ".join([name, *facts[:1], *([level] if level else [])])
    day = row.params.get("date")
    line = [f"Daily puzzle for {long_date(date.fromisoformat(day))}"] if day else []
    line += facts
    if level:
        line.append(f"level: {level}")
    return title, " · ".join(line)


def play_page(row: PuzzleRow) -> bytes:
    puzzle_type = TYPES[row.type]
    difficulty = getattr(row, "difficulty", None)
    script = play_script(puzzle_type)
    data = PlayData(id=row.id, type=row.type, puzzle=row.puzzle, difficulty=difficulty,
                    answer_field=next(iter(puzzle_type.answer_model.model_fields)), mode=puzzle_type.play_mode,
                    module=f"/play/assets/{puzzle_type.name}/{script.name}?v={VERSION}" if script else None)
    title, facts = play_heading(row)
    page = PAGE.substitute(
        title=html.escape(title),
        facts=html.escape(facts),
        id=html.escape(row.id),
        rules=html.escape(puzzle_type.summary),
        type=html.escape(row.type),
        board=picture(puzzle_type, row.puzzle, None, play=True),
        # "</" inside a script element would end it early
        data=json.dumps(data.model_dump(mode="json")).replace("</", "<\\/"),
        svg_link=f"/puzzles/{row.id}.svg",
        version=VERSION,
    )
    return page.encode()


PAGE_DOC = {200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "The play page."}}


@router.get("/play/{puzzle_id}", summary="Play a stored puzzle in the browser", responses={**NOT_FOUND, **PAGE_DOC})
async def play_stored(puzzle_id: str, service: ServiceDep, request: Request) -> Response:
    row = await _stored_row(service, puzzle_id)
    return await rendered_response(request, f"{row.id}-play-{VERSION}", lambda: play_page(row), HTML)


def daily_router(puzzle_type: PuzzleType) -> APIRouter:
    """A type's daily puzzle as a picture and as a play page: the same query as `GET /daily/{type}` (the
    type's parameters and `date`), so `?difficulty=hard` shows the hard daily, and a typo is a 422."""
    type_router = APIRouter(tags=["pictures and play"], responses=ERRORS)
    DailyQuery = daily_query(puzzle_type)  # noqa: N806
    name = puzzle_type.name
    bad_query = {422: {"description": "A parameter that is not the type's, or out of its range."}}

    @type_router.get(f"/daily/{name}.svg", summary=f"The {name} puzzle of the day as an SVG picture",
                     responses={**PICTURE_DOC, **bad_query})
    async def daily_svg(query: Annotated[DailyQuery, Query()], service: ServiceDep, request: Request) -> Response:  # type: ignore[valid-type]
        row, until = await daily_row(service, puzzle_type, query)
        return await svg_response(request, row, until=until)

    @type_router.get(f"/play/daily/{name}", summary=f"Play the {name} puzzle of the day in the browser",
                     responses={**PAGE_DOC, **bad_query})
    async def play_daily(query: Annotated[DailyQuery, Query()], service: ServiceDep, request: Request) -> Response:  # type: ignore[valid-type]
        row, until = await daily_row(service, puzzle_type, query)
        return await rendered_response(request, f"{row.id}-play-{VERSION}", lambda: play_page(row), HTML, until=until)

    for route in type_router.routes:  # error handlers find the type here, not in the URL
        route.puzzle_type = puzzle_type  # type: ignore[attr-defined]
    return type_router


@router.get("/play/assets/{name}", include_in_schema=False)
async def asset(name: str) -> Response:
    if name not in ASSETS:
        raise HTTPException(404, f"No asset {name!r}.")
    # The page asks for ?v=<version>, so a year's caching is safe: a new version is a new URL.
    return FileResponse(STATIC / name, media_type=ASSETS[name], headers={"Cache-Control": "public, max-age=31536000"})


@router.get("/play/assets/{type_name}/{name}", include_in_schema=False)
async def genre_asset(type_name: str, name: str) -> Response:
    """A genre's own play module, versioned and cached as the shared assets are."""
    path = GENRE_ASSETS.get((type_name, name))
    if path is None:
        raise HTTPException(404, f"No asset {type_name + '/' + name!r}.")
    return FileResponse(path, media_type="text/javascript", headers={"Cache-Control": "public, max-age=31536000"})


for _type in TYPES.values():
    if _type.render is not None:
        router.include_router(render_router(_type))
        router.include_router(daily_router(_type))


@router.post("/render/{type_name}", include_in_schema=False)
@router.get("/daily/{type_name}.svg", include_in_schema=False)
@router.get("/play/daily/{type_name}", include_in_schema=False)
async def unknown_type_picture(type_name: str) -> None:
    raise unknown_type(type_name)
