"""Generate, verify, solve and daily routes: one set per registered type, so the OpenAPI document
states each type's exact parameters, puzzle and answer shapes. Unknown types get a 404 that lists
the known ones."""


import json
import math
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from starlette.concurrency import run_in_threadpool

from app.middleware.replay import allow_replay, max_age_until
from app.ratings import MAX_SECONDS, RECORD_MAX_AGE_SECONDS, PlayerToken
from app.service import PuzzleService, ServiceDep
from app.store import PuzzleRecord, PuzzleRow
from app.work import WorkFailed
from generators.registry import TYPES
from generators.spec import PuzzleType
from solvers.common import InvalidInput, Violation

MAX_SEED = 2**63 - 1
MAX_SOLUTIONS = 100
DEFAULT_COUNT_LIMIT = 1_000
MAX_COUNT_LIMIT = 100_000
DAILY_HORIZON_DAYS = 366


class ErrorDetail(BaseModel):
    detail: str


ERRORS = {
    401: {"model": ErrorDetail, "description": "Unknown X-API-Key."},
    413: {"model": ErrorDetail, "description": "The request body is too large."},
    429: {"model": ErrorDetail, "description": "Past this client's budget; see Retry-After and the RateLimit-* headers."},
    503: {"model": ErrorDetail, "description": "Over the time budget or too busy; see the Retry-After header."},
}
NOT_FOUND = {404: {"model": ErrorDetail, "description": "No stored puzzle with that id."}}


class StrictQuery(BaseModel):
    """Unknown query parameters are a 422, so a typo never silently falls back to a default."""

    model_config = ConfigDict(extra="forbid")


def single_query_values(request: Request) -> None:
    """A repeated query parameter (`?size=6&size=7`) is a 422: taking either value silently would hide a mistake."""
    names = [name for name, _ in request.query_params.multi_items()]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise RequestValidationError([
            {"type": "repeated_parameter", "loc": ("query", name), "input": request.query_params.getlist(name),
             "msg": f"give `{name}` once (it was given {names.count(name)} times)"}
            for name in repeated
        ])


class VerifyResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    solved: bool = Field(description="True exactly when `violations` is empty.")
    violations: list[Violation]


class GameOutcome(BaseModel):
    """What a check from a player did to the ratings (``app/ratings.py`` holds the rules)."""

    rated: bool = Field(description="True when this check settled the player's game against the puzzle: their first "
                                    "check of a puzzle they fetched with their token.")
    reason: str | None = Field(None, description="Why it was not rated.")
    first_try: bool = Field(description="This was the token's first check of this puzzle.")
    result: Literal["win", "loss"] | None = Field(None, description="A win: solved at the first check, no hint before.")
    hints: int | None = Field(None, description="Hints the player asked before this check.")
    player: dict[str, Any] | None = Field(None, description="The player's rating in this type after the game.")
    puzzle: dict[str, Any] | None = Field(None, description="The puzzle's rating and deviation after the game.")


class StoredVerifyResult(VerifyResult):
    game: GameOutcome | None = Field(None, description="Present when the check carried a `player` token.")


class StoredVerifyRequest(BaseModel):
    answer: dict[str, Any] = Field(description="The answer in the stored puzzle's type's answer shape.")
    first_try: bool = Field(False, description="This player's first check of this puzzle (the client counts): feeds "
                                               "the puzzle's first-try solve rate. With `player` the service knows "
                                               "which check is the first, and this is ignored.")
    player: PlayerToken | None = None
    seconds: float | None = Field(None, ge=0, le=MAX_SECONDS, description=(
        "Seconds the player spent on the puzzle up to this check, as the app measured it (0 to a week): kept with "
        "the player's first check, for the puzzle's median solving time."))


