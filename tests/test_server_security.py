"""No one gets in where they don't belong (docs/reliability.md, "Bad input and security").

A seat's token acts only for its seat and its game, and shows only its own hand and mission; tokens
are random, long, stored hashed and compared in constant time; websockets from other sites are
refused; every page is served under a strict Content-Security-Policy with no inline code; rate
limits per address refuse with 429 in the app's error shape; and the logs of a whole game, played
through a real `risk serve` at debug level, hold no token, no seed and no hand.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import socket
import sqlite3
import string
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from played import human_game, play_moves
from risk import View
from risk.bots import make_bot
from risk.record import write_record
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.server import auth as auth_module
from risk.server.app import WEB_DIR, create_app
from risk.server.auth import hash_token, new_token
from risk.server.errors import Refusal
from risk.server.hosts import AllowedHosts
from risk.server.limits import MAX_ADDRESSES, AddressLimiter, Bucket, Guard, Limits, Rate
from risk.server.logsafe import HideSecrets
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.master import seeing as seeing_module
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


def master_of(client: TestClient) -> GameMaster:
    return client.app.state.master  # type: ignore[attr-defined]


def first_legal(master: GameMaster, game_id: str) -> str:
    game = master.live(game_id).game
    group = View(game.copy(), game.to_act).legal_groups()[0]
    return group["text"] if "max" not in group else f"{group['text']} {group['min']}"


# -- tokens: whose seat, which game ----------------------------------------------------------------
def test_a_token_acts_only_for_its_seat_and_only_in_its_game(client: TestClient) -> None:
    master = master_of(client)
    game_a, tokens_a = human_game(master, ["Ann", "Bob", "Cy"], seed=21)
    game_b, tokens_b = human_game(master, ["Dee", "Eve", "Fay"], seed=22)
    play_moves(master, game_a, 50)
    play_moves(master, game_b, 50)
    mover = master.live(game_a).game.to_act
    move, state_id = first_legal(master, game_a), master.live(game_a).state_id
    before = write_record(master.live(game_a).game), write_record(master.live(game_b).game)
    # Another seat of the same game: the seat is the token's, so it is not their turn.
    for seat, token in enumerate(tokens_a):
        if seat != mover:
            answer = client.post(
                f"/api/games/{game_a}/actions",
                json={"action": move, "state_id": state_id},
                headers=bearer(token),
            )
            assert (answer.status_code, answer.json()["error"]["code"]) == (409, "not-your-turn")
    # Any seat's token of game A, in game B: no seat there.
    state_b = master.live(game_b).state_id
    for token in tokens_a:
        for method, path, body in [
            ("POST", "actions", {"action": first_legal(master, game_b), "state_id": state_b}),
            ("GET", "view", None),
            ("GET", "record", None),
            ("POST", "undo", {"state_id": state_b}),
            ("POST", "blitz", {"from": "alaska", "to": "kamchatka", "state_id": state_b}),
            ("POST", "blitz/stop", None),
        ]:
            answer = client.request(method, f"/api/games/{game_b}/{path}", json=body, headers=bearer(token))
            assert (answer.status_code, answer.json()["error"]["code"]) == (403, "bad-token"), (
                path,
                answer.text,
            )
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect(f"/api/games/{game_b}/ws") as socket,
        ):
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["code"] == "bad-token"
            socket.receive_json()
        assert closed.value.code == 4403
    assert (write_record(master.live(game_a).game), write_record(master.live(game_b).game)) == before
    # The right token, the right game: taken.
    answer = client.post(
        f"/api/games/{game_a}/actions",
        json={"action": move, "state_id": state_id},
        headers=bearer(tokens_a[mover]),
    )
    assert answer.json() == {"state_id": state_id + 1}
    assert tokens_b  # game B's own seats were never used


def test_a_seat_sees_its_own_hand_and_mission_only(client: TestClient) -> None:
    master = master_of(client)
    spec = GameSpec(
        edition="2008",
        game="secret-mission",
        seats=[SeatSpec("human", n) for n in ("Ann", "Bob", "Cy")],
        seed=5,
    )
    record, seats = master.create_game(spec)
    play_moves(master, record.id, 400)  # cards have been drawn
    game = master.live(record.id).game
    assert not game.is_over and any(game.hands)
    for seat in seats:
        view = client.get(f"/api/games/{record.id}/view", headers=bearer(seat.token or "")).json()["view"]
        assert view["hand"] == View(game, seat.seat).to_dict()["hand"]
        assert [p["cards"] for p in view["players"]] == [len(h) for h in game.hands]  # how many, not which
        assert [m is not None for m in view["missions"]] == [i == seat.seat for i in range(3)]
    spectator = client.get(f"/api/games/{record.id}/view").json()["view"]
    assert "hand" not in spectator and not any(spectator.get("missions") or [])


# -- tokens: random, hashed, compared in constant time ---------------------------------------------
def test_tokens_are_192_random_bits_from_the_system_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = [new_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) == 24  # 192 bits >= 128
    # Every base64url character turns up: no fixed part, no narrow alphabet.
    assert set("".join(tokens)) == set(string.ascii_letters + string.digits + "-_")
    drawn: list[int] = []

    def counted(size: int) -> str:
        drawn.append(size)
        return base64.urlsafe_b64encode(b"\x01" * size).decode()

    monkeypatch.setattr(auth_module.secrets, "token_urlsafe", counted)
    new_token()
    assert drawn == [24]  # from `secrets`, the operating system's generator


def test_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with TestClient(create_app(SqlStorage(f"sqlite:///{database}"))) as client:
        created = client.post(
            "/api/games",
            json={
                "seats": [
                    {"kind": "human", "name": "Ann"},
                    {"kind": "human", "name": "Bob"},
                    {"kind": "open"},
                ]
            },
        ).json()
        joined = client.post(f"/api/games/{created['id']}/join", json={"seat": 2, "name": "Cy"}).json()
        tokens = [s["token"] for s in created["seats"] if s["token"]] + [joined["token"]]
    assert len(tokens) == 3
    with sqlite3.connect(database) as connection:
        tables = [row[0] for row in connection.execute("select name from sqlite_master where type='table'")]
        stored = json.dumps(
            [
                list(map(str, row))
                for table in tables
                for row in connection.execute(f'select * from "{table}"')
            ]
        )
    raw = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    for token in tokens:
        assert token not in stored and token.encode() not in raw
        assert hashlib.sha256(token.encode()).hexdigest() in stored


def test_statement_logs_never_hold_the_seed_or_a_token_hash(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An operator who turns SQLAlchemy's statement log on sees statements, not their parameters."""
    seed = 7_731_209_554_610_113
    with caplog.at_level(logging.INFO, logger="sqlalchemy.engine"):
        with TestClient(create_app(SqlStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}"))) as client:
            seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
            created = client.post("/api/games", json={"seats": seats, "seed": seed}).json()
        statements = "\n".join(record.getMessage() for record in caplog.records)
    assert "INSERT INTO" in statements  # the log was on
    token_hashes = [hash_token(seat["token"]) for seat in created["seats"]]
    assert str(seed) not in statements
    assert not any(digest in statements for digest in token_hashes)


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    master = GameMaster(MemoryStorage())
    game_id, tokens = human_game(master, ["Ann", "Bob", "Cy", "Dee"], seed=1)
    compared: list[tuple[str, str]] = []
    real = seeing_module.hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(seeing_module.hmac, "compare_digest", spy)
    for token, seat in [(tokens[0], 0), (tokens[3], 3)]:
        compared.clear()
        assert master.seat_of(game_id, token) == seat
        # Every seat is compared, the right one first or last: no early exit; hashes, never tokens.
        assert len(compared) == 4 and all(hash_token(token) in pair for pair in compared)
    compared.clear()
    with pytest.raises(Refusal):
        master.seat_of(game_id, "x" * 32)
    assert len(compared) == 4


# -- websocket origin ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("http://evil.example", False),
        ("null", False),  # a sandboxed frame or a file
        ("http://testserver:8080", False),  # another port is another site
        ("http://testserver.evil.example", False),
        ("http://testserver", True),
        ("https://testserver", True),  # behind a proxy that ends TLS
        (None, True),  # not a browser: no ambient credential to misuse, the token still decides
    ],
)
def test_websockets_must_come_from_this_server(
    client: TestClient, origin: str | None, accepted: bool
) -> None:
    master = master_of(client)
    game_id, _ = human_game(master, ["Ann", "Bob", "Cy"], seed=3)
    headers = {} if origin is None else {"origin": origin}
    if accepted:
        with client.websocket_connect(f"/api/games/{game_id}/ws", headers=headers) as socket:
            socket.send_json({"type": "hello", "token": None})
            assert socket.receive_json()["type"] == "state"
        return
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"/api/games/{game_id}/ws", headers=headers) as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 4403


