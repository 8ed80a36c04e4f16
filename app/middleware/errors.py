"""Error responses: every failure is a clear 4xx or a 503 with Retry-After, never a bare 500."""

from __future__ import annotations

import logging
import math
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.work import Overloaded, WorkFailed
from generators.spec import PuzzleType

log = logging.getLogger("puzzlegen.errors")


def field_bounds(puzzle_type: PuzzleType | None, field: str) -> tuple[Any, Any] | None:
    """The (minimum, maximum) of a generation parameter of a type, if it has both."""
    info = puzzle_type.params_model.model_fields.get(field) if puzzle_type else None
    if info is None:
        return None
    low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
    high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
    return None if low is None or high is None else (low, high)


def _range_hint(error: dict[str, Any], puzzle_type: PuzzleType | None) -> dict[str, Any]:
    """FastAPI says `less than or equal to 30`; a person wants the whole allowed range."""
    ctx = error.get("ctx") or {}
    loc = error.get("loc") or ["?"]
    if loc[0] == "query" and error.get("type") in {"greater_than_equal", "less_than_equal"}:
        bounds = field_bounds(puzzle_type, str(loc[-1]))
        if bounds:
            error["msg"] = f"{loc[-1]} must be between {bounds[0]} and {bounds[1]} (got {error.get('input')})"
    if "ctx" in error:
        error["ctx"] = {k: (v if isinstance(v, (int, float, str, bool, type(None))) else str(v)) for k, v in ctx.items()}
    return error


ECHO_DEPTH = 6  # levels of a bad input echoed back; deeper ones (a body nested 900 deep) become "..."
ECHO_ITEMS = 50
ECHO_CHARS = 200  # of a bad string (a 1 MB `url` past its 4,000 characters is not sent back whole)


def echo(value: Any, depth: int = 0) -> Any:
    """The bad input as a 422 can send it back: JSON has no NaN or Infinity (Python's parser reads them),
    so they become strings; deep or long structures and long strings are cut, so the echo stays small and
    never recurses past the interpreter's limit. A lone surrogate (JSON's `"\\ud800"` reads as one) cannot
    be written as UTF-8: it is echoed as its escape."""
    if isinstance(value, str):
        cut = value if len(value) <= ECHO_CHARS else value[:ECHO_CHARS] + "…"
        return cut.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, (dict, list, tuple)) and depth >= ECHO_DEPTH:
        return "..."
    if isinstance(value, dict):
        return {echo(str(key)): echo(item, depth + 1) for key, item in list(value.items())[:ECHO_ITEMS]}
    if isinstance(value, (list, tuple)):
        return [echo(item, depth + 1) for item in value[:ECHO_ITEMS]] + (["..."] if len(value) > ECHO_ITEMS else [])
    return value


def validation_body(errors: list[dict[str, Any]], puzzle_type: PuzzleType | None = None) -> list[dict[str, Any]]:
    out = []
    for error in errors:
        error = dict(error)
        error.pop("url", None)
        if isinstance(error.get("input"), bytes):  # a raw body: say how it starts, not all of it
            error["input"] = error["input"][:200].decode("utf-8", "replace")
        if "input" in error:
            error["input"] = echo(error["input"])
        out.append(jsonable_encoder(_range_hint(error, puzzle_type)))
    return out


def _unparsed_body(error: dict[str, Any]) -> bool:
    """FastAPI parses only JSON bodies: any other Content-Type reaches validation as raw bytes."""
    return tuple(error.get("loc") or ()) == ("body",) and isinstance(error.get("input"), bytes)


def wrong_content_type(request: Request) -> JSONResponse:
    got = request.headers.get("content-type", "none")
    message = f"This route takes a JSON body: send it with Content-Type: application/json (got {got})."
    detail = [{"type": "content_type", "loc": ["header", "content-type"], "msg": message, "input": got}]
    return JSONResponse({"detail": detail}, status_code=415)


def service_unavailable(request: Request, message: str) -> JSONResponse:
    return JSONResponse(
        {"detail": message},
        status_code=503,
        headers={"Retry-After": str(request.app.state.settings.retry_after_seconds)},
    )


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = list(exc.errors())
        if any(_unparsed_body(error) for error in errors):
            return wrong_content_type(request)
        puzzle_type = getattr(request.scope.get("route"), "puzzle_type", None)  # set by routes.puzzles.type_router
        return JSONResponse({"detail": validation_body(errors, puzzle_type)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
            message = "The body is not valid JSON: send UTF-8 encoded JSON."
            return JSONResponse({"detail": [{"type": "json_invalid", "loc": ["body"], "msg": message}]}, status_code=422)
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Overloaded)
    async def _overloaded(request: Request, exc: Overloaded) -> JSONResponse:
        return service_unavailable(request, f"The service is busy ({exc}); retry shortly.")

    @app.exception_handler(WorkFailed)
    async def _work_failed(request: Request, exc: WorkFailed) -> JSONResponse:
        if exc.kind == "invalid":
            return JSONResponse(
                {
                    "detail": [{"type": "invalid_input", "loc": ["body"], "msg": exc.message}],
                    "violations": exc.violations,
                },
                status_code=422,
            )
        if exc.kind == "crashed":
            return service_unavailable(request, f"The work failed: {exc.message}. Retry shortly.")
        if exc.kind == "generation-failed":
            return service_unavailable(request, f"Could not generate a unique puzzle: {exc.message}. Try another seed.")
        return service_unavailable(request, f"The work did not finish within the time budget: {exc.message}.")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error; it has been logged"}, status_code=500)