class StoredHintRequest(BaseModel):
    state: dict[str, Any] | None = Field(None, description=(
        "The player's partial answer: the type's answer shape with null for undecided cells (see the type's hint "
        "route for its exact shape). Left out, null, or its field null: nothing decided yet."))
    player: PlayerToken | None = Field(None, description="The player asking: a hint before their first check "
                                                         "makes that game a loss.")


class DifficultyGrade(BaseModel):
    level: str | None = Field(description="The simplest level whose techniques solve it; null: none does "
                                          "without guessing (or it is not unique).")
    score: float = Field(description="Effort over the whole solution path; orders puzzles within a level.")
    steps: int = Field(description="Deduction steps on the solution path.")
    hardest: str | None = Field(description="The hardest technique the path needs.")


class GradeResult(DifficultyGrade):
    status: Literal["none", "unique", "multiple"]


class HintDecision(BaseModel):
    model_config = ConfigDict(extra="allow")
    cell: list[int] | None = Field(None, description="[row, col] of a decided cell (grid types).")
    value: int | None = Field(None, description="Its value: 1 filled (shaded / ship / selected), 0 empty.")


class HintResult(BaseModel):
    technique: str = Field(description="The technique of this step, `mistakes` when the state has wrong cells, "
                                       "`solved`, or `reveal` where no technique finds the next step.")
    message: str = Field(description="A sentence for the player; rows and columns counted from 1.")
    decide: list[HintDecision] = Field(description="What follows (cells and values; an Ubongo placement).")
    because: list[list[int]] = Field(description="[row, col] cells that justify it.")
    mistakes: list[list[int]] = Field(description="[row, col] cells of the state that disagree with the solution.")


class Plays(BaseModel):
    attempts: int = Field(description="Answers players checked through POST /puzzles/{id}/verify.")
    solves: int
    first_tries: int = Field(description="Players' first checks (a token's first, or marked `first_try`).")
    first_try_solves: int
    first_try_solve_rate: float | None = Field(description="first_try_solves / first_tries; null before any.")
    rating: float | None = Field(description="The puzzle's Glicko-2 rating (its grade's prior before any game).")
    rd: float | None = Field(description="The rating's deviation.")
    games: int = Field(description="Rated games: players' first checks of it after fetching it.")
    median_seconds: float | None = Field(description="Median `seconds` of players' solved first checks; null before any.")


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def immutable_response(
    request: Request, etag: str, render: Callable[[], bytes], status: int = 200, until: float = math.inf,
    media_type: str = "application/json", shared: bool = True,
) -> Response:
    """Stored puzzles never change, so their id makes a strong ETag and caches may keep them (until the
    Unix time ``until`` where the same request means another puzzle later, as today's daily does), and
    the server may replay the response to the same GET until then (``app.middleware.replay``); ``render`` runs only
    when the client does not already hold this version. A response that is not ``shared`` (a player's
    fetch, which the service must see to rate that player's game) is neither replayed nor cached."""
    if shared:
        allow_replay(request, until)
    control = f"public, max-age={max_age_until(until)}" if shared else "private, no-store"
    headers = {"ETag": f'"{etag}"', "Cache-Control": control}
    if status == 200 and headers["ETag"] in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(render(), status_code=status, headers=headers, media_type=media_type)


_daily_queries: dict[str, type[BaseModel]] = {}


def daily_query(puzzle_type: PuzzleType) -> type[BaseModel]:
    """The query of everything that shows a type's daily puzzle (its record, picture and play page): the
    type's parameters and a date. One class per type, so each route reads the same query the same way."""
    if puzzle_type.name not in _daily_queries:
        _daily_queries[puzzle_type.name] = create_model(
            f"{camel(puzzle_type.name)}DailyQuery",
            __base__=(puzzle_type.params_model, StrictQuery),
            date=(date | None, Field(None, description="The day (UTC); today when omitted.")),
        )
    return _daily_queries[puzzle_type.name]


