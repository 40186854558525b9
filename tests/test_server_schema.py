"""Schemathesis against the app's OpenAPI schema: every route, valid and invalid requests alike.

No answer is a server error, every status answered is one the route documents (with the schema of
its body), and every refusal has the app's one error shape ``{"error": {"code", "message"}}``.
Requests go to the app in-process (schemathesis' ASGI client, one event loop for the whole run, so
the games' bots play on between calls). Path parameters and the bearer token are sometimes swapped
for a real game's id and a real seat's token (a waiting game, one being played, a finished one), so
the routes are exercised past "no such game".
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from played import human_game, play_moves
from risk.server.app import create_app
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.storage import MemoryStorage

EXAMPLES = 150  # per route (13 routes): about a minute on this machine, shrinking included
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


APP = create_app(MemoryStorage())
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@functools.cache
def known() -> dict[str, list[str]]:
    """Real games to aim at (made when first asked for, not when the tests are collected): one
    waiting for a player, one being played, one over; and their seats' tokens."""
    master: GameMaster = APP.state.master
    record, seats = master.create_game(
        GameSpec(seats=[SeatSpec("human", "Ann"), SeatSpec("open"), SeatSpec("human", "Bob")], seed=1)
    )
    playing, playing_tokens = human_game(master, ["Cy", "Dee", "Eve"], seed=2)
    play_moves(master, playing, 60)
    over, over_tokens = human_game(master, ["Fay", "Gus", "Hal"], seed=3)
    play_moves(master, over)
    return {
        "record": [master.record_text(over, over_tokens[0])],
        "games": [record.id, playing, over],
        "tokens": [*(s.token for s in seats if s.token), *playing_tokens, *over_tokens],
    }


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    if not path_parameters or "game_id" not in path_parameters:
        return st.just(path_parameters)
    return st.sampled_from([path_parameters, *({**path_parameters, "game_id": g} for g in known()["games"])])


SANE_GAME = {  # a body the server accepts: an open seat, so the game waits and costs nothing
    "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "quick"}, {"kind": "open"}],
    "bot_delay": 0,
}


def bodies(path: str, body: Any) -> list[Any]:
    """Bodies that get further than generated ones: a game the server creates (with some of the
    generated fields), a real record to replay, or one cut short; a seat to join."""
    if path == "/api/games" and isinstance(body, dict):
        return [SANE_GAME, {**body, **SANE_GAME}, {**SANE_GAME, "options": body.get("options", {})}]
    if path == "/api/replay":
        record = known()["record"][0]
        cut = record[: len(record) // 2]
        return [record, cut, cut + (body if isinstance(body, str) else "")]
    if path.endswith("/join") and isinstance(body, dict):
        return [{**body, "seat": 1}, {"seat": 1, "name": "Joe"}]
    return []


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Valid requests (not the deliberately invalid ones) sometimes carry a real seat's token, and
    a body from :func:`bodies`."""
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return st.just(case)
    tokens = st.sampled_from([None, *known()["tokens"]])
    body = st.sampled_from([case.body, *bodies(case.path, case.body)]) if case.body is not None else st.none()

    def swap(choice: tuple[str | None, Any]) -> Any:
        token, new_body = choice
        if token is not None:
            case.headers = {**(case.headers or {}), "authorization": f"Bearer {token}"}
        if new_body is not None:
            case.body = new_body
        return case

    return st.tuples(tokens, body).map(swap)


@pytest.fixture(scope="module")
def client() -> ASGIClient:
    return ASGIClient(APP)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_answers_as_documented(case: Any, client: ASGIClient) -> None:
    response = case.call_and_validate(session=client, checks=CHECKS)
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        error = body["error"]
        assert set(error) == {"code", "message"} and error["message"], body
        assert Refusal.STATUS.get(error["code"]) == response.status_code, body


def test_the_schema_documents_the_error_shape() -> None:
    with ASGIClient(APP) as client:
        document = client.get("/openapi.json").json()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")):
                    reference = answer["content"]["application/json"]["schema"]["$ref"]
                    assert reference.endswith("/ErrorOut"), (method, path, status)
    assert "HTTPValidationError" not in document.get("components", {}).get("schemas", {})
