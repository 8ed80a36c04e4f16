"""Generate, verify, solve and daily routes: one set per registered type, so the OpenAPI document
states each type's exact parameters, puzzle and answer shapes. Unknown types get a 404 that lists
the known ones."""


import json
import math
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from app.replay import allow_replay, max_age_until
from app.service import ServiceDep
from app.store import PuzzleRow
from app.work import WorkFailed
from generators.registry import TYPES
from generators.spec import PuzzleType
from solvers.common import InvalidInput, Violation
from solvers.sat import BACKENDS

MAX_SEED = 2**63 - 1
DAILY_HORIZON_DAYS = 366


class ErrorDetail(BaseModel):
    detail: str


ERRORS = {
    413: {"model": ErrorDetail, "description": "The request body is too large."},
    503: {"model": ErrorDetail, "description": "Over the time budget or too busy; see the Retry-After header."},
}
NOT_FOUND = {404: {"model": ErrorDetail, "description": "No stored puzzle with that id."}}


class StrictQuery(BaseModel):
    """Unknown query parameters are a 422, so a typo never silently falls back to a default."""

    model_config = ConfigDict(extra="forbid")


class VerifyResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    solved: bool = Field(description="True exactly when `violations` is empty.")
    violations: list[Violation]


class StoredVerifyRequest(BaseModel):
    answer: dict[str, Any] = Field(description="The answer in the stored puzzle's type's answer shape.")