def daily_date(asked: date | None) -> date:
    """The day a daily is asked for: today (UTC) when not given; a 422 outside the days served."""
    today = datetime.now(UTC).date()
    day = asked or today
    if not date(2000, 1, 1) <= day <= today + timedelta(days=DAILY_HORIZON_DAYS):
        latest = today + timedelta(days=DAILY_HORIZON_DAYS)
        message = f"date must be between 2000-01-01 and {latest} (got {day})"
        raise RequestValidationError([{"type": "value_error", "loc": ("query", "date"), "msg": message, "input": str(day)}])
    return day


async def daily_row(service: PuzzleService, puzzle_type: PuzzleType, query: BaseModel) -> tuple[PuzzleRow, float]:
    """The daily puzzle a ``daily_query`` asks for (generated and stored on its first request), and until
    when a response showing it stays right: today's without `date` moves on at midnight UTC, so no cache
    may keep it past then."""
    day = daily_date(query.date)  # type: ignore[attr-defined]
    params = puzzle_type.params_model.model_construct(**{f: getattr(query, f) for f in puzzle_type.params_model.model_fields})
    row = await service.daily(puzzle_type, params, day)
    if query.date is not None:  # type: ignore[attr-defined]
        return row, math.inf
    return row, datetime.combine(day + timedelta(days=1), datetime.min.time(), tzinfo=UTC).timestamp()


def record_response(
    request: Request, row: PuzzleRow, include_solution: bool = False, status: int = 200, until: float = math.inf,
    shared: bool = True,
) -> Response:
    """A record carries the puzzle's rating, which moves as people play it: its ETag names the rated games
    counted, and caches and replays keep it at most ``RECORD_MAX_AGE_SECONDS``."""
    cache = request.app.state.service.cache
    etag = f"{row.id}-g{row.games}" + ("-s" if include_solution else "")
    until = min(until, time.time() + RECORD_MAX_AGE_SECONDS)
    return immutable_response(request, etag, lambda: cache.body(row, include_solution), status, until, shared=shared)


def unknown_type(name: str) -> HTTPException:
    return HTTPException(404, f"Unknown puzzle type {name!r}. Known types: {', '.join(TYPES)}.")


def invalid_answer(exc: ValidationError | InvalidInput, where: tuple[str, ...]) -> RequestValidationError:
    if isinstance(exc, ValidationError):
        return RequestValidationError(
            [{**e, "loc": (*where, *e["loc"])} for e in exc.errors(include_url=False)]
        )
    return RequestValidationError([{"type": "invalid_input", "loc": where, "msg": exc.message, "input": None}])


_ROUTERS: dict[str, tuple[PuzzleType, APIRouter]] = {}


def type_router(puzzle_type: PuzzleType) -> APIRouter:
    """A type's routes, built once per process and shared by every app in it: their models and endpoints depend
    on the type alone, and building them (pydantic schemas for about 130 routes) is most of an app's start."""
    built = _ROUTERS.get(puzzle_type.name)
    if built is None or built[0] is not puzzle_type:
        built = _ROUTERS[puzzle_type.name] = (puzzle_type, build_type_router(puzzle_type))
    return built[1]


