"""The catalogue of types (what a client can ask for) and liveness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.service import ServiceDep
from generators.registry import TYPES
from generators.spec import PuzzleType

router = APIRouter(tags=["catalogue"])


class ParamInfo(BaseModel):
    name: str
    type: str
    default: Any = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    choices: list[Any] | None = None
    description: str | None = None


class TechniqueInfo(BaseModel):
    name: str
    description: str


class LevelInfo(BaseModel):
    name: str
    techniques: list[TechniqueInfo] = Field(description="What this level adds to the easier levels' techniques.")


class TypeInfo(BaseModel):
    name: str
    summary: str
    params: list[ParamInfo]
    backends: list[str] = Field(description="What `backend` of a solve request may name; the first is the default.")
    catalogue: dict[str, Any] = {}
    difficulties: list[str] = Field(default_factory=list, description="Difficulty levels, easiest first (`difficulty`).")
    default_difficulty: str | None = None
    levels: list[LevelInfo] = Field(default_factory=list, description="Each level's techniques, easiest first.")


def describe_params(puzzle_type: PuzzleType) -> list[ParamInfo]:
    """Read parameters off the params model's JSON schema, so /types can never disagree with validation."""
    schema = puzzle_type.params_model.model_json_schema()
    out = []
    for name, prop in schema.get("properties", {}).items():
        options = prop.get("anyOf", [prop])
        kinds = [o.get("type") for o in options if o.get("type") and o.get("type") != "null"]
        choices = next((o["enum"] for o in options if "enum" in o), None)
        out.append(ParamInfo(
            name=name,
            type=kinds[0] if kinds else ("string" if choices else "any"),
            default=prop.get("default"),
            minimum=next((o["minimum"] for o in options if "minimum" in o), None),
            maximum=next((o["maximum"] for o in options if "maximum" in o), None),
            choices=choices,
            description=prop.get("description"),
        ))
    out.append(ParamInfo(name="seed", type="integer", minimum=0, maximum=2**63 - 1,
                         description="Same parameters and seed give the same puzzle; random when omitted."))
    return out


@router.get("/types", response_model=list[TypeInfo], summary="Every puzzle type with its parameters")
def list_types() -> list[TypeInfo]:
    return [
        TypeInfo(name=t.name, summary=t.summary, params=describe_params(t), backends=list(t.backends),
                 catalogue=t.catalogue, difficulties=t.difficulty.names if t.difficulty else [],
                 default_difficulty=t.difficulty.default if t.difficulty else None,
                 levels=[LevelInfo.model_validate(level) for level in t.difficulty.levels] if t.difficulty else [])
        for t in TYPES.values()
    ]


@router.get("/healthz", summary="Liveness")
async def healthz(service: ServiceDep) -> dict[str, Any]:
    return {"status": "ok", "jobs_in_flight": service.pool.in_flight, "job_limit": service.pool.pending_limit}
