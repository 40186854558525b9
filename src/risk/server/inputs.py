"""The numbers and move texts that enter the server, checked where they enter (docs/web.md, "Refusals").

Every whole number a request or a websocket message carries (state ids, seats, chat positions, the
moves to take back, ...) is a JSON integer, never ``true``, ``"3"`` nor ``3.0``, within the range of
the store's column it is compared with: the positions and seats are INTEGER columns, 32 bits on
PostgreSQL (at most 2**31 - 1, :data:`NUMBER_MAX`); a seed is a BIGINT (at most 2**63 - 1). A number
past that made the store fail (SQLite: an ``OverflowError``, an answer 500; PostgreSQL: "integer out
of range", 503). A move's text holds no control character. HTTP bodies check them with
:data:`WholeNumber`, :data:`MoveText` and :data:`OptionValue` (pydantic, so the OpenAPI schema says so
too); websocket messages with :func:`whole_number`, :func:`state_id_of` and :func:`move_text`. Either
way a bad one is refused as ``bad-request`` (422) before anything is read or stored.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from pydantic import AfterValidator, Field, PlainValidator, WithJsonSchema

from risk.server.errors import Refusal

NUMBER_MAX = 2**31 - 1  # the store's INTEGER columns (risk.server.sql): PostgreSQL's are 32 bits
SEED_MAX = 2**63 - 1  # the seed's BIGINT column

# A whole number from 0 to NUMBER_MAX in a JSON body (strict: no booleans, strings or floats).
WholeNumber = Annotated[int, Field(strict=True, ge=0, le=NUMBER_MAX)]
# (lt: the schema's bound is then 2**63, exact as the float JSON schemas hold; 2**63 - 1 is not.)
Seed = Annotated[int, Field(strict=True, ge=0, lt=SEED_MAX + 1)]


# The description of every move's state_id in a body (an action, a blitz, an undo).
STATE_ID = "the state_id of the state the move was chosen at: a move from an older state is refused (stale)"


def whole_number(value: Any, what: str, low: int = 0, high: int = NUMBER_MAX) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else refused, saying so."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refusal("bad-request", f"{what} is a whole number from {low} to {high}, not {_shown(value)}")
    return value


def state_id_of(message: dict[str, Any]) -> int:
    """The ``state_id`` a move message must carry: the stale-move check needs it."""
    if "state_id" not in message:
        raise Refusal(
            "bad-request",
            "the move has no 'state_id': send the state_id of the state message it was chosen at",
        )
    return whole_number(message["state_id"], "'state_id'")


def _option_value(value: Any) -> str | int:
    if isinstance(value, str) or (
        isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= NUMBER_MAX
    ):
        return value
    raise ValueError(f"a rule option's value is its text or a whole number from 0 to {NUMBER_MAX}")


# A rule option's value in a JSON body ("fortify": "chain", "army-cap": 12): one clear refusal, not
# one per kind of value it is not.
OptionValue = Annotated[
    str | int,
    PlainValidator(_option_value),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0, "maximum": NUMBER_MAX}]}),
]


def control_problem(text: str) -> str | None:
    """What is wrong with a move's text that holds a control or invisible formatting character (a
    NUL, a newline, a direction override...): refused, not cleaned, so what is stored is what was
    sent. None: nothing."""
    found = next((c for c in text if unicodedata.category(c) in ("Cc", "Cf")), None)
    return None if found is None else f"holds the control character U+{ord(found):04X}: send plain text"


def move_text(text: str, what: str) -> str:
    """``text`` if it holds no control character (a move is printable words); else refused."""
    problem = control_problem(text)
    if problem is not None:
        raise Refusal("bad-request", f"{what} {problem}")
    return text


def _plain(text: str) -> str:
    problem = control_problem(text)
    if problem is not None:
        raise ValueError(problem)  # pydantic's refusal: "action: Value error, holds ..."
    return text


# A move's text (or a territory's name) in a JSON body: no control character.
MoveText = Annotated[str, AfterValidator(_plain)]


def _shown(value: Any) -> str:
    """The refused value, short: a number of thousands of digits is not echoed in full."""
    try:
        shown = repr(value)
    except ValueError:  # an int past Python's 4,300-digit limit for text
        return "a number too long to show"
    return shown if len(shown) <= 40 else shown[:37] + "..."


__all__ = [
    "NUMBER_MAX",
    "SEED_MAX",
    "STATE_ID",
    "MoveText",
    "OptionValue",
    "Seed",
    "WholeNumber",
    "control_problem",
    "move_text",
    "state_id_of",
    "whole_number",
]