class PuzzleRecord(BaseModel):
    id: str
    type: str
    params: dict[str, Any]
    puzzle: dict[str, Any]
    solution: dict[str, Any] | None = None
    stats: dict[str, Any] = Field(default_factory=dict, description="Generation work: repair rounds, restarts, time.")
    created_at: str


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def immutable_response(
    request: Request, etag: str, render: Callable[[], bytes], status: int = 200, until: float = math.inf
) -> Response:
    """Stored puzzles never change, so their id makes a strong ETag and caches may keep them (until the
    Unix time ``until`` where the same request means another puzzle later, as today's daily does), and
    the server may replay the response to the same GET until then (``app.replay``); ``render`` runs only
    when the client does not already hold this version."""
    allow_replay(request, until)
    headers = {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={max_age_until(until)}"}
    if status == 200 and headers["ETag"] in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(render(), status_code=status, headers=headers, media_type="application/json")


def record_response(
    request: Request, row: PuzzleRow, include_solution: bool = False, status: int = 200, until: float = math.inf
) -> Response:
    cache = request.app.state.service.cache
    etag = f"{row.id}-s" if include_solution else row.id
    return immutable_response(request, etag, lambda: cache.body(row, include_solution), status, until)


def unknown_type(name: str) -> HTTPException:
    return HTTPException(404, f"Unknown puzzle type {name!r}. Known types: {', '.join(TYPES)}.")


def invalid_answer(exc: ValidationError | InvalidInput, where: tuple[str, ...]) -> RequestValidationError:
    if isinstance(exc, ValidationError):
        return RequestValidationError(
            [{**e, "loc": (*where, *e["loc"])} for e in exc.errors(include_url=False)]
        )
    return RequestValidationError([{"type": "invalid_input", "loc": where, "msg": exc.message, "input": None}])


def type_router(puzzle_type: PuzzleType) -> APIRouter:
    name, title = puzzle_type.name, camel(puzzle_type.name)
    router = APIRouter(tags=[name], responses=ERRORS)
    params_fields = list(puzzle_type.params_model.model_fields)

    GenerateQuery = create_model(  # noqa: N806 - a class
        f"{title}GenerateQuery",
        __base__=(puzzle_type.params_model, StrictQuery),
        seed=(int | None, Field(None, ge=0, le=MAX_SEED, description="Same seed and parameters, same puzzle.")),
        include_solution=(bool, Field(False, description="Add the solution to the record.")),
    )
    DailyQuery = create_model(  # noqa: N806
        f"{title}DailyQuery",
        __base__=(puzzle_type.params_model, StrictQuery),
        date=(date | None, Field(None, description="The day (UTC); today when omitted.")),
    )
    Record = create_model(  # noqa: N806
        f"{title}Record",
        __base__=PuzzleRecord,
        puzzle=(puzzle_type.puzzle_model, ...),
        solution=(puzzle_type.answer_model | None, None),
    )
    VerifyRequest = create_model(  # noqa: N806
        f"{title}VerifyRequest", puzzle=(puzzle_type.puzzle_model, ...), answer=(puzzle_type.answer_model, ...)
    )
    solve_fields: dict[str, Any] = {
        "puzzle": (puzzle_type.puzzle_model, ...),
        "max_solutions": (int, Field(2, ge=1, le=100, description="Return at most this many solutions.")),
        "backend": (Literal[BACKENDS] | None, Field(None, description="SAT backend; the type's fastest by default.")),
    }
    solve_extra: dict[str, Any] | None = None
    if puzzle_type.parse_text is not None:  # the puzzle may come as text instead (JSON `csv` or a text/csv body)
        solve_fields["puzzle"] = (puzzle_type.puzzle_model | None, Field(None, description="The puzzle as JSON, or give `csv`."))
        solve_fields["csv"] = (str | None, Field(None, description="The puzzle as CSV text, instead of `puzzle`."))
        solve_extra = {"requestBody": {"content": {"text/csv": {"schema": {"type": "string"}}}}}
    SolveRequest = create_model(f"{title}SolveRequest", **solve_fields)  # noqa: N806
    SolveResult = create_model(  # noqa: N806
        f"{title}SolveResult",
        __config__=ConfigDict(extra="allow"),
        status=(Literal["none", "unique", "multiple"], ...),
        solutions=(list[puzzle_type.answer_model], ...),
        count=(int, Field(description="How many solutions the search found (it looks for at least two).")),
        complete=(bool, Field(description="True when the search proved there are no more solutions.")),
    )

    @router.post(f"/generate/{name}", status_code=201, response_model=Record, summary=f"Generate a {name} puzzle")
    async def generate(query: Annotated[GenerateQuery, Query()], service: ServiceDep, request: Request) -> Response:
        params = query.model_dump(include=set(params_fields), exclude_none=True)
        try:
            row = await service.generate(puzzle_type, params, query.seed)
        except WorkFailed as exc:
            if exc.kind != "invalid":
                raise
            problem = {"type": "value_error", "loc": ("query",), "msg": exc.message, "input": params}
            raise RequestValidationError([problem]) from None
        return record_response(request, row, query.include_solution, status=201)

    @router.get(f"/daily/{name}", response_model=Record, summary=f"The {name} puzzle of the day")
    async def daily(query: Annotated[DailyQuery, Query()], service: ServiceDep, request: Request) -> Response:
        today = datetime.now(UTC).date()
        day = query.date or today
        if not date(2000, 1, 1) <= day <= today + timedelta(days=DAILY_HORIZON_DAYS):
            latest = today + timedelta(days=DAILY_HORIZON_DAYS)
            message = f"date must be between 2000-01-01 and {latest} (got {day})"
            raise RequestValidationError([{"type": "value_error", "loc": ("query", "date"), "msg": message, "input": str(day)}])
        row = await service.daily(puzzle_type, query.model_dump(include=set(params_fields), exclude_none=True), day)
        if query.date is None:  # "today" moves on at midnight UTC: no cache may keep it past then
            midnight = datetime.combine(today + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
            return record_response(request, row, until=midnight.timestamp())
        return record_response(request, row)

    @router.post(f"/verify/{name}", response_model=VerifyResult, summary=f"Check an answer to a {name} puzzle")
    async def verify(body: VerifyRequest, service: ServiceDep) -> dict[str, Any]:
        return await service.verify(puzzle_type, body.puzzle.model_dump(mode="json"), body.answer.model_dump(mode="json"))

    @router.post(f"/solve/{name}", response_model=SolveResult, summary=f"Solve a {name} puzzle", openapi_extra=solve_extra)
    async def solve(body: SolveRequest, service: ServiceDep) -> JSONResponse:
        puzzle = text_or_json_puzzle(puzzle_type, body)
        result = await service.solve(puzzle_type, puzzle.model_dump(mode="json"), body.max_solutions, body.backend)
        return JSONResponse(result)

    return router


def text_or_json_puzzle(puzzle_type: PuzzleType, body: BaseModel) -> BaseModel:
    """The puzzle of a solve request: JSON `puzzle`, or text in the type's own format (`csv`)."""
    text = getattr(body, "csv", None)
    given = [field for field in ("puzzle", "csv") if getattr(body, field, None) is not None]
    if len(given) != 1:
        message = "give the puzzle either as `puzzle` (JSON) or as `csv` (text), exactly one of them"
        raise RequestValidationError([{"type": "value_error", "loc": ("body",), "msg": message, "input": None}])
    if text is None:
        return body.puzzle  # type: ignore[attr-defined]
    try:
        return puzzle_type.parse_text(text)  # type: ignore[misc]
    except InvalidInput as exc:
        raise invalid_answer(exc, ("body", "csv")) from None
    except ValidationError as exc:
        raise invalid_answer(exc, ("body", "csv")) from None


stored_router = APIRouter(tags=["stored puzzles"], responses={**ERRORS, **NOT_FOUND})


async def _stored_row(service: ServiceDep, puzzle_id: str) -> PuzzleRow:
    row = await service.stored(puzzle_id) if len(puzzle_id) <= 64 else None
    if row is None:
        raise HTTPException(404, f"No stored puzzle with id {puzzle_id!r}.")
    return row


@stored_router.get("/puzzles/{puzzle_id}", response_model=PuzzleRecord, summary="A stored puzzle (no solution)")
async def get_puzzle(puzzle_id: str, service: ServiceDep, request: Request) -> Response:
    return record_response(request, await _stored_row(service, puzzle_id))


@stored_router.get("/puzzles/{puzzle_id}/solution", summary="The solution of a stored puzzle")
async def get_solution(puzzle_id: str, service: ServiceDep, request: Request) -> Response:
    row = await _stored_row(service, puzzle_id)

    def render() -> bytes:
        return json.dumps(row.solution, separators=(",", ":")).encode()

    return immutable_response(request, f"{row.id}-solution", render)


@stored_router.post("/puzzles/{puzzle_id}/verify", response_model=VerifyResult, summary="Check an answer to a stored puzzle")
async def verify_stored(puzzle_id: str, body: StoredVerifyRequest, service: ServiceDep) -> dict[str, Any]:
    row = await _stored_row(service, puzzle_id)
    puzzle_type = TYPES[row.type]
    try:
        answer = puzzle_type.answer_model.model_validate(body.answer)
    except ValidationError as exc:
        raise invalid_answer(exc, ("body", "answer")) from None
    return await service.verify(puzzle_type, row.puzzle, answer.model_dump(mode="json"))


unknown_router = APIRouter(include_in_schema=False)


@unknown_router.api_route("/generate/{type_name}", methods=["POST"])
@unknown_router.api_route("/verify/{type_name}", methods=["POST"])
@unknown_router.api_route("/solve/{type_name}", methods=["POST"])
@unknown_router.api_route("/daily/{type_name}", methods=["GET"])
async def unknown(type_name: str) -> None:
    raise unknown_type(type_name)

