"""Quick match (docs/web.md, "Quick match"; issue 39 item 3): the rating range and how it widens; a
queue through the API (signed in, CSRF, each field's refusal); a match makes a rated game whose seats
are bound to the players' accounts, each told its own link; fair under concurrency (two server
"processes" on one database matching at once: no entry in two games) and across a restart (an entry
waits on; a claim whose game a stopped process never made is made by another)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import test_server_notify
from risk.server.app import create_app
from risk.server.quickmatch.queue import PACES, Waiting, form_groups, rating_range
from risk.server.quickmatch.store import PLACED, WAITING, Queue
from risk.server.sql import SqlStorage, accounts, quick_match, ratings
from risk.server.storage import MemoryStorage, Storage
from test_server_accounts import PASSWORD, CountingHasher, refused
from test_server_notify import Inbox

smtp = test_server_notify.smtp
LIVE = PACES["live"]


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# -- the queue's rule, alone -------------------------------------------------------------------------
def test_the_range_widens_as_a_player_waits_then_takes_anyone() -> None:
    assert rating_range(LIVE, 0) == LIVE.start
    assert rating_range(LIVE, LIVE.every_s - 0.1) == LIVE.start
    assert rating_range(LIVE, LIVE.every_s) == LIVE.start + LIVE.step
    assert rating_range(LIVE, 3 * LIVE.every_s + 1) == LIVE.start + 3 * LIVE.step
    assert rating_range(LIVE, LIVE.anyone_after_s) == float("inf")
    days = PACES["days"]
    assert rating_range(days, LIVE.anyone_after_s) == days.start  # a days queue widens slowly


def test_groups_take_the_nearest_ratings_within_everyones_range() -> None:
    now = 1000.0
    waiting = [
        Waiting(1, "a", 25.0, now - 1),  # waited longest: served first
        Waiting(2, "b", 40.0, now),  # far above: not in a's range yet
        Waiting(3, "c", 26.0, now),
        Waiting(4, "d", 23.5, now),
    ]
    groups = form_groups(waiting, 2, LIVE, now)
    assert [[m.entry for m in g] for g in groups] == [[1, 3]]  # c is nearer to a than d; b and d wait
    # Three of them: a, c and d fit (spread 2.5 is more than the start of 2: not yet)...
    assert form_groups(waiting, 3, LIVE, now) == []
    # ...they do once each has waited a step longer; b still does not.
    later = now + LIVE.every_s
    assert [sorted(m.entry for m in g) for g in form_groups(waiting, 3, LIVE, later)] == [[1, 3, 4]]
    # Past anyone_after_s, anyone: b too.
    assert len(form_groups(waiting, 4, LIVE, now + LIVE.anyone_after_s + 1)) == 1
    # Two players one of whom blocked the other are never put together.
    apart = {frozenset("ac")}
    groups = form_groups(waiting, 2, LIVE, now, apart)
    assert [[m.entry for m in g] for g in groups] == [[1, 4]]


def test_no_one_is_in_two_groups_and_no_group_has_an_account_twice() -> None:
    import random

    rng = random.Random(7)
    for trial in range(50):
        now = 5000.0
        waiting = [
            Waiting(i, f"acct{rng.randrange(12)}", rng.gauss(25, 6), now - rng.uniform(0, 200))
            for i in range(rng.randrange(2, 30))
        ]
        size = rng.choice((2, 3, 4, 6))
        groups = form_groups(waiting, size, LIVE, now)
        entries = [m.entry for g in groups for m in g]
        assert len(entries) == len(set(entries)), trial
        for group in groups:
            assert len(group) == size and len({m.account for m in group}) == size
            spread = max(m.mu for m in group) - min(m.mu for m in group)
            assert all(spread <= rating_range(LIVE, now - m.queued) for m in group)


# -- through the API ---------------------------------------------------------------------------------
def quick_app(storage: Storage | None = None, clock: Clock | None = None) -> Any:
    return create_app(
        storage or MemoryStorage(),
        password_hasher=CountingHasher(),
        sign_in_rate=None,
        clock=clock or Clock(),
    )


def signed_up(app: Any, name: str) -> tuple[TestClient, str]:
    c = TestClient(app, base_url="http://testserver")
    answer = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return c, answer.json()["csrf"]


def signed_in(app: Any, name: str) -> tuple[TestClient, str]:
    c = TestClient(app, base_url="http://testserver")
    answer = c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return c, answer.json()["csrf"]


def queue(c: TestClient, csrf: str, **body: Any) -> dict[str, Any]:
    answer = c.post("/api/quickmatch", json=body, headers={"X-CSRF-Token": csrf})
    assert answer.status_code == 201, answer.text
    entry: dict[str, Any] = answer.json()["entry"]
    return entry


def entries(c: TestClient) -> list[dict[str, Any]]:
    answer = c.get("/api/quickmatch")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["entries"]
    return found


def test_two_players_queue_and_meet_in_a_rated_game_of_their_own() -> None:
    app = quick_app()
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    first = queue(ann, ann_csrf, game="two-player", players=2, pace="live")
    assert first["status"] == WAITING and first["range"] == LIVE.start and first["waiting"] == 1
    assert app.state.quick_match.step() == []  # one player: no game
    queue(bob, bob_csrf, game="two-player", players=2, pace="live")
    made = app.state.quick_match.step()
    assert len(made) == 1
    game_id = made[0]
    (ann_entry,), (bob_entry,) = entries(ann), entries(bob)
    assert ann_entry["status"] == bob_entry["status"] == PLACED
    assert ann_entry["game_id"] == bob_entry["game_id"] == game_id
    assert {ann_entry["seat"], bob_entry["seat"]} == {0, 1}
    assert ann_entry["link"] == f"/game/{game_id}#token={ann_entry['token']}"
    assert ann_entry["token"] != bob_entry["token"]
    summary = ann.get(f"/api/games/{game_id}").json()
    assert summary["rated"] is True
    assert sorted(p["name"] for p in summary["seats"]) == ["Ann", "Bob"]
    # Each seat is bound to its account: its link acts with its own session only.
    view = ann.get(f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {ann_entry['token']}"})
    assert view.status_code == 200 and view.json()["seat"] == ann_entry["seat"]
    stolen = bob.get(f"/api/games/{game_id}/view", headers={"Authorization": f"Bearer {ann_entry['token']}"})
    assert refused(stolen, 403, "account-seat")
    seats = ann.get("/api/account/seats").json()["seats"]
    assert [(s["game"], s["seat"]) for s in seats] == [(game_id, ann_entry["seat"])]
    # Nothing more is made: both entries are placed.
    assert app.state.quick_match.step() == []


def test_the_queue_refuses_bad_values_beside_their_field_and_needs_a_session() -> None:
    app = quick_app()
    ann, csrf = signed_up(app, "Ann")
    for body, field in (
        ({"game": "chess"}, "game"),
        ({"pace": "weekly"}, "pace"),
        ({"game": "two-player", "players": 3}, "players"),
        ({"game": "world", "players": 11}, "players"),
        ({"game": "team", "players": 5}, "players"),
    ):
        answer = ann.post("/api/quickmatch", json=body, headers={"X-CSRF-Token": csrf})
        assert refused(answer, 422, "bad-field", field), body
    assert refused(
        ann.post("/api/quickmatch", json={"players": "2"}, headers={"X-CSRF-Token": csrf}), 422, "bad-request"
    )
    assert refused(ann.post("/api/quickmatch", json={}), 403, "csrf")
    guest = TestClient(app, base_url="http://testserver")
    assert refused(guest.post("/api/quickmatch", json={}, headers={"X-CSRF-Token": "x"}), 401, "signed-out")
    assert refused(guest.get("/api/quickmatch"), 401, "signed-out")
    assert entries(ann) == []  # nothing was queued


def test_one_entry_a_queue_one_live_queue_and_leaving() -> None:
    app = quick_app()
    ann, csrf = signed_up(app, "Ann")
    first = queue(ann, csrf, game="world", players=3, pace="live")
    again = queue(ann, csrf, game="world", players=3, pace="live")
    assert again["id"] == first["id"]  # the same queue again: the same entry
    answer = ann.post(
        "/api/quickmatch",
        json={"game": "world", "players": 4, "pace": "live"},
        headers={"X-CSRF-Token": csrf},
    )
    assert "live" in refused(answer, 422, "bad-request")
    queue(ann, csrf, game="world", players=4, pace="days")
    queue(ann, csrf, game="capital", players=3, pace="days")
    answer = ann.post(
        "/api/quickmatch",
        json={"game": "world", "players": 5, "pace": "days"},
        headers={"X-CSRF-Token": csrf},
    )
    assert "queues" in refused(answer, 422, "bad-request")
    left = ann.delete(f"/api/quickmatch/{first['id']}", headers={"X-CSRF-Token": csrf})
    assert left.status_code == 200 and first["id"] not in [e["id"] for e in left.json()["entries"]]
    assert refused(
        ann.delete(f"/api/quickmatch/{first['id']}", headers={"X-CSRF-Token": csrf}), 404, "not-found"
    )
    # Another account cannot end someone's entry.
    bob, bob_csrf = signed_up(app, "Bob")
    days = next(e for e in entries(ann) if e["players"] == 4)
    assert refused(
        bob.delete(f"/api/quickmatch/{days['id']}", headers={"X-CSRF-Token": bob_csrf}), 404, "not-found"
    )
    assert days["id"] in [e["id"] for e in entries(ann)]


def test_a_strong_player_meets_a_new_one_only_after_waiting() -> None:
    clock = Clock()
    app = quick_app(clock=clock)
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    # Ann's rating as a player far above a new one's mu (25).
    with app.state.ratings.engine.begin() as connection:
        ann_id = connection.execute(accounts.select().where(accounts.c.name == "Ann")).first().id
        connection.execute(
            ratings.insert().values(
                account_id=ann_id, family="two-player", pace="live", mu=33.0, sigma=2.0, games=40, updated=0.0
            )
        )
    queue(ann, ann_csrf, game="two-player", players=2, pace="live")
    queue(bob, bob_csrf, game="two-player", players=2, pace="live")
    steps = 0
    while not app.state.quick_match.step():
        clock.now += 1.0
        steps += 1
        assert steps < LIVE.anyone_after_s + 2
    # 8 apart: a range of 2 widening by 2 a step of 10 s reaches 8 after 30 s.
    assert steps == 30


# -- fair under concurrency, and across a restart ------------------------------------------------------
def test_two_processes_matching_at_once_put_no_entry_in_two_games(storage_url: str) -> None:
    """Two apps on one database (as two server processes), each matching from four threads at once,
    while 24 players queue: every entry is in exactly one game, every game is whole."""
    clock = Clock()
    storages = [SqlStorage(storage_url), SqlStorage(storage_url)]
    apps = [quick_app(s, clock) for s in storages]
    try:
        players = [signed_up(apps[i % 2], f"Player{i}") for i in range(24)]
        clock.now += LIVE.anyone_after_s  # everyone in range of everyone: as many games as can be
        made: list[str] = []
        errors: list[BaseException] = []

        def match(app: Any) -> None:
            try:
                for _ in range(5):
                    made.extend(app.state.quick_match.step())
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=match, args=(apps[i % 2],)) for i in range(8)]
        for c, csrf in players:  # the joins come while both match
            queue(c, csrf, game="world", players=3, pace="days")
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        made.extend(apps[0].state.quick_match.step())
        assert len(made) == len(set(made)) == 8
        seen: dict[str, int] = {}
        for c, _ in players:
            (entry,) = entries(c)
            assert entry["status"] == PLACED
            seen[entry["game_id"]] = seen.get(entry["game_id"], 0) + 1
        assert sorted(seen) == sorted(made) and set(seen.values()) == {3}
    finally:
        for storage in storages:
            storage.close()


def test_an_entry_waits_across_a_restart_and_a_half_made_match_is_finished(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    clock = Clock()
    storage = SqlStorage(url)
    app = quick_app(storage, clock)
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    cat, cat_csrf = signed_up(app, "Cat")
    signed_up(app, "Dan")
    queue(ann, ann_csrf, game="two-player", players=2, pace="days")
    queue(bob, bob_csrf, game="two-player", players=2, pace="days")
    # A process claims Ann and Bob for a game and stops before making it.
    quick = app.state.quick_match
    waiting = quick.store.waiting(Queue("two-player", 2, "days"), "two-player")
    assert quick.store.claim(
        "halfmade", [(w.entry, quick.seal.close(f"token{w.entry}")) for w in waiting], clock()
    )
    queue(cat, cat_csrf, game="two-player", players=2, pace="days")
    storage.close()

    # Restarted (a new app on the same database, with the same key for the sealed tokens).
    storage = SqlStorage(url)
    again = quick_app(storage, clock)
    again.state.quick_match.seal = quick.seal
    dan = signed_in(again, "Dan")
    cat = signed_in(again, "Cat")
    assert entries(cat[0])[0]["status"] == WAITING  # Cat waits on
    queue(*dan, game="two-player", players=2, pace="days")
    made = again.state.quick_match.step()
    assert len(made) == 1 and made[0] != "halfmade"  # Cat and Dan; the half-made game not yet...
    clock.now += 31.0
    assert again.state.quick_match.step() == ["halfmade"]  # ...until its claim is old enough
    ann = signed_in(again, "Ann")
    (entry,) = entries(ann[0])
    assert entry["game_id"] == "halfmade" and entry["token"] == f"token{entry['id']}"
    view = ann[0].get("/api/games/halfmade/view", headers={"Authorization": f"Bearer {entry['token']}"})
    assert view.status_code == 200 and view.json()["seat"] == entry["seat"]
    storage.close()


def test_players_one_of_whom_blocked_the_other_are_never_matched() -> None:
    clock = Clock()
    app = quick_app(clock=clock)
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    cat, cat_csrf = signed_up(app, "Cat")
    blocked = bob.post("/api/account/blocks", json={"name": "Ann"}, headers={"X-CSRF-Token": bob_csrf})
    assert blocked.status_code in (200, 201), blocked.text
    queue(ann, ann_csrf, game="two-player", players=2, pace="live")
    queue(bob, bob_csrf, game="two-player", players=2, pace="live")
    clock.now += LIVE.anyone_after_s  # any rating will do: the block alone keeps them apart
    assert app.state.quick_match.step() == []
    queue(cat, cat_csrf, game="two-player", players=2, pace="live")
    (game_id,) = app.state.quick_match.step()
    players = {s["name"] for s in ann.get(f"/api/games/{game_id}").json()["seats"]}
    assert players == {"Ann", "Cat"}  # Ann waited longest: served first, with Cat
    assert entries(bob)[0]["status"] == WAITING


def test_the_export_lists_the_entries_and_deleting_the_account_takes_them_and_its_ratings(
    storage: Storage,
) -> None:
    app = quick_app(storage)
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    queue(ann, ann_csrf, game="two-player", players=2, pace="live")
    queue(bob, bob_csrf, game="two-player", players=2, pace="live")
    (game_id,) = app.state.quick_match.step()
    (bob_entry,) = entries(bob)
    resigned = bob.post(
        f"/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {bob_entry['token']}"}
    )
    assert resigned.status_code == 200, resigned.text
    assert [row["name"] for row in ann.get("/api/ratings?family=two-player&pace=live").json()["players"]] == [
        "Ann",
        "Bob",
    ]
    export = ann.get("/api/account/export").json()
    assert [(e["game"], e["status"], e["game_id"]) for e in export["quick_match"]] == [
        ("two-player", PLACED, game_id)
    ]
    assert "token" not in export["quick_match"][0]
    deleted = ann.post("/api/account/delete", json={"password": PASSWORD}, headers={"X-CSRF-Token": ann_csrf})
    assert deleted.status_code == 200, deleted.text
    assert [row["name"] for row in bob.get("/api/ratings?family=two-player&pace=live").json()["players"]] == [
        "Bob"
    ]
    assert refused(bob.get("/api/players/Ann"), 404, "not-found")
    with app.state.ratings.engine.connect() as connection:
        left = connection.execute(quick_match.select()).mappings().all()
    assert [row["id"] for row in left] == [bob_entry["id"]]  # Ann's entry went with her account


def test_a_days_match_tells_its_players_by_e_mail(tmp_path: Path, smtp: tuple[Inbox, int]) -> None:
    """A game quick match makes at the days pace subscribes each player whose account has an e-mail
    address: the one to move is told, with their own seat's link, without opening the game."""
    inbox, port = smtp
    storage = SqlStorage(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    app = create_app(
        storage, smtp=f"smtp://127.0.0.1:{port}", password_hasher=CountingHasher(), sign_in_rate=None
    )
    # One client (the app's loops run in its event loop), each player's session cookie in turn.
    with TestClient(app, base_url="http://testserver") as client:
        jars: dict[str, Any] = {}
        csrf = {}
        for name in ("Ann", "Bob"):
            client.cookies.clear()
            body = {"name": name, "password": PASSWORD, "email": f"{name.lower()}@example.org"}
            answer = client.post("/api/account/signup", json=body)
            assert answer.status_code == 200, answer.text
            csrf[name], jars[name] = answer.json()["csrf"], dict(client.cookies)

        def as_player(name: str) -> TestClient:
            client.cookies.clear()
            client.cookies.update(jars[name])
            return client

        for name in ("Ann", "Bob"):
            queue(as_player(name), csrf[name], game="two-player", players=2, pace="days")
        deadline = time.monotonic() + 30
        while not all(e["status"] == PLACED for name in jars for e in entries(as_player(name))):
            assert time.monotonic() < deadline, "no match within 30 s"
            time.sleep(0.1)
        by_seat = {}
        for name in jars:
            (entry,) = entries(as_player(name))
            by_seat[entry["seat"]] = (name, entry)
        game_id = by_seat[0][1]["game_id"]
        moves: list[Any] = []
        while not moves:  # the player to move is told
            assert time.monotonic() < deadline + 30, "no e-mail within 30 s"
            time.sleep(0.2)
            moves = [m for m in inbox.messages if "your move" in m["Subject"]]
        message = moves[0]
        seat, (name, entry) = next(
            (s, p) for s, p in by_seat.items() if message["To"] == f"{p[0].lower()}@example.org"
        )
        assert f"/game/{game_id}#token={entry['token']}" in message.get_body(("plain",)).get_content()
        assert app.state.outbox.subscription(game_id, 1 - seat, "email") is not None  # the other one too
    storage.close()


def test_the_rematch_of_a_quick_match_is_bound_and_rated_as_it_was() -> None:
    app = quick_app()
    ann, ann_csrf = signed_up(app, "Ann")
    bob, bob_csrf = signed_up(app, "Bob")
    queue(ann, ann_csrf, game="two-player", players=2, pace="live")
    queue(bob, bob_csrf, game="two-player", players=2, pace="live")
    (game_id,) = app.state.quick_match.step()
    (ann_entry,), (bob_entry,) = entries(ann), entries(bob)
    bob_auth = {"Authorization": f"Bearer {bob_entry['token']}"}
    assert bob.post(f"/api/games/{game_id}/resign", headers=bob_auth).status_code == 200
    again = ann.post(
        f"/api/games/{game_id}/rematch", headers={"Authorization": f"Bearer {ann_entry['token']}"}
    )
    assert again.status_code in (200, 201), again.text
    rematch = again.json()["id"]
    assert ann.get(f"/api/games/{rematch}").json()["rated"] is True
    # The same links play the rematch, each for its own account alone.
    assert bob.get(f"/api/games/{rematch}/view", headers=bob_auth).status_code == 200
    assert refused(ann.get(f"/api/games/{rematch}/view", headers=bob_auth), 403, "account-seat")
    assert bob.post(f"/api/games/{rematch}/resign", headers=bob_auth).status_code == 200
    board = ann.get("/api/ratings?family=two-player&pace=live").json()["players"]
    assert {row["name"]: row["games"] for row in board} == {"Ann": 2, "Bob": 2}  # both games rated


def reference_groups(waiting: list[Waiting], size: int, now: float) -> list[tuple[Waiting, ...]]:
    """The rule as written, the slow way (every other player sorted by distance for each first one)."""
    order = sorted(waiting, key=lambda w: (w.queued, w.entry))
    ranges = {w.entry: rating_range(LIVE, now - w.queued) for w in order}
    used: set[int] = set()
    groups = []
    for first in order:
        if first.entry in used:
            continue
        group = [first]
        nearest = sorted(
            (w for w in order if w.entry not in used and w.entry != first.entry),
            key=lambda w: (abs(w.mu - first.mu), w.queued, w.entry),
        )
        for candidate in nearest:
            members = [*group, candidate]
            spread = max(m.mu for m in members) - min(m.mu for m in members)
            fits = spread <= min(ranges[m.entry] for m in members)
            if len(group) < size and fits and all(candidate.account != m.account for m in group):
                group.append(candidate)
        if len(group) == size:
            groups.append(tuple(group))
            used.update(m.entry for m in group)
    return groups


def test_the_groups_are_the_rules_and_a_long_queue_far_apart_is_cheap() -> None:
    import random

    rng = random.Random(11)
    for trial in range(300):
        now = 5000.0
        waiting = [
            Waiting(
                i,
                f"acct{rng.randrange(20)}",
                rng.choice((25.0, 25.0, 27.0, rng.gauss(25, 4))),  # many alike: new players are all 25
                now - rng.choice((0.0, 5.0, rng.uniform(0, 120))),
            )
            for i in range(rng.randrange(2, 40))
        ]
        size = rng.choice((2, 3, 4, 6))
        assert form_groups(waiting, size, LIVE, now) == reference_groups(waiting, size, now), trial
    far_apart = [Waiting(i, f"a{i}", i * 10.0, 1000.0) for i in range(5000)]
    assert form_groups(far_apart, 4, LIVE, 1000.0) == []  # each looks at its neighbours alone