# -- host names: DNS rebinding --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("127.0.0.1:8000", True),
        ("192.168.1.20:8000", True),  # a LAN address: what a friend types
        ("[::1]:8000", True),
        ("LOCALHOST:8000", True),
        ("games.example.org", True),
        ("a.party.example.net:443", True),
        ("party.example.net", False),  # *.party.example.net is the names under it, not itself
        ("evil.example:8000", False),
        ("127.0.0.1.evil.example", False),
        ("", False),
        (None, False),
    ],
)
def test_the_server_answers_only_to_addresses_and_its_names(host: str | None, allowed: bool) -> None:
    hosts = AllowedHosts(["localhost", "games.example.org", "*.party.example.net"])
    assert hosts.allows(host) is allowed


def test_a_bad_allowed_host_pattern_is_refused_and_the_default_names_this_machine() -> None:
    with pytest.raises(ValueError, match="a wildcard may only start a name"):
        AllowedHosts(["games.*.org"])
    default = AllowedHosts.default()
    assert default.allows("localhost:8000") and default.allows(socket.gethostname())


def test_a_rebinding_page_gets_nothing_from_the_server() -> None:
    """A page on another name resolved to this server sends that name as Host (and Origin, so the
    Origin check passes): pages, the API and the websocket refuse it, naming the fix."""
    storage = MemoryStorage()
    app = create_app(storage, allowed_hosts=AllowedHosts(["localhost"]))
    with TestClient(app, base_url="http://evil.example:8000") as rebound:
        for path in ("/", "/api/games", "/openapi.json"):
            answer = rebound.get(path)
            assert answer.status_code == 400, path
            assert answer.json()["error"]["code"] == "bad-host"
            assert "--allowed-hosts" in answer.json()["error"]["message"]
        assert rebound.post("/api/games", json={"seats": []}).status_code == 400
        assert storage.list_games() == []
        origin = {"origin": "http://evil.example:8000"}
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            rebound.websocket_connect("/api/games/x/ws", headers=origin) as ws,
        ):
            ws.receive_json()
        assert refused.value.code == 1008
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/api/games").status_code == 200
        assert local.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_risk_serve_guards_host_names_and_ignores_forwarded_addresses(tmp_path: Path) -> None:
    """The real command: a foreign Host is refused, an IP address and a listed name are served; and
    without --proxy an X-Forwarded-For header cannot buy another address's allowance."""
    from live_server import free_port, server

    port = free_port()

    def create(headers: dict[str, str]) -> int:
        seats = [{"kind": "bot", "name": name, "bot": "quick"} for name in ("A", "B", "C")]
        body = json.dumps({"seats": seats}).encode()
        call = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games",
            body,
            {"Content-Type": "application/json", **headers},
            method="POST",
        )
        try:
            with urllib.request.urlopen(call, timeout=10) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with server(url, port, "--allowed-hosts", "risk.example.org", "--limit-games", "1/600"):
        assert create({"Host": "evil.example"}) == 400  # refused before it counts against the limit
        assert create({"Host": f"risk.example.org:{port}"}) == 201
        assert create({"X-Forwarded-For": "203.0.113.9"}) == 429  # still 127.0.0.1: the same allowance
    finished = serve_refusing("--allowed-hosts", "games.*.org")
    assert finished.returncode == 2 and "a wildcard may only start a name" in finished.stderr