def build_type_router(puzzle_type: PuzzleType) -> APIRouter:
    name, title = puzzle_type.name, camel(puzzle_type.name)
    router = APIRouter(tags=[name], responses=ERRORS)
    params_fields = set(puzzle_type.params_model.model_fields)

    def params_of(query: BaseModel) -> BaseModel:
        """The type's own params model from a validated query (which subclasses it): nothing to validate again."""
        return puzzle_type.params_model.model_construct(**{f: getattr(query, f) for f in params_fields})

    GenerateQuery = create_model(  # noqa: N806 - a class
        f"{title}GenerateQuery",
        __base__=(puzzle_type.params_model, StrictQuery),
        seed=(int | None, Field(None, ge=0, le=MAX_SEED, description="Same seed and parameters, same puzzle.")),
        include_solution=(bool, Field(False, description="Add the solution to the record.")),
    )
    DailyQuery = create_model(  # noqa: N806
        f"{title}DailyRecordQuery",
        __base__=daily_query(puzzle_type),
        player=(PlayerToken | None, Field(None, description="The player fetching it: their first check of it is a rated game.")),
    )
    Record = create_model(  # noqa: N806
        f"{title}Record",
        __base__=PuzzleRecord,
        puzzle=(puzzle_type.puzzle_model, ...),
        solution=(puzzle_type.answer_model | None, None),
        difficulty=(DifficultyGrade | None, Field(None, description="How hard it is for a person (types with levels).")),
    )
    VerifyRequest = create_model(  # noqa: N806
        f"{title}VerifyRequest", puzzle=(puzzle_type.puzzle_model, ...), answer=(puzzle_type.answer_model, ...)
    )
    backends = puzzle_type.backends
    solve_fields: dict[str, Any] = {
        **puzzle_input_fields(puzzle_type),
        "max_solutions": (int, Field(2, ge=1, le=MAX_SOLUTIONS, description="Return at most this many solutions.")),
        "count_limit": (int, Field(DEFAULT_COUNT_LIMIT, ge=1, le=MAX_COUNT_LIMIT, description=(
            "Count solutions up to this many (at least `max_solutions`); `complete` says the count is exact."))),
        "backend": (Literal[backends] | None, Field(None, description=(  # type: ignore[valid-type]
            f"How to solve: {', '.join(backends)}; `{backends[0]}` when omitted."))),
    }
    solve_extra: dict[str, Any] | None = None
    if puzzle_type.parse_text is not None:  # a text body is read as the text field (app.main.TextPuzzleBodies)
        solve_extra = {"requestBody": {"content": {f"text/{puzzle_type.text_format}": {"schema": {"type": "string"}}}}}
    SolveRequest = create_model(f"{title}SolveRequest", **solve_fields)  # noqa: N806
    SolveResult = create_model(  # noqa: N806
        f"{title}SolveResult",
        __config__=ConfigDict(extra="allow"),
        status=(Literal["none", "unique", "multiple"], ...),
        solutions=(list[puzzle_type.answer_model], ...),
        count=(int, Field(description="How many solutions the search counted (up to `count_limit`, at least two).")),
        complete=(bool, Field(description="True when the search proved there are no more: `count` is exact.")),
    )

    @router.post(f"/generate/{name}", status_code=201, response_model=Record, summary=f"Generate a {name} puzzle",
                 responses={200: {"model": Record, "description": "Stored already (same parameters and seed), or a "
                                  "ready pre-generated puzzle."}})
    async def generate(query: Annotated[GenerateQuery, Query()], service: ServiceDep, request: Request) -> Response:
        try:
            row, created = await service.generate(puzzle_type, params_of(query), query.seed)
        except WorkFailed as exc:
            if exc.kind != "invalid":
                raise
            problem = {"type": "value_error", "loc": ("query",), "msg": exc.message, "input": None}
            raise RequestValidationError([problem]) from None
        return record_response(request, row, query.include_solution, status=201 if created else 200)

    @router.get(f"/daily/{name}", response_model=Record, summary=f"The {name} puzzle of the day")
    async def daily(query: Annotated[DailyQuery, Query()], service: ServiceDep, request: Request) -> Response:
        row, until = await daily_row(service, puzzle_type, query)
        if query.player is not None:
            await service.fetched(query.player, row)
        return record_response(request, row, until=until, shared=query.player is None)

    @router.post(f"/verify/{name}", response_model=VerifyResult, summary=f"Check an answer to a {name} puzzle")
    async def verify(body: VerifyRequest, service: ServiceDep) -> dict[str, Any]:
        return await service.verify(puzzle_type, body.puzzle, body.answer)

    if puzzle_type.difficulty is not None:
        add_difficulty_routes(router, puzzle_type, title)

    @router.post(f"/solve/{name}", response_model=SolveResult, summary=f"Solve a {name} puzzle", openapi_extra=solve_extra)
    async def solve(body: SolveRequest, service: ServiceDep) -> JSONResponse:
        puzzle = text_or_json_puzzle(puzzle_type, body)
        result = await service.solve(puzzle_type, puzzle, body.max_solutions, body.count_limit, body.backend)
        return JSONResponse(result)

    for route in router.routes:  # error handlers find the type here, not in the URL
        route.puzzle_type = puzzle_type  # type: ignore[attr-defined]
    return router


