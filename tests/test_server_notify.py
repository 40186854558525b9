"""Notifications by e-mail (docs/web.md, "Notifications"; risk.server.notify), against a real SMTP
server (aiosmtpd) started by the test:

- a seat's move, its defence, its losses (one message per opponent's turn), the game's end: each told
  once, with the seat link (its token in the fragment), an unsubscribe link and a stable Message-ID;
- the player's pace (at most one message per N minutes), nothing while the page is open;
- an SMTP server that is down or refuses: retried with backoff from the outbox, paused after N
  failures, never lost, and the move never waits;
- two senders on one database never send the same row twice;
- the API: bad input refused with nothing stored, the address never sent back, the unsubscribe link;
- kill -9 of a real `risk serve` with messages queued: after the restart each is sent.
"""

from __future__ import annotations

import email
import email.policy
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from live_server import free_port, request, server
from risk.bots import make_bot
from risk.server import seats as seat_desk
from risk.server import vacations
from risk.server.app import create_app
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.notify.channels import EmailChannel, SmtpSettings, is_address
from risk.server.notify.events import GAME
from risk.server.notify.outbox import LEASE_S, PAUSE_AFTER, Event, Outbox, Queued, Subscription
from risk.server.notify.seal import Seal
from risk.server.notify.sender import OPEN_PAGE_WAIT_S, Notifier, compose
from risk.server.notify.webhook import WebhookChannel
from risk.server.sql import SqlStorage
from risk.server.sql import outbox as outbox_rows
from risk.server.timing import DAY, defending
from risk.view import View


@dataclass
class Inbox:
    """What the test SMTP server received; ``refuse``: answer every RCPT with 550."""

    messages: list[EmailMessage] = field(default_factory=list)
    refuse: bool = False

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if self.refuse:
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Table:
    master: GameMaster
    outbox: Outbox
    notifier: Notifier
    clock: Clock
    game_id: str
    tokens: list[str]
    present: set[int] = field(default_factory=set)


ADDRESSES = ["ann@example.org", "bob@example.org"]


def table(
    tmp_path: Path,
    smtp_port: int,
    *,
    every_s: float = 0.0,
    bot: bool = True,
    emails: bool = True,
    **clock_settings: Any,
) -> Table:
    storage = SqlStorage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    clock = Clock()
    master = GameMaster(storage, clock=clock)
    third = SeatSpec("bot", bot="quick") if bot else SeatSpec("human", "Cid")
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), third]
    spec = GameSpec(seats=seats, seed=3, bot_delay=0, defend_timeout=0, **clock_settings)
    record, created = master.create_game(spec)
    tokens = [c.token or "" for c in created if c.token]
    outbox = Outbox(storage.engine)
    present: set[int] = set()
    channel = EmailChannel(SmtpSettings.parse(f"smtp://127.0.0.1:{smtp_port}?from=risk@example.org"))
    channels = [channel, WebhookChannel()]
    notifier = Notifier(outbox, storage, channels, lambda _game: present, clock=clock, retry_s=10)
    notifier.listen_to(master)
    for seat, address in enumerate(ADDRESSES if emails else []):
        outbox.subscribe(
            record.id, seat, "email", address=address, seat_token=tokens[seat],
            site="http://risk.test/", every_s=every_s, now=clock.now,
        )  # fmt: skip
    return Table(master, outbox, notifier, clock, record.id, tokens, present)


def play(t: Table, moves: int, *, between: float = 1.0) -> None:
    """``moves`` moves, bots' and people's (people as the quick bot would), the notifier stepping
    after each, the clock going on ``between`` seconds."""
    for _ in range(moves):
        live = t.master.live(t.game_id)
        if live.game.is_over:
            return
        turn = t.master.bot_turn(t.game_id)
        if turn is not None:
            seat, state_id, decide = turn
            t.master.submit_as(t.game_id, seat, decide(), state_id)
        else:
            seat = live.game.to_act
            view = View(live.game, seat)
            text = view.action_text(make_bot("quick", live.state_id).choose(view))
            t.master.submit_as(t.game_id, seat, text, live.state_id)
        t.clock.now += between
        t.notifier.step()