# -- pages: a strict policy, no inline code -------------------------------------------------------
class InlineCode(HTMLParser):
    """Everything in a page that a strict CSP would block, or that runs code from the markup."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>: an inline event handler")
            if name == "style":
                self.found.append(f"<{tag} style=...>: an inline style")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                ("javascript:", "data:text/html")
            ):
                self.found.append(f"<{tag} {name}={value}>: code in a URL")
        if tag == "style":
            self.found.append("<style>: an inline style sheet")
        if tag == "script":
            source = values.get("src")
            if not source:
                self._in_script = True
            else:
                self.scripts.append(source)
                if not source.startswith("/static/"):
                    self.found.append(f"<script src={source}>: a script from elsewhere")
        if tag == "base":
            self.found.append("<base>: a base URL")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}...: an inline script")


def served_pages(client: TestClient) -> list[str]:
    """Every HTML page the app serves: its routes, and every .html under /static."""
    pages = ["/", "/game/k3Jd9aQx", "/game/k3Jd9aQx/summary", "/replay"]
    pages += [f"/static/{path.relative_to(WEB_DIR)}" for path in sorted(WEB_DIR.rglob("*.html"))]
    return pages


def test_every_page_has_a_strict_policy_and_no_inline_code(client: TestClient) -> None:
    pages = served_pages(client)
    assert len(pages) >= 7
    for page in pages:
        answer = client.get(page)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), page
        policy = {
            directive.split()[0]: directive.split()[1:]
            for directive in answer.headers["content-security-policy"].split(";")
            if directive.strip()
        }
        assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"], page
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"], page
        assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'none'"], page
        assert "unsafe" not in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        parser = InlineCode()
        parser.feed(answer.text)
        assert parser.found == [], (page, parser.found)
        assert parser.scripts, page  # the page's code is there, as files
        for script in parser.scripts:
            code = client.get(script)
            assert code.status_code == 200 and "javascript" in code.headers["content-type"], script
    # No third-party page on this origin: no Swagger UI, no ReDoc; the schema is plain JSON.
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert "content-security-policy" in client.get("/openapi.json").headers


def test_scripts_never_turn_text_into_markup() -> None:
    """The pages' code builds the DOM from text (names, chat, the log): nothing that parses HTML or
    runs a string as code."""
    forbidden = (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
        'setTimeout("',
        "setTimeout('",
        "srcdoc",
    )
    scripts = sorted(WEB_DIR.rglob("*.js"))
    assert scripts
    for script in scripts:
        lines = script.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            code = line.split("//", 1)[0]
            for word in forbidden:
                assert word not in code, f"{script.name}:{number}: {word}"


# -- rate limits -----------------------------------------------------------------------------------
def test_rates_parse_and_describe_themselves() -> None:
    assert Rate.parse("20/600") == Rate(20, 600.0) and Rate.parse(" OFF ") is None
    assert (
        Rate(20, 600).describe() == "20 per 10 minutes" and Rate(100, 10).describe() == "100 per 10 seconds"
    )
    for bad in ("20", "a/b", "0/10", "5/0", "5/-1", "-3/10", "1/2/3"):
        with pytest.raises(ValueError, match="COUNT/SECONDS"):
            Rate.parse(bad)


def test_a_bucket_allows_its_count_at_once_then_refills_evenly() -> None:
    bucket = Bucket(Rate(3, 30))  # 3 at once, then one every 10 s
    assert [bucket.take(100.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(100.0) == pytest.approx(10.0)
    assert bucket.take(105.0) == pytest.approx(5.0)  # a refused event spends nothing
    assert bucket.take(110.0) == 0.0 and bucket.take(110.0) == pytest.approx(10.0)
    assert bucket.take(1000.0) == 0.0 and bucket.full(1000.0) is False  # never more than 3 saved
    assert bucket.full(1020.0)


def test_address_buckets_are_dropped_when_idle_and_too_many() -> None:
    now = [0.0]
    limiter = AddressLimiter(Rate(2, 10), "tests", clock=lambda: now[0])
    for index in range(MAX_ADDRESSES):
        limiter.check(f"address-{index}")
    now[0] = 100.0  # all of them full again
    limiter.check("busy")
    limiter.check("busy")
    limiter.check("one more")
    assert set(limiter.buckets) == {"busy", "one more"}


def limited_client(limits: Limits, address: str = "testclient") -> TestClient:
    return TestClient(create_app(MemoryStorage(), limits=limits), client=(address, 50000))


def test_new_games_and_uploads_are_limited_per_address() -> None:
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}]}
    limits = Limits(games=Rate(3, 600), actions=None, messages=None)
    with limited_client(limits) as client:
        assert [client.post("/api/games", json=body).status_code for _ in range(2)] == [201, 201]
        assert client.post("/api/replay", content="risk-record 1\n").status_code == 422  # the third counts
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "rate-limited"
        assert "at most 3 per 10 minutes" in answer.json()["error"]["message"]
        assert int(answer.headers["retry-after"]) >= 199  # 600 s / 3 for the next one
        assert answer.headers["content-security-policy"]  # the usual headers, too
        assert client.post("/api/replay", content="risk-record 1\n").status_code == 429
        assert len(client.get("/api/games").json()["games"]) == 2  # nothing more was made
        assert client.get("/api/meta").status_code == 200  # reading is never limited
        # Another address has its own allowance (the same app, a client from elsewhere).
        other = TestClient(client.app, client=("testclient-2", 50000))
        assert other.post("/api/games", json=body).status_code == 201


def test_actions_are_limited_per_address_over_http_and_websocket() -> None:
    now = [0.0]
    with limited_client(Limits(games=None, actions=Rate(4, 60), messages=None)) as client:
        client.app.state.guard.clock = lambda: now[0]  # type: ignore[attr-defined]
        master = master_of(client)
        game_id, tokens = human_game(master, ["Ann", "Bob", "Cy"], seed=8)
        mover = master.live(game_id).game.to_act
        waiting = (mover + 1) % 3
        move, state_id = first_legal(master, game_id), master.live(game_id).state_id
        url = f"/api/games/{game_id}/actions"
        with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
            socket.send_json({"type": "hello", "token": tokens[waiting]})
            assert socket.receive_json()["type"] == "state"
            for _ in range(2):  # refused by the game, but counted
                body = {"action": move, "state_id": state_id}
                answer = client.post(url, json=body, headers=bearer(tokens[waiting]))
                assert answer.json()["error"]["code"] == "not-your-turn"
            for ref in range(2):
                socket.send_json({"type": "action", "action": move, "state_id": state_id, "ref": ref})
                assert socket.receive_json()["code"] == "not-your-turn"
            socket.send_json({"type": "ping"})  # not a request for a change: not counted
            assert socket.receive_json() == {"type": "pong"}
            socket.send_json({"type": "action", "action": move, "state_id": state_id, "ref": "over"})
            answer = socket.receive_json()
            assert (answer["code"], answer["ref"]) == ("rate-limited", "over")
            refused = client.post(
                url, json={"action": move, "state_id": state_id}, headers=bearer(tokens[mover])
            )
            assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate-limited"
            assert master.live(game_id).state_id == state_id
            now[0] += 15.0  # one more allowed
            taken = client.post(
                url, json={"action": move, "state_id": state_id}, headers=bearer(tokens[mover])
            )
            assert taken.json() == {"state_id": state_id + 1}


def test_every_limited_route_documents_its_429(client: TestClient) -> None:
    guard = Guard(Limits())
    document = client.get("/openapi.json").json()
    limited = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            concrete = path.replace("{game_id}", "k3Jd9aQx")
            if guard.limiter_for(method.upper(), concrete) is not None:
                limited += 1
                assert "429" in operation["responses"], (method, path)
    assert limited >= 7


def serve_refusing(*options: str) -> subprocess.CompletedProcess[str]:
    """`risk serve --db memory OPTIONS`, expected to refuse its options and exit at once."""
    return subprocess.run(
        [sys.executable, "-m", "risk", "serve", "--db", "memory", *options],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_risk_serve_refuses_a_limit_it_cannot_read() -> None:
    finished = serve_refusing("--limit-games", "lots")
    assert finished.returncode == 2 and "COUNT/SECONDS" in finished.stderr


# -- logs ------------------------------------------------------------------------------------------
def test_the_log_filter_drops_wire_dumps_and_blanks_tokens() -> None:
    token = new_token()
    keep = HideSecrets()

    def record(
        message: str, *args: Any, level: int = logging.INFO, path: str = "/x/risk/a.py"
    ) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", level, path, 1, message, args, None)

    wire = record(
        "< %s",
        f'TEXT \'{{"type": "hello", "token": "{token}"}}\'',
        level=logging.DEBUG,
        path="/venv/site-packages/websockets/protocol.py",
    )
    assert keep.filter(wire) is False
    for text in (f"Authorization: Bearer {token}", f'{{"token": "{token}"}}', f"token={token}"):
        line = record("request: %s", text)
        assert (
            keep.filter(line) is True and token not in line.getMessage() and "[hidden]" in line.getMessage()
        )
    plain = record("game %s: bot in seat %d refused: %s", "k3Jd9aQx", 2, "no such territory")
    assert keep.filter(plain) is True and plain.getMessage().endswith("no such territory")


def test_a_whole_game_through_a_real_server_logs_no_secret(tmp_path: Path) -> None:
    """`risk serve --log-level trace` on SQLite: three humans play a whole game, one over HTTP and two
    over websockets (one of them joined an open seat); everything the server printed is then searched
    for every token and its hash, the seed, and every hand any seat was shown."""
    from websockets.sync.client import connect

    from live_server import free_port, post, request, server

    seed = 8_351_907_446_120_397
    port = free_port()
    log_path = tmp_path / "server.log"
    with (
        log_path.open("wb") as log,
        # Trace: uvicorn's most talkative level, debug and below. The clients play far faster than
        # people: no rate limit (they are tested above).
        server(f"sqlite:///{tmp_path / 'db.sqlite3'}", port, "--no-rate-limits", log_level="trace", log=log),
    ):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "open"}]
        created = post(
            port, "/api/games", {"seats": seats, "seed": seed, "bot_delay": 0, "defend_timeout": 0}
        )
        game_id = created["id"]
        joined = post(port, f"/api/games/{game_id}/join", {"seat": 2, "name": "Cy"})
        tokens = [created["seats"][0]["token"], created["seats"][1]["token"], joined["token"]]
        over_http = 1
        replica = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=seed)
        bots = [make_bot("quick", seat) for seat in range(3)]
        hands: set[str] = set()
        with ExitStack() as connections:
            url = f"ws://127.0.0.1:{port}/api/games/{game_id}/ws"
            sockets = [connections.enter_context(connect(url)) for _ in range(3)]

            def catch_up(state_id: int) -> None:
                """Read every connection up to the state ``state_id``, keeping the hands shown."""
                for socket in sockets:
                    while True:
                        message = json.loads(socket.recv(30))
                        if message["type"] == "state":
                            if message["view"]["hand"]:
                                hands.add(json.dumps(message["view"]["hand"]))
                                hands.add(json.dumps(message["view"]["hand"], separators=(",", ":")))
                            if message["state_id"] >= state_id:
                                break

            for seat, socket in enumerate(sockets):
                socket.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            catch_up(0)
            state_id = 0
            while not replica.is_over and state_id < 5000:
                seat = replica.to_act
                text = replica.action_text(bots[seat].choose(View(replica, seat)))
                if seat == over_http:
                    answer = request(
                        port,
                        "POST",
                        f"/api/games/{game_id}/actions",
                        {"action": text, "state_id": state_id},
                        token=tokens[seat],
                    )
                else:
                    sockets[seat].send(json.dumps({"type": "action", "action": text, "state_id": state_id}))
                    while (answer := json.loads(sockets[seat].recv(30)))["type"] == "state":
                        pass
                assert answer["state_id"] == state_id + 1, answer
                replica.apply(replica.parse(text))
                state_id += 1
                catch_up(state_id)
            assert replica.is_over
            record = request(port, "GET", f"/api/games/{game_id}", None)
            assert record["status"] == "over"
            try:
                request(port, "GET", f"/api/games/{game_id}/view", token="not-a-token-of-this-game")
            except urllib.error.HTTPError as refused:
                assert refused.code == 403
    printed = log_path.read_text(encoding="utf-8", errors="replace")
    assert f'"POST /api/games/{game_id}/actions HTTP/1.1" 200' in printed  # the log was kept
    assert "connection open" in printed and "TRACE:" in printed  # everything down to trace
    assert len(hands) > 10
    secrets = [*tokens, *map(hash_token, tokens), str(seed), *hands]
    leaked = [secret[:12] for secret in secrets if secret in printed]
    assert leaked == [], f"the server's log holds {len(leaked)} secrets"
    assert '"hand"' not in printed and "Bearer" not in printed


@pytest.mark.parametrize("name", ["esc\x1b[31mred", "nul\x00", "A\udcffn"])
def test_a_name_that_cannot_be_shown_is_refused_when_creating_or_joining(name: str) -> None:
    master = GameMaster(MemoryStorage())
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("open")]
    with pytest.raises(Refusal, match="cannot be shown") as refused:
        master.create_game(GameSpec(edition="2008", seats=[*seats[:2], SeatSpec("human", name)]))
    assert refused.value.code == "bad-request"
    record, _ = master.create_game(GameSpec(edition="2008", seats=seats))
    with pytest.raises(Refusal, match="cannot be shown") as refused:
        master.join(record.id, 2, name)
    assert refused.value.code == "bad-request"
    assert master.live(record.id).record.seats[2].kind == "open"  # nothing changed