def add_difficulty_routes(router: APIRouter, puzzle_type: PuzzleType, title: str) -> None:
    name, difficulty = puzzle_type.name, puzzle_type.difficulty
    assert difficulty is not None
    GradeRequest = create_model(f"{title}GradeRequest", **puzzle_input_fields(puzzle_type))  # noqa: N806
    HintRequest = create_model(  # noqa: N806
        f"{title}HintRequest", puzzle=(puzzle_type.puzzle_model, ...),
        state=(difficulty.state_model | None, Field(None, description=(
            "The player's partial answer (null: undecided). Left out, null, or its field null: nothing decided yet."))),
    )

    @router.post(f"/grade/{name}", response_model=GradeResult, summary=f"How hard a {name} puzzle is for a person")
    async def grade(body: GradeRequest, service: ServiceDep) -> dict[str, Any]:  # type: ignore[valid-type]
        puzzle = text_or_json_puzzle(puzzle_type, body)  # JSON, or the type's text / puzz.link form
        return await service.grade(puzzle_type, puzzle)

    @router.post(f"/hint/{name}", response_model=HintResult, summary=f"The next step in a {name} puzzle")
    async def hint(body: HintRequest, service: ServiceDep) -> dict[str, Any]:  # type: ignore[valid-type]
        state = difficulty.read_state(body.state)  # type: ignore[attr-defined]
        return await service.hint(puzzle_type, body.puzzle, state)  # type: ignore[attr-defined]


def puzzle_input_fields(puzzle_type: PuzzleType) -> dict[str, Any]:
    """The request fields that carry a puzzle: JSON `puzzle`, or instead the type's text format (e.g.
    `csv`) or a puzz.link `url` where the type reads those. ``text_or_json_puzzle`` reads them back."""
    text = puzzle_type.text_format
    others = [name for name, parse in ((text, puzzle_type.parse_text), ("url", puzzle_type.parse_url),
                                       ("tatham", puzzle_type.parse_tatham)) if parse]
    if not others:
        return {"puzzle": (puzzle_type.puzzle_model, ...)}
    alternatives = " or ".join(f"`{name}`" for name in others)
    fields: dict[str, Any] = {
        "puzzle": (puzzle_type.puzzle_model | None, Field(None, description=f"JSON, or give {alternatives}."))
    }
    if puzzle_type.parse_text is not None:
        fields[text] = (str | None, Field(None, description=f"The puzzle as {text} text, not `puzzle`."))
    if puzzle_type.parse_url is not None:
        fields["url"] = (str | None, Field(None, max_length=4000, description="A puzz.link URL, not `puzzle`."))
    if puzzle_type.parse_tatham is not None:
        fields["tatham"] = (str | None, Field(None, max_length=4000, description="Simon Tatham's game ID (what his "
                                                                                 "`--generate` prints), not `puzzle`."))
    return fields


