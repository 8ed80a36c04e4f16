"""Pictures and play pages: a puzzle as SVG (stored or posted), and a page where a person plays a stored
puzzle or today's daily in a browser. The page is plain HTML, one ES module and one stylesheet from
``app/static`` (no build step, nothing from another host).

Include this router before the stored-puzzle routes: `/puzzles/{id}.svg` would otherwise match
`/puzzles/{id}`.
"""


import hashlib
import html
import json
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
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
    ErrorDetail,
    _stored_row,
    camel,
    immutable_response,
    puzzle_input_fields,
    text_or_json_puzzle,
    unknown_type,
)
from app.service import ServiceDep
from app.store import PuzzleRow
from generators.registry import TYPES
from generators.spec import PuzzleType

STATIC = Path(__file__).resolve().parent.parent / "static"
ASSETS = {path.name: {".js": "text/javascript", ".css": "text/css"}[path.suffix]  # the page's modules and style
          for path in STATIC.iterdir() if path.suffix in (".js", ".css")}
SVG = "image/svg+xml"
HTML = "text/html; charset=utf-8"
PAGE = Template((STATIC / "play.html").read_text())


def _version() -> str:
    """Changes whenever a picture or the page changes, so cached SVGs and pages are never stale."""
    digest = hashlib.sha256()
    sources = sorted((Path(__file__).resolve().parents[2] / "pictures").glob("*.py")) + sorted(STATIC.iterdir())
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


@router.get("/puzzles/{puzzle_id}.svg", summary="A stored puzzle as an SVG picture", responses={
    **NOT_FOUND, 200: {"content": {SVG: {"schema": {"type": "string"}}}, "description": "The picture."}})
async def stored_svg(
    puzzle_id: str, service: ServiceDep, request: Request,
    solution: Annotated[bool, Query(description="Draw the solution.")] = False,
) -> Response:
    row = await _stored_row(service, puzzle_id)
    puzzle_type = TYPES[row.type]
    etag = f"{row.id}-svg{'-s' if solution else ''}-{VERSION}"
    return await rendered_response(
        request, etag, lambda: picture(puzzle_type, row.puzzle, row.solution if solution else None).encode(), SVG
    )


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


def play_page(row: PuzzleRow, title: str) -> bytes:
    puzzle_type = TYPES[row.type]
    difficulty = getattr(row, "difficulty", None)
    data = PlayData(id=row.id, type=row.type, puzzle=row.puzzle, difficulty=difficulty,
                    answer_field=next(iter(puzzle_type.answer_model.model_fields)))
    facts = [puzzle_type.name.replace("-", " ").title(), f"id {row.id}"]
    if difficulty and difficulty.get("level"):
        facts.append(f"difficulty: {difficulty['level']}")
    page = PAGE.substitute(
        title=html.escape(title),
        facts=html.escape(" · ".join(facts)),
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
    title = f"{row.type.replace('-', ' ').title()} {row.id}"
    return await rendered_response(request, f"{row.id}-play-{VERSION}", lambda: play_page(row, title), HTML)


@router.get("/play/daily/{type_name}", summary="Play today's daily puzzle of a type in the browser",
            responses={**PAGE_DOC, 404: {"model": ErrorDetail, "description": "Unknown puzzle type."}})
async def play_daily(type_name: str, service: ServiceDep, request: Request) -> Response:
    puzzle_type = TYPES.get(type_name)
    if puzzle_type is None:
        raise unknown_type(type_name)
    today = datetime.now(UTC).date()
    row = await service.daily(puzzle_type, puzzle_type.params_model(), today)  # the type's default parameters
    midnight = datetime.combine(today + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    title = f"Daily {type_name.replace('-', ' ')} for {today.isoformat()}"
    return await rendered_response(request, f"{row.id}-play-{VERSION}", lambda: play_page(row, title), HTML,
                                   until=midnight.timestamp())


@router.get("/play/assets/{name}", include_in_schema=False)
async def asset(name: str) -> Response:
    if name not in ASSETS:
        raise HTTPException(404, f"No asset {name!r}.")
    # The page asks for ?v=<version>, so a year's caching is safe: a new version is a new URL.
    return FileResponse(STATIC / name, media_type=ASSETS[name], headers={"Cache-Control": "public, max-age=31536000"})


for _type in TYPES.values():
    if _type.render is not None:
        router.include_router(render_router(_type))


@router.post("/render/{type_name}", include_in_schema=False)
async def render_unknown(type_name: str) -> None:
    raise unknown_type(type_name)
