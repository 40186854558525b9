"""The refusals in the OpenAPI schema: every route lists the statuses it may refuse with, each with
the app's one error shape ``{"error": {"code": CODE, "message": TEXT}}`` and the codes behind it.

A route declares them with ``responses=refusals(403, 404, ...)``; ``tests/test_server_schema.py``
checks with schemathesis that no route answers a status it does not declare.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from risk.server.errors import Refusal


class ErrorBody(BaseModel):
    code: str = Field(description="stable, for programs: bad-token, not-found, stale, ... (docs/web.md)")
    message: str = Field(min_length=1, description="for people: what was wrong")
    field: str | None = Field(
        None, description="a form's refused value: the field's name (bad-field, name-taken)"
    )


class ErrorOut(BaseModel):
    """Every refusal: nothing was changed."""

    error: ErrorBody


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that may refuse with these statuses, and 422: any request may be
    malformed (this also replaces FastAPI's own 422, whose shape the app does not use), 400: any
    request may name a host `risk serve` does not answer to (risk.server.hosts), and 413: any request's
    body may be larger than its path takes (risk.server.limits.BodyLimitMiddleware)."""
    answers: dict[int | str, dict[str, Any]] = {}
    for status in sorted({*statuses, 400, 413, 422}):
        codes = sorted(code for code, code_status in Refusal.STATUS.items() if code_status == status)
        answers[status] = {
            "model": ErrorOut,
            "description": "refused (" + ", ".join(codes) + "); nothing was changed",
        }
    return answers


# What a move may be refused with: no seat (403), no game (404), not now (409), not legal (422), too
# fast (429), the store down (503).
MOVE_REFUSALS = refusals(403, 404, 409, 422, 429, 503)

__all__ = ["MOVE_REFUSALS", "ErrorOut", "refusals"]