def text_or_json_puzzle(puzzle_type: PuzzleType, body: BaseModel) -> BaseModel:
    """The puzzle of a request: JSON `puzzle`, or the type's text format, a puzz.link `url` or a Tatham game ID."""
    parsers = {puzzle_type.text_format: puzzle_type.parse_text, "url": puzzle_type.parse_url,
               "tatham": puzzle_type.parse_tatham}
    forms = ["puzzle", *(name for name, parse in parsers.items() if parse is not None)]
    given = [field for field in forms if getattr(body, field, None) is not None]
    if len(given) != 1:
        message = f"give the puzzle as exactly one of {', '.join(f'`{name}`' for name in forms)}"
        raise RequestValidationError([{"type": "value_error", "loc": ("body",), "msg": message, "input": None}])
    if given[0] == "puzzle":
        return body.puzzle  # type: ignore[attr-defined]
    try:
        return parsers[given[0]](getattr(body, given[0]))  # type: ignore[misc]
    except (InvalidInput, ValidationError) as exc:
        raise invalid_answer(exc, ("body", given[0])) from None


stored_router = APIRouter(tags=["stored puzzles"], responses={**ERRORS, **NOT_FOUND})


async def _stored_row(service: ServiceDep, puzzle_id: str) -> PuzzleRow:
    row = await service.stored(puzzle_id) if len(puzzle_id) <= 64 else None
    if row is None:
        raise HTTPException(404, f"No stored puzzle with id {puzzle_id!r}.")
    return row


class StoredRecord(PuzzleRecord):
    difficulty: DifficultyGrade | None = Field(None, description="How hard it is for a person (types with levels).")


PUZZLINK_TYPES = ", ".join(t.name for t in TYPES.values() if t.to_url is not None)
TATHAM_TYPES = ", ".join(t.name for t in TYPES.values() if t.to_tatham is not None)


class PuzzlinkLink(BaseModel):
    url: str = Field(description="The puzzle on puzz.link (pzprjs), where people play and share it.")


class TathamGameId(BaseModel):
    tatham: str = Field(description="The puzzle as Simon Tatham's game ID, which his programs read.")


def exported(puzzle_type: PuzzleType, output: str) -> tuple[str, Callable[[Any], str] | None]:
    """The field and the writer of a stored puzzle's other format: puz.link's URL or Tatham's game ID."""
    return ("url", puzzle_type.to_url) if output == "puzzlink" else ("tatham", puzzle_type.to_tatham)


@stored_router.get("/puzzles/{puzzle_id}", response_model=StoredRecord | PuzzlinkLink | TathamGameId,
                   summary="A stored puzzle (no solution)")
async def get_puzzle(
    puzzle_id: str, service: ServiceDep, request: Request,
    output: Annotated[
        Literal["json", "puzzlink", "tatham"],
        Query(alias="format", description=f"`puzzlink`: `{{\"url\": ...}}` ({PUZZLINK_TYPES}); `tatham`: "
                                          f"`{{\"tatham\": ...}}` ({TATHAM_TYPES})")
    ] = "json",
    player: Annotated[PlayerToken | None, Query(description="The player fetching it: their first check of it is a "
                                                            "rated game.")] = None,
) -> Response:
    row = await _stored_row(service, puzzle_id)
    if player is not None:
        await service.fetched(player, row)
    if output == "json":
        return record_response(request, row, shared=player is None)
    field, write = exported(TYPES[row.type], output)
    if write is None:
        known = [t.name for t in TYPES.values() if exported(t, output)[1] is not None]
        message = f"format={output} is available for {', '.join(known)} puzzles, not {row.type}"
        raise RequestValidationError([{"type": "value_error", "loc": ("query", "format"), "msg": message, "input": output}])
    puzzle = TYPES[row.type].puzzle_model.model_validate(row.puzzle)
    try:  # a format may not hold every puzzle of its type (one that cannot leave a clue out)
        text = write(puzzle)
    except InvalidInput as exc:
        raise RequestValidationError([{"type": "value_error", "loc": ("query", "format"), "msg": str(exc),
                                       "input": output}]) from None
    return immutable_response(request, f"{row.id}-{output}", lambda: json.dumps({field: text}).encode(),
                              shared=player is None)


