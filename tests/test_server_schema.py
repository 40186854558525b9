"""Schemathesis against the app's OpenAPI schema: every route, valid and invalid requests alike.

No answer is a server error, every status answered is one the route documents (with the schema of
its body), and every refusal has the app's one error shape ``{"error": {"code", "message"}}``.
Requests go to the app in-process (schemathesis' ASGI client, one event loop for the whole run, so
the games' bots play on between calls), whose games are stored in SQLite (a number the store cannot
hold would fail there). Path parameters and the bearer token are sometimes swapped for a real game's
id and a real seat's token (a waiting game, one being played, a finished one), so the routes are
exercised past "no such game"; and any whole number of a query or a body (every one the schema has)
is sometimes swapped for one at an edge: past the store's range, at and past 2**63, negative, a
boolean. Each must be refused as ``bad-request``, and every whole number the schema takes is bounded
within what the store holds.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Iterator
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
from risk.server.inputs import NUMBER_MAX, SEED_MAX
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.sql import SqlStorage

# Per route: `make test` tries 30, about 20 s on 2 cores; `make test-all` 300 more (marked
# slow, tests/tiers.py), in which a 150-example run once found a refusal the schema did not list.
EXAMPLES = 30
EXAMPLES_AT_LENGTH = 300
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


class KeptOpen(SqlStorage):
    """A store that outlives the app's lifespan: schemathesis ends it after each test (which closes
    the store), and starts it again for the next."""

    def close(self) -> None:
        pass


FOLDER = tempfile.TemporaryDirectory()  # removed when the run ends
APP = create_app(KeptOpen(f"sqlite:///{FOLDER.name}/games.sqlite3", sqlite_synchronous="NORMAL"))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


# -- the whole numbers of the schema ------------------------------------------------------------------
EDGES = [NUMBER_MAX + 1, SEED_MAX, SEED_MAX + 1, 2**64, -1, -(2**63) - 1, -(10**30), True, False]
OPTION = "army-cap"  # a key for a dict's values (the rule options)


@functools.cache
def document() -> dict[str, Any]:
    return APP.openapi()  # what /openapi.json answers (a client's lifespan would close the store)


def integers(
    node: dict[str, Any], at: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Each whole number a JSON schema holds: its key path and its schema."""
    if "$ref" in node:
        node = document()["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    if node.get("type") == "integer":
        yield at, node
    for option in node.get("anyOf", []):
        yield from integers(option, at)
    for name, inner in node.get("properties", {}).items():
        yield from integers(inner, (*at, name))
    if isinstance(node.get("additionalProperties"), dict):
        yield from integers(node["additionalProperties"], (*at, OPTION))
    if "items" in node:
        yield from integers(node["items"], (*at, "0"))


@functools.cache
def whole_numbers() -> dict[tuple[str, str], list[tuple[str, tuple[str, ...], dict[str, Any]]]]:
    """Per (method, path): each whole number of its query and JSON body ("query" or "body", the key
    path, its schema)."""
    found: dict[tuple[str, str], list[tuple[str, tuple[str, ...], dict[str, Any]]]] = {}
    for path, operations in document()["paths"].items():
        for method, operation in operations.items():
            numbers = found.setdefault((method.upper(), path), [])
            for parameter in operation.get("parameters", []):
                for at, node in integers(parameter["schema"], (parameter["name"],)):
                    numbers.append((parameter["in"], at, node))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                numbers += [("body", at, node) for at, node in integers(body["schema"])]
    return found


def put(container: Any, at: tuple[str, ...], value: Any) -> Any:
    """A copy of a query or a JSON body with ``value`` at the key path ``at`` (None: it cannot hold it)."""
    if not isinstance(container, dict) or "0" in at:
        return None
    copy = dict(container)
    if len(at) == 1:
        copy[at[0]] = value
        return copy
    inner = put(copy.get(at[0]) if isinstance(copy.get(at[0]), dict) else {}, at[1:], value)
    copy[at[0]] = inner
    return copy


def refusable(value: Any, node: dict[str, Any]) -> bool:
    """Whether a whole-number field of this schema must refuse ``value``: a boolean, or a number past
    its bounds (without bounds, those of the store: 0 to 2**63 - 1)."""
    if isinstance(value, bool):
        return True
    if not isinstance(value, int):
        return False
    low = node.get("minimum", 0)
    if "exclusiveMaximum" in node:
        return not low <= value < node["exclusiveMaximum"]
    return not low <= value <= node.get("maximum", SEED_MAX)


def out_of_range(case: Any) -> list[tuple[tuple[str, ...], Any]]:
    """The whole-number fields of the case's query and body holding what they do not take."""
    found = []
    for where, at, node in whole_numbers().get((case.method.upper(), case.path), []):
        value: Any = case.query if where == "query" else case.body if where == "body" else None
        for key in at:
            value = value.get(key) if isinstance(value, dict) else None
        if refusable(value, node):
            found.append((at, value))
    return found


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
    """Valid requests (not the deliberately invalid ones) sometimes carry a real seat's token, a
    body from :func:`bodies`, and a whole number at an edge (:data:`EDGES`) in one of the fields."""
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return st.just(case)
    tokens = st.sampled_from([None, *known()["tokens"]])
    body = st.sampled_from([case.body, *bodies(case.path, case.body)]) if case.body is not None else st.none()
    fields = whole_numbers().get((case.method.upper(), case.path), [])
    edge = st.none() | st.tuples(st.sampled_from(fields), st.sampled_from(EDGES)) if fields else st.none()

    def swap(choice: tuple[str | None, Any, Any]) -> Any:
        token, new_body, number = choice
        if token is not None:
            case.headers = {**(case.headers or {}), "authorization": f"Bearer {token}"}
        if new_body is not None:
            case.body = new_body
        if number is not None:
            (where, at, _), value = number
            if where == "query":
                case.query = put(case.query or {}, at, value)
            elif where == "body" and put(case.body, at, value) is not None:
                case.body = put(case.body, at, value)
        return case

    return st.tuples(tokens, body, edge).map(swap)


@pytest.fixture(scope="module")
def client() -> ASGIClient:
    return ASGIClient(APP)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_answers_as_documented(case: Any, client: ASGIClient) -> None:
    answers_as_documented(case, client)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=EXAMPLES_AT_LENGTH, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_route_answers_as_documented_at_length(case: Any, client: ASGIClient) -> None:
    answers_as_documented(case, client)


def answers_as_documented(case: Any, client: ASGIClient) -> None:
    refused = out_of_range(case)
    response = case.call_and_validate(session=client, checks=CHECKS)
    if refused:  # checked where it enters: nothing read, nothing stored
        assert response.status_code == 422, (refused, response.status_code, response.text)
        assert response.json()["error"]["code"] == "bad-request", (refused, response.text)
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"}, body
        error = body["error"]
        # "field": a form's refused value (accounts): which field, so the page shows it beside it.
        assert set(error) - {"field"} == {"code", "message"} and error["message"], body
        assert "field" not in error or error["code"] in ("bad-field", "name-taken"), body
        assert Refusal.STATUS.get(error["code"]) == response.status_code, body


def test_every_whole_number_of_the_schema_is_bounded_within_the_store() -> None:
    """From 0 (nothing is numbered below) to what the store's column holds: 2**31 - 1 (PostgreSQL's
    INTEGER), or below 2**63 for a seed (a BIGINT)."""
    fields = {(path, at): node for (_, path), numbers in whole_numbers().items() for _, at, node in numbers}
    named = {(path, ".".join(at)) for path, at in fields}
    for expected in [
        ("/api/games/{game_id}/chat", "after"),
        ("/api/games/{game_id}/actions", "state_id"),
        ("/api/games/{game_id}/blitz", "until"),
        ("/api/games/{game_id}/undo", "to"),
        ("/api/games/{game_id}/join", "seat"),
        ("/api/games/{game_id}/replace", "seat"),
        ("/api/games", "seed"),
        ("/api/games", f"options.{OPTION}"),
        ("/api/rulesets", "table.missed_turns"),
    ]:
        assert expected in named, expected
    for (path, at), node in fields.items():
        assert node.get("minimum", -1) >= 0, (path, at, node)
        if (path, at) == ("/api/games", ("seed",)):
            assert node.get("exclusiveMaximum") == 2**63 and "maximum" not in node, (path, at, node)
        else:
            assert node.get("maximum", NUMBER_MAX + 1) <= NUMBER_MAX, (path, at, node)
    required = {
        path: document()["components"]["schemas"][name]["required"]
        for path, name in [("actions", "ActionIn"), ("blitz", "BlitzIn"), ("undo", "UndoIn")]
    }
    assert all("state_id" in names for names in required.values()), required


def test_the_schema_documents_the_error_shape() -> None:
    for path, operations in document()["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")):
                    reference = answer["content"]["application/json"]["schema"]["$ref"]
                    assert reference.endswith("/ErrorOut"), (method, path, status)
    assert "HTTPValidationError" not in document().get("components", {}).get("schemas", {})