def test_each_event_told_once_with_the_seat_link_and_the_unsubscribe_link(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    t = table(tmp_path, port)
    t.notifier.step()  # the game has started: whoever is to act is told
    first = t.master.live(t.game_id).game.to_act
    assert [m["Subject"] for m in inbox.to(ADDRESSES[first])] == [f"RISK game {t.game_id}: it is your move"]
    assert inbox.to(ADDRESSES[1 - first]) == []
    mail = inbox.to(ADDRESSES[first])[0]
    body = mail.get_content()
    assert f"http://risk.test/game/{t.game_id}#token={t.tokens[first]}" in body
    assert t.tokens[1 - first] not in body and ADDRESSES[1 - first] not in body
    subscription = t.outbox.subscription(t.game_id, first, "email")
    assert subscription is not None
    assert f"http://risk.test/notify/unsubscribe/{subscription.id}" in body
    assert mail["List-Unsubscribe"].strip() == f"<http://risk.test/notify/unsubscribe/{subscription.id}>"
    assert mail["Message-ID"].endswith("@risk.notify>")
    # Heard again (another process, a restart's sweep): not queued again, not sent again.
    t.notifier.sweep()
    t.notifier.step()
    assert len(inbox.messages) == 1

    # A whole game's messages, each event once, are counted in tests/test_server_longgame.py.


@pytest.mark.slow  # tests/test_server_longgame.py counts each turn's losses against the game in `make test`
def test_losses_are_batched_one_message_per_opponents_turn(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    t = table(tmp_path, port)
    play(t, 800)
    lines = [
        (m["To"], line)
        for m in inbox.messages
        for line in m.get_content().splitlines()
        if " you lost " in line
    ]
    assert lines, "nobody lost a territory in 800 moves"
    # At most one per victim and opponent's turn: that turn's losses together, told once.
    turns = [(to, line.split("(turn ")[1].split(")")[0]) for to, line in lines]
    assert len(turns) == len(set(turns))
    assert any(", " in line.split(" you lost ")[1] for _, line in lines)  # some batch had several


def test_the_players_pace_and_an_open_page(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    t = table(tmp_path, port, every_s=3600.0)
    t.present.update({0, 1})  # both pages open: nothing is sent; the move waits, looked at again later
    t.notifier.step()
    assert inbox.messages == [] and t.outbox.counts() == {"queued": 1}
    t.clock.now += OPEN_PAGE_WAIT_S
    t.notifier.step()
    assert inbox.messages == [] and t.outbox.counts() == {"queued": 1}
    # The player makes the move on the page: it is never told (the row is stale: skipped).
    play(t, 1)
    t.clock.now += OPEN_PAGE_WAIT_S
    t.notifier.step()
    assert inbox.messages == [] and t.outbox.counts().get("skipped", 0) >= 1
    # The next person to act closes the page before moving: told once their page is closed.
    while (to_act := t.master.live(t.game_id).game.to_act) not in (0, 1):
        play(t, 1)
    t.notifier.step()
    assert inbox.messages == []
    t.present.clear()
    t.clock.now += OPEN_PAGE_WAIT_S
    t.notifier.step()
    assert [m["Subject"] for m in inbox.to(ADDRESSES[to_act])] == [f"RISK game {t.game_id}: it is your move"]
    inbox.messages.clear()
    play(t, 300, between=1.0)  # 300 seconds: at most one message each within the hour
    for address in ADDRESSES:
        assert len(inbox.to(address)) <= 1
    waiting = t.outbox.counts().get("queued", 0)
    assert waiting >= 1  # kept, not dropped
    # Past a defence under way (the attacker's "your move" waits for the defender's dice).
    while defending(t.master.live(t.game_id).game):
        play(t, 1)
    t.clock.now += 4000  # past the hour since the last message
    t.notifier.step()
    assert t.outbox.counts().get("queued", 0) == 0
    for address in ADDRESSES:
        assert len(inbox.to(address)) <= 2


def test_a_reminder_before_the_deadline_moved_by_a_vacation(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    """A day a turn: "your move" at once; a reminder when a quarter of the turn is left (six hours
    before the deadline at most), at its new time after a vacation moved the deadline, and never
    once the move is made."""
    inbox, port = smtp
    t = table(tmp_path, port, turn_time=DAY, vacation_days=2)
    t.notifier.step()
    first = t.master.live(t.game_id).game.to_act
    subjects = lambda: [m["Subject"].split(": ", 1)[1] for m in inbox.to(ADDRESSES[first])]  # noqa: E731
    assert subjects() == ["it is your move"]
    t.clock.now += DAY / 2  # twelve hours in: not yet
    t.notifier.step()
    assert subjects() == ["it is your move"]
    # A day's vacation: the deadline moves by a day, and the reminder with it.
    vacations.take_vacation(t.master, t.game_id, t.tokens[first], 1)
    t.clock.now += DAY / 2 - 6 * 3600  # six hours before the old deadline
    t.notifier.step()
    assert subjects() == ["it is your move"]
    t.clock.now += DAY  # six hours before the new one
    t.notifier.step()
    assert subjects() == ["it is your move", "your time runs out soon"]
    assert "a reminder: your move runs out" in inbox.to(ADDRESSES[first])[-1].get_content()
    # The other person's move is made long before its reminder: the reminder is never sent.
    while (second := t.master.live(t.game_id).game.to_act) not in (0, 1) or second == first:
        play(t, 1)
    before = len(inbox.to(ADDRESSES[second]))
    play(t, 1)
    t.clock.now += DAY
    t.notifier.step()
    assert not any("runs out" in m["Subject"] for m in inbox.to(ADDRESSES[second])[before:])
    with t.outbox.engine.connect() as conn:
        reminders = conn.execute(
            sa.select(outbox_rows.c.status).where(outbox_rows.c.kind == "remind")
        ).scalars()
        assert sorted(reminders) == ["sent", "skipped"]


def test_smtp_down_retried_with_backoff_paused_never_lost(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there yet
    t = table(tmp_path, port)
    started = time.monotonic()
    play(t, 30)
    assert time.monotonic() - started < 30  # the moves did not wait for the SMTP server
    first = t.master.live(t.game_id).game.to_act
    rows = t.outbox.counts()
    assert rows.get("queued", 0) >= 1 and "sent" not in rows
    # Backoff: nothing tried again before its time (10 s, then 20, 40...).
    sub = t.outbox.subscription(t.game_id, first, "email")
    assert sub is not None and 1 <= sub.failures < PAUSE_AFTER
    failures = sub.failures
    t.notifier.step()
    sub = t.outbox.subscription(t.game_id, first, "email")
    assert sub is not None and sub.failures == failures
    for _ in range(PAUSE_AFTER + 2):
        t.clock.now += 4000
        t.notifier.step()
    sub = t.outbox.subscription(t.game_id, first, "email")
    assert sub is not None and sub.paused
    # The server comes up; the player's next visit says "paused", they turn it on again: all is sent.
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        t.clock.now += 4000
        t.notifier.step()
        assert inbox.to(ADDRESSES[first]) == []  # paused: kept, not sent
        t.outbox.subscribe(
            t.game_id, first, "email", address=ADDRESSES[first], seat_token=t.tokens[first],
            site="http://risk.test/", every_s=0, now=t.clock.now,
        )  # fmt: skip
        t.clock.now += 4000
        t.notifier.step()
        assert len(inbox.to(ADDRESSES[first])) == 1
        assert f"Game {t.game_id}: it is your move" in inbox.to(ADDRESSES[first])[0].get_content()
    finally:
        controller.stop()


def test_a_refusing_smtp_server_is_retried(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    inbox.refuse = True
    t = table(tmp_path, port)
    t.notifier.step()
    assert inbox.messages == [] and t.outbox.counts() == {"queued": 1}
    inbox.refuse = False
    t.clock.now += 5  # before the first retry
    t.notifier.step()
    assert inbox.messages == []
    t.clock.now += 10
    t.notifier.step()
    assert len(inbox.messages) == 1 and t.outbox.counts() == {"sent": 1}


@pytest.mark.parametrize("looking", [(), (1,)], ids=["pages-closed", "bob-looking"])
def test_the_end_is_told_and_the_addresses_deleted(
    tmp_path: Path, smtp: tuple[Inbox, int], looking: tuple[int, ...]
) -> None:
    """Each player whose page is closed is told the end; the addresses are deleted all the same
    when a player saw the end on the page (nothing is sent to them)."""
    inbox, port = smtp
    t = table(tmp_path, port, bot=False)
    t.notifier.step()
    t.present.update(looking)
    seat_desk.resign(t.master, t.game_id, t.tokens[0])
    seat_desk.resign(t.master, t.game_id, t.tokens[2])
    t.clock.now += 1
    t.notifier.step()
    ends = [m for m in inbox.messages if "over" in m["Subject"]]
    told = [address for seat, address in enumerate(ADDRESSES) if seat not in looking]
    assert sorted(m["To"] for m in ends) == sorted(told)
    assert "Bob won" in ends[0].get_content()
    assert t.outbox.subscribed_games() == []  # the addresses are gone


def test_two_senders_never_claim_the_same_row(storage_url: str) -> None:
    storage = SqlStorage(storage_url)
    master = GameMaster(storage)
    games = []
    for seed in range(30):
        record, _created = master.create_game(
            GameSpec(
                seats=[SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("human", "Cid")],
                seed=seed,
            )
        )
        games.append(record.id)
    first, second = Outbox(storage.engine), Outbox(SqlStorage(storage_url).engine)
    for game_id in games:
        for seat in (0, 1):
            first.subscribe(
                game_id, seat, "email", address="a@example.org", seat_token="t", site="http://x/",
                every_s=0, now=0,
            )  # fmt: skip
    first.enqueue([Event(g, s, "move", f"{g}:move:1:{s}", "go") for g in games for s in (0, 1)], now=0)
    claimed: list[list[int]] = [[], []]

    def claim(outbox: Outbox, into: list[int]) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and first.counts().get("queued"):
            for rows in outbox.claim(now=1, limit=2).values():
                into.extend(row.id for row in rows)

    threads = [
        threading.Thread(target=claim, args=(o, c)) for o, c in zip((first, second), claimed, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(claimed[0] + claimed[1]) == sorted(set(claimed[0] + claimed[1]))
    assert len(claimed[0]) + len(claimed[1]) == 60


def test_addresses_checked() -> None:
    assert is_address("ann@example.org") and is_address("a.b+c@mail.example.co.uk")
    for bad in ("", "ann", "ann@", "@example.org", "ann@example", "a b@example.org", "a@example.org\nBcc: x",
                "x" * 250 + "@example.org", "Ann <ann@example.org>"):  # fmt: skip
        assert not is_address(bad), bad
    with pytest.raises(ValueError):
        SmtpSettings.parse("http://mail.example.org")
    with pytest.raises(ValueError):
        SmtpSettings.parse("smtp://mail.example.org?from=nobody")
    # docs/web.md's worked example, as written there.
    gmail = SmtpSettings.parse(
        "smtp://you%40gmail.com:abcdefghijklmnop@smtp.gmail.com:587?from=you@gmail.com"
    )
    assert (gmail.host, gmail.port, gmail.implicit_tls) == ("smtp.gmail.com", 587, False)
    assert (gmail.user, gmail.password, gmail.sender) == (
        "you@gmail.com",
        "abcdefghijklmnop",
        "you@gmail.com",
    )
    s = SmtpSettings.parse("smtps://me%40x.org:p%3Ass@mail.example.org?from=risk@x.org")
    assert (s.host, s.port, s.implicit_tls, s.user, s.password) == (
        "mail.example.org",
        465,
        True,
        "me@x.org",
        "p:ss",
    )


def test_the_api(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    _inbox, port = smtp
    storage = SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    app = create_app(storage, smtp=f"smtp://127.0.0.1:{port}")
    with TestClient(app) as client:
        seats = [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ]
        game = client.post("/api/games", json={"seats": seats})
        assert game.status_code == 201, game.text
        created = game.json()
        game_id = created["id"]
        token = created["seats"][0]["link"].split("#token=")[1]
        path = f"/api/games/{game_id}/notify"
        auth = {"Authorization": f"Bearer {token}"}
        for body, code in (
            ({"address": "not an address"}, "bad-request"),
            ({"address": "a@" + "x" * 300 + ".org"}, "bad-request"),
            ({"address": "ann@example.org", "pace": "hourly"}, "bad-request"),
            ({"address": "ann@example.org", "every_minutes": 0}, "bad-request"),
        ):
            answer = client.put(path + "/email", json=body, headers=auth)
            assert answer.status_code == 422 and answer.json()["error"]["code"] == code, answer.text
        answer = client.put(
            path + "/email", json={"address": "ann@example.org"}, headers={"Authorization": "Bearer nope"}
        )
        assert answer.status_code == 403
        answer = client.put(path + "/email", json={"address": "ann@example.org"})
        assert answer.status_code == 403
        shown = client.get(path, headers=auth).json()
        assert (shown["email_available"], shown["email"], shown["push_available"]) == (True, None, False)
        answer = client.put(
            path + "/email", json={"address": "ann@example.org", "every_minutes": 30}, headers=auth
        )
        assert answer.status_code == 200
        shown = answer.json()
        assert "ann@example.org" not in answer.text
        assert shown["email"] == {"pace": "each", "every_minutes": 30, "paused": False, "failures": 0}
        # The address is not in the game for anyone, nor in its state.
        assert "ann@example.org" not in client.get(f"/api/games/{game_id}").text
        sub = app.state.outbox.subscription(game_id, 0, "email")
        # The seat's token, kept for the links, is kept sealed: a copy of the database has no seat.
        assert sub.seat_token.startswith("sealed:") and token not in sub.seat_token
        assert app.state.notifier.seal.open(sub.seat_token) == token
        unsubscribe = f"/notify/unsubscribe/{sub.id}"
        assert client.get(unsubscribe).status_code == 200
        assert app.state.outbox.subscription(game_id, 0, "email") is not None  # a GET changes nothing
        assert client.post(unsubscribe).status_code == 200
        assert app.state.outbox.subscription(game_id, 0, "email") is None
        assert client.post(unsubscribe).status_code == 200  # the same answer, known or not
        client.put(path + "/email", json={"address": "ann@example.org", "pace": "digest"}, headers=auth)
        assert client.get(path, headers=auth).json()["email"]["pace"] == "digest"
        assert client.delete(path + "/email", headers=auth).json() == {"deleted": True}
        assert client.get(path, headers=auth).json()["email"] is None
    app = create_app(SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}"))  # no --smtp
    with TestClient(app) as client:
        answer = client.put(path + "/email", json={"address": "ann@example.org"}, headers=auth)
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "unavailable"


def test_a_sealed_token_opens_with_its_key_alone() -> None:
    seal, other = Seal.random(), Seal.random()
    sealed = seal.close("tok-en_123")
    assert sealed != seal.close("tok-en_123")  # a fresh nonce each time: equal tokens look different
    assert seal.open(sealed) == "tok-en_123" and other.open(sealed) == ""
    assert seal.open("a-token-stored-before-sealing") == "a-token-stored-before-sealing"
    sub = Subscription("s1", "G1", 0, "email", "ann@example.org", sealed, "http://risk.test/", 0.0, 0,
                       False, None, None)  # fmt: skip
    rows = [Queued(1, "G1:move:1:0:turn:s1", "move", "Game G1: it is your move (turn 1).", 0)]
    assert compose(sub, rows, seal.open(sub.seat_token)).link == "http://risk.test/game/G1#token=tok-en_123"
    assert compose(sub, rows, other.open(sub.seat_token)).link == "http://risk.test/game/G1"  # never the seal


def test_kill_9_with_messages_queued_each_is_sent_after_the_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    smtp_port, port = free_port(), free_port()
    options = ("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--smtp-retry", "0.5", "--no-rate-limits")
    with server(db, port, *options) as process:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob")] + [
            {"kind": "bot", "bot": "quick"}
        ]
        created = request(port, "POST", "/api/games", {"seats": seats})
        game_id = created["id"]
        tokens = [seat["link"].split("#token=")[1] for seat in created["seats"][:2]]
        for seat, address in enumerate(ADDRESSES):
            request(port, "PUT", f"/api/games/{game_id}/notify/email", {"address": address}, tokens[seat])
        deadline = time.monotonic() + 20
        storage = SqlStorage(db)
        outbox = Outbox(storage.engine)
        while not outbox.counts().get("queued") and time.monotonic() < deadline:
            time.sleep(0.1)  # the SMTP server is down: the message waits in the outbox
        assert outbox.counts().get("queued") == 1
        process.kill()  # SIGKILL
        process.wait(10)
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    try:
        with server(db, port, *options):
            deadline = time.monotonic() + 30
            while not inbox.messages and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(2)  # anything sent twice would be here by now
        assert len(inbox.messages) == 1
        assert "it is your move" in inbox.messages[0]["Subject"]
        assert outbox.counts() == {"sent": 1}
        seat = ADDRESSES.index(inbox.messages[0]["To"])
        assert f"/game/{game_id}#token={tokens[seat]}" in inbox.messages[0].get_content()
    finally:
        controller.stop()
        storage.close()


def test_a_sender_killed_while_sending_is_replaced_with_the_same_message_id(
    tmp_path: Path, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    t = table(tmp_path, port)
    t.notifier.sweep()
    t.notifier.flush()
    dead = Outbox(t.outbox.engine, origin="dead")
    [(sub, rows)] = dead.claim(t.clock.now).items()  # claimed, then the process died before sending
    expected = compose(sub, rows).message_id
    t.notifier.step()
    assert inbox.messages == []  # its lease has not run out: another sender may still be at it
    t.clock.now += LEASE_S + 1
    t.notifier.step()
    assert [m["Message-ID"] for m in inbox.messages] == [expected]
    assert t.outbox.counts() == {"sent": 1}


# -- the game's webhook ----------------------------------------------------------------------------
@dataclass
class Hook:
    """A local webhook endpoint: what it was sent, and the status it answers with."""

    posts: list[tuple[dict[str, str], dict[str, Any]]] = field(default_factory=list)
    status: int = 200
    url: str = ""


class Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        """Silent: the standard library's handler writes every request to stderr."""


@contextmanager
def local_http(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """An HTTP server of the test's on 127.0.0.1, in a thread: its base URL (http://127.0.0.1:PORT)."""
    endpoint = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=endpoint.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{endpoint.server_address[1]}"
    finally:
        endpoint.shutdown()
        endpoint.server_close()


@pytest.fixture
def hook() -> Iterator[Hook]:
    found = Hook()

    class Handler(Quiet):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            if found.status == 200:
                found.posts.append((dict(self.headers), json.loads(body)))
            self.send_response(found.status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    with local_http(Handler) as base:
        found.url = f"{base}/hooks/risk"
        yield found


def test_the_webhook_is_told_whose_move_it_is_and_the_end(tmp_path: Path, hook: Hook) -> None:
    """A JSON POST per event the game's spectators may know (whose move, the end), with the game's
    page and never a seat's token nor a seat's own news; refused posts are retried, and go once."""
    t = table(tmp_path, free_port(), emails=False, bot=False)
    t.outbox.subscribe(
        t.game_id, GAME, "webhook", address=hook.url, seat_token="", site="http://risk.test/",
        every_s=0.0, now=t.clock.now,
    )  # fmt: skip
    live = t.master.live(t.game_id)
    while live.game.turn == 0:
        assert hook.posts == []  # not each claim and placement of the setup
        play(t, 1)
    t.notifier.step()
    assert len(hook.posts) == 1
    name = ["Ann", "Bob", "Cid"][live.game.current]
    headers, body = hook.posts[0]
    assert headers["Content-Type"] == "application/json" and headers["Idempotency-Key"] == body["key"]
    assert body["content"] == body["text"] == f"Game {t.game_id}: it is {name}'s move (turn 1)."
    assert body["url"] == f"http://risk.test/game/{t.game_id}" and body["game"] == t.game_id
    assert body["events"] == [{"kind": "turn", "text": body["text"]}]
    # The endpoint fails for a while: nothing is lost, nothing is posted twice.
    hook.status = 500
    while live.game.turn == 1:  # to the next player's turn
        play(t, 1)
    assert len(hook.posts) == 1 and t.outbox.counts().get("queued", 0) >= 1
    hook.status = 200
    t.clock.now += 4000
    play(t, 120)
    keys = [body["key"] for _, body in hook.posts]
    assert len(keys) == len(set(keys)) and len(hook.posts) > 5
    seat_desk.resign(t.master, t.game_id, t.tokens[0])
    seat_desk.resign(t.master, t.game_id, t.tokens[2])
    t.clock.now += 1
    t.notifier.step()
    assert hook.posts[-1][1]["text"] == f"Game {t.game_id} is over: Bob won."
    for _headers, body in hook.posts:
        assert {event["kind"] for event in body["events"]} <= {"turn", "end"}
        assert not any(token in json.dumps(body) for token in t.tokens)
        assert " you " not in f" {body['text']} "  # never a seat's own news


def test_the_webhook_api(tmp_path: Path, hook: Hook) -> None:
    app = create_app(SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}"))
    with TestClient(app) as client:
        # The setup played for everyone at once: the webhook is told from the first turn.
        seats = [{"kind": "human", "name": "Ann", "auto_setup": True}] + [{"kind": "bot", "bot": "quick"}] * 2
        spec = {"seats": seats, "bot_delay": 0, "seed": 2, "options": {"setup": "deal"}}
        created = client.post("/api/games", json=spec).json()
        game_id, host, player = created["id"], created["host_token"], created["seats"][0]["token"]
        path = f"/api/games/{game_id}/notify/webhook"
        refused = [
            ("ftp://example.org/hook", "must start with https://"),
            ("https://user:secret@example.org/hook", "user name or password"),
            ("http://testserver/api/games", "this server itself"),
            ("http://0.0.0.0:8000/", "this server itself"),
            ("https://example.org/" + "x" * 2000, "at most 2000 characters"),
            ("https://exa mple.org/", "space"),
        ]
        for url, words in refused:
            answer = client.put(path, json={"url": url}, headers={"Authorization": f"Bearer {host}"})
            message = answer.json()["error"]["message"]
            assert answer.status_code == 422 and words in message, (url, answer.text)
            assert "secret" not in answer.text  # a refused URL is not said back
        # Only the host: a player's token, or none, is refused; nothing is stored.
        for token in (player, None):
            auth = {"Authorization": f"Bearer {token}"} if token else {}
            answer = client.put(path, json={"url": hook.url}, headers=auth)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "bad-token"
        assert client.get(path, headers={"Authorization": f"Bearer {host}"}).json() == {"webhook": None}
        answer = client.put(path, json={"url": hook.url}, headers={"Authorization": f"Bearer {host}"})
        assert answer.json() == {"webhook": {"set": True, "paused": False, "failures": 0}}
        assert hook.url not in answer.text
        shown = client.get(path, headers={"Authorization": f"Bearer {host}"}).json()
        assert shown == {"webhook": {"set": True, "paused": False, "failures": 0}}
        # Whose move it is goes out at once (the notifier runs in the app). The game waits for Ann's
        # defence (she is asked every roll) in the first turn: she rolls until the next turn, which
        # is told.
        ann = {"Authorization": f"Bearer {player}"}
        deadline = time.monotonic() + 30
        while (view := client.get(f"/api/games/{game_id}/view", headers=ann).json())["view"]["turn"] <= 1:
            assert time.monotonic() < deadline, "the first turn did not end"
            for move in view["legal"]:
                sent = {
                    "action": f"{move['text']} {move.get('max', '')}".strip(),
                    "state_id": view["state_id"],
                }
                client.post(f"/api/games/{game_id}/actions", json=sent, headers=ann)
                break
            else:
                time.sleep(0.05)
        deadline = time.monotonic() + 10
        while not hook.posts and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hook.posts and "'s move (turn " in hook.posts[0][1]["text"], hook.posts
        gone = client.delete(path, headers={"Authorization": f"Bearer {host}"}).json()
        assert gone == {"deleted": True}
        assert client.get(path, headers={"Authorization": f"Bearer {host}"}).json() == {"webhook": None}


def test_a_burst_goes_out_in_one_pass(tmp_path: Path) -> None:
    """More subscriptions due than one claim takes: claimed again at once, not one claim a second."""
    storage = SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    outbox, clock, sent = Outbox(storage.engine), Clock(), []

    class Collecting:
        name = "email"

        def send(self, message: Any) -> None:
            sent.append(message.to)

    notifier = Notifier(outbox, storage, [Collecting()], lambda _game: set(), clock=clock)
    master = GameMaster(storage, clock=clock)
    spec = GameSpec(
        seats=[SeatSpec("human", "Ann"), SeatSpec("human", "Bob"), SeatSpec("human", "Cid")], seed=1
    )
    games = [master.create_game(spec)[0].id for _ in range(45)]
    for i, game in enumerate(games):
        outbox.subscribe(game, 0, "email", address=f"p{i}@example.org", seat_token="", site="http://x/",
                         every_s=0.0, now=clock.now)  # fmt: skip
    notifier.add([Event(game, 0, "end", f"{game}:end:0", f"Game {game} is over.") for game in games])
    assert notifier.step() == 45 and len(set(sent)) == 45