@stored_router.get("/puzzles/{puzzle_id}/solution", summary="The solution of a stored puzzle")
async def get_solution(puzzle_id: str, service: ServiceDep, request: Request) -> Response:
    row = await _stored_row(service, puzzle_id)

    def render() -> bytes:
        return json.dumps(row.solution, separators=(",", ":")).encode()

    return immutable_response(request, f"{row.id}-solution", render)


@stored_router.post("/puzzles/{puzzle_id}/verify", response_model=StoredVerifyResult, response_model_exclude_unset=True,
                    summary="Check an answer to a stored puzzle (with `player`: a rated game)")
async def verify_stored(puzzle_id: str, body: StoredVerifyRequest, service: ServiceDep) -> dict[str, Any]:
    row = await _stored_row(service, puzzle_id)
    puzzle_type = TYPES[row.type]
    try:
        answer = puzzle_type.answer_model.model_validate(body.answer)
    except ValidationError as exc:
        raise invalid_answer(exc, ("body", "answer")) from None
    result = await service.verify(puzzle_type, puzzle_type.puzzle_model.model_validate(row.puzzle), answer)
    if body.player is None:
        await service.record_attempt(row.id, result["solved"], body.first_try)
        return result
    return {**result, "game": await service.play(row, result["solved"], body.player, body.seconds)}


@stored_router.post("/puzzles/{puzzle_id}/hint", response_model=HintResult, summary="The next step in a stored puzzle")
async def hint_stored(puzzle_id: str, body: StoredHintRequest, service: ServiceDep) -> dict[str, Any]:
    row = await _stored_row(service, puzzle_id)
    puzzle_type = TYPES[row.type]
    if puzzle_type.difficulty is None:
        raise HTTPException(404, f"{row.type} puzzles have no hints yet.")
    try:
        sent = None if body.state is None else puzzle_type.difficulty.state_model.model_validate(body.state)
    except ValidationError as exc:
        raise invalid_answer(exc, ("body", "state")) from None
    state = puzzle_type.difficulty.read_state(sent)
    puzzle, solution = puzzle_type.puzzle_model.model_validate(row.puzzle), puzzle_type.answer_model.model_validate(row.solution)
    hint = await service.hint(puzzle_type, puzzle, state, solution)
    if body.player is not None:  # counted once the hint is given: a refused or failed one helped nobody
        await service.hinted(body.player, row)
    return hint


@stored_router.get("/puzzles/{puzzle_id}/plays", response_model=Plays, summary="Players' checks of a stored puzzle")
async def plays(puzzle_id: str, service: ServiceDep) -> dict[str, Any]:
    await _stored_row(service, puzzle_id)
    counts = await run_in_threadpool(service.store.puzzle_stats, puzzle_id)
    if counts is None:  # pruned since it was cached
        raise HTTPException(404, f"No stored puzzle with id {puzzle_id!r}.")
    tries = counts["first_tries"]
    return {**counts, "first_try_solve_rate": counts["first_try_solves"] / tries if tries else None,
            "rating": None if counts["rating"] is None else round(counts["rating"], 1),
            "rd": None if counts["rd"] is None else round(counts["rd"], 1)}


@stored_router.get("/plays", summary="Players' checks, mean puzzle rating and median solving time per type and level")
async def plays_by_level(service: ServiceDep) -> list[dict[str, Any]]:
    return await run_in_threadpool(service.store.plays_by_level)


unknown_router = APIRouter(include_in_schema=False)


@unknown_router.api_route("/generate/{type_name}", methods=["POST"])
@unknown_router.api_route("/verify/{type_name}", methods=["POST"])
@unknown_router.api_route("/solve/{type_name}", methods=["POST"])
@unknown_router.api_route("/daily/{type_name}", methods=["GET"])
@unknown_router.api_route("/grade/{type_name}", methods=["POST"])
@unknown_router.api_route("/hint/{type_name}", methods=["POST"])
async def unknown(type_name: str) -> None:
    raise unknown_type(type_name)

