"""Ratings (docs/web.md, "Ratings"; issue 39 item 4): the finishing order of real games (the winner,
those knocked out, the last out first; a resignation below everyone who played on), OpenSkill's update
and its damping for the same players again and again; a rated game rated once when it ends (through
the API, with accounts), not rated when a seat has no account of its own, refused with a bot seat;
the leaderboard and a player's profile."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from risk.bots import make_bot
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.server.app import create_app
from risk.server.ratings.model import MU, Rating, family_of, finishing_order, pace_of, rate
from risk.server.ratings.store import RatingStore
from risk.server.storage import MemoryStorage, Storage
from risk.view import View
from test_server_accounts import PASSWORD, CountingHasher, refused


def played_out(
    rules: str, players: int, seed: int, resign: dict[int, int] | None = None
) -> tuple[Game, list[int]]:
    """A game of quick bots to its end (``resign``: seat -> the action count at which it resigns);
    the seats in the order they went out."""
    game = Game(Rules.from_description(rules), players, seed=seed)
    bots = [make_bot("quick", seed * 10 + seat) for seat in range(players)]
    out: list[int] = []
    steps = 0
    while not game.is_over and steps < 20_000:
        seat = game.to_act
        if resign and resign.get(seat) == steps and game.alive[seat]:
            game.apply(f"resign {seat}")
        else:
            game.apply(bots[seat].choose(View(game, seat)))
        steps += 1
        out += [s for s in range(game.humans) if not game.alive[s] and s not in out]
    assert game.is_over
    return game, out


def test_the_finishing_order_of_whole_games() -> None:
    for seed in range(4):
        game, out = played_out("2008", 4, seed)
        places = finishing_order(game)
        winner = game.outcome().winners[0]  # type: ignore[union-attr]
        assert places[winner] == 1
        # Knocked out: the last one out just below the winner, the first one out last.
        assert [places[seat] for seat in reversed(out)] == list(range(2, 2 + len(out))), (out, places)


def test_a_resignation_ranks_below_everyone_who_played_on() -> None:
    game, out = played_out("2008", 4, seed=1, resign={2: 30})
    places = finishing_order(game)
    assert out[0] == 2  # resigned first
    assert places[2] == max(places)
    assert sorted(places) == [1, 2, 3, 4]
    # A seat a stand-in bot played at the end counts as gone too, whatever the bot did for it.
    winner = game.outcome().winners[0]  # type: ignore[union-attr]
    left = next(seat for seat in range(4) if seat not in (winner, 2))
    with_left = finishing_order(game, left=[left])
    assert with_left[left] > with_left[next(s for s in range(4) if s not in (winner, 2, left))]


def test_the_update_moves_winners_up_and_damping_moves_less() -> None:
    fresh = [Rating(), Rating(), Rating()]
    after = rate(fresh, [1, 2, 3])
    assert after[0].mu > MU > after[2].mu and all(
        a.sigma < b.sigma for a, b in zip(after, fresh, strict=True)
    )
    assert [a.games for a in after] == [1, 1, 1]
    half = rate(fresh, [1, 2, 3], damping=[0.5, 0.5, 0.5])
    assert half[0].mu - MU == pytest.approx(0.5 * (after[0].mu - MU))
    teams = rate([Rating()] * 4, [1, 2, 1, 2], teams=[0, 1, 0, 1])
    assert teams[0] == teams[2] and teams[0].mu > MU > teams[1].mu
    assert Rating().conservative == 0.0 or abs(Rating().conservative) < 1e-9
    assert family_of(Rules.from_description("2008 game=secret-mission")) == "secret-mission"
    assert (pace_of(0), pace_of(600), pace_of(86_400)) == ("live", "live", "days")


# -- through the API: accounts meet in a rated game ----------------------------------------------------
def app_client(storage: Any = None) -> TestClient:
    app = create_app(storage or MemoryStorage(), password_hasher=CountingHasher(), sign_in_rate=None)
    return TestClient(app, base_url="http://testserver")


def player(app: Any, name: str) -> tuple[TestClient, str]:
    c = TestClient(app, base_url="http://testserver")
    answer = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return c, answer.json()["csrf"]


def rated_game(c: TestClient, names: list[str], rated: bool = True) -> tuple[str, list[str]]:
    body = {
        "game": "two-player",
        "seats": [{"kind": "human", "name": n} for n in names],
        "seed": random.Random(len(names)).randrange(1000),
        "bot_delay": 0,
        "rated": rated,
    }
    answer = c.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game = answer.json()
    return game["id"], [s["token"] for s in game["seats"]]


def bind(c: TestClient, csrf: str, game_id: str, token: str) -> None:
    answer = c.post(
        "/api/account/seats",
        json={"seats": [{"game": game_id, "token": token}]},
        headers={"X-CSRF-Token": csrf},
    )
    assert "error" not in answer.json()["seats"][0], answer.text


def resign(c: TestClient, game_id: str, token: str) -> None:
    answer = c.post(f"/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text


def test_two_accounts_play_a_rated_game_and_both_ratings_move(storage: Storage) -> None:
    """On every store: memory, SQLite, PostgreSQL."""
    with app_client(storage) as host:
        ann, ann_csrf = player(host.app, "Ann")
        bob, bob_csrf = player(host.app, "Bob")
        game_id, (ann_token, bob_token) = rated_game(host, ["Ann", "Bob"])
        assert host.get(f"/api/games/{game_id}").json()["rated"] is True
        bind(ann, ann_csrf, game_id, ann_token)
        bind(bob, bob_csrf, game_id, bob_token)
        resign(bob, game_id, bob_token)  # Bob resigns: Ann wins
        board = host.get("/api/ratings", params={"family": "two-player", "pace": "live"}).json()["players"]
        assert [row["name"] for row in board] == ["Ann", "Bob"]
        assert board[0]["mu"] > MU > board[1]["mu"] and all(row["games"] == 1 for row in board)
        profile = host.get("/api/players/ann").json()
        assert profile["name"] == "Ann" and "email" not in str(profile)
        assert profile["ratings"][0]["family"] == "two-player"
        assert profile["history"][0]["game"] == game_id and profile["history"][0]["place"] == 1
        assert profile["history"][0]["damping"] == 1.0
        assert profile["games"][0]["game"] == game_id

        # The same two again within a day: the second game moves the ratings half as much.
        second, (ann_token2, bob_token2) = rated_game(host, ["Ann", "Bob"])
        bind(ann, ann_csrf, second, ann_token2)
        bind(bob, bob_csrf, second, bob_token2)
        resign(bob, second, bob_token2)
        history = host.get("/api/players/Bob").json()["history"]
        assert [h["damping"] for h in history] == [1.0, 0.5]
        assert history[1]["mu"] < history[0]["mu"]

        # Rated once: the hook called again for an ended game changes nothing.
        store: RatingStore = host.app.state.ratings  # type: ignore[attr-defined]
        master = host.app.state.master  # type: ignore[attr-defined]
        hooks = next(h for h in master.hooks if type(h).__name__ == "RatingHooks")
        live = master.live(second)
        hooks.rate(live.record, live.game)
        named = store.account_named("bob")
        assert named is not None and len(store.profile(named[0])["history"]) == 2
        refused(host.get("/api/players/nobody"), 404, "not-found")


def test_a_profile_lists_no_private_game() -> None:
    with app_client() as host:
        ann, ann_csrf = player(host.app, "Ann")
        body = {
            "game": "two-player",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        }
        listed = host.post("/api/games", json=body).json()
        private = host.post("/api/games", json=body | {"public": False}).json()
        hidden = host.post("/api/games", json=body | {"spectators": False}).json()
        for game in (listed, private, hidden):
            bind(ann, ann_csrf, game["id"], game["seats"][0]["token"])
        shown = host.get("/api/players/Ann").json()["games"]
        assert [g["game"] for g in shown] == [listed["id"]]
        assert private["id"] not in str(shown) and hidden["id"] not in str(shown)
        # The player's own list (signed in) has them all.
        assert len(ann.get("/api/account/seats").json()["seats"]) == 3


def test_a_rated_game_with_a_seat_without_an_account_is_not_rated() -> None:
    with app_client() as host:
        ann, ann_csrf = player(host.app, "Ann")
        game_id, (ann_token, bob_token) = rated_game(host, ["Ann", "Bob"])
        bind(ann, ann_csrf, game_id, ann_token)  # Bob plays as a guest
        resign(host, game_id, bob_token)
        assert host.get("/api/ratings", params={"family": "two-player"}).json()["players"] == []
        assert host.get("/api/players/Ann").json()["history"] == []


def test_a_game_not_marked_rated_changes_no_rating() -> None:
    with app_client() as host:
        ann, ann_csrf = player(host.app, "Ann")
        bob, bob_csrf = player(host.app, "Bob")
        game_id, (ann_token, bob_token) = rated_game(host, ["Ann", "Bob"], rated=False)
        bind(ann, ann_csrf, game_id, ann_token)
        bind(bob, bob_csrf, game_id, bob_token)
        resign(bob, game_id, bob_token)
        assert host.get("/api/ratings", params={"family": "two-player"}).json()["players"] == []


def test_one_account_takes_one_seat_of_a_rated_game() -> None:
    with app_client() as host:
        ann, ann_csrf = player(host.app, "Ann")
        game_id, tokens = rated_game(host, ["Ann", "Bob"])
        bind(ann, ann_csrf, game_id, tokens[0])
        answer = ann.post(
            "/api/account/seats",
            json={"seats": [{"game": game_id, "token": tokens[1]}]},
            headers={"X-CSRF-Token": ann_csrf},
        ).json()["seats"][0]
        assert "one seat each" in answer["error"]["message"]
        # In a game that is not rated, one browser may hold two seats (a game at one table).
        casual, casual_tokens = rated_game(host, ["Ann", "Bob"], rated=False)
        bind(ann, ann_csrf, casual, casual_tokens[0])
        bind(ann, ann_csrf, casual, casual_tokens[1])


def test_a_rated_game_is_people_only() -> None:
    with app_client() as host:
        body = {
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "bot", "bot": "quick"},
                {"kind": "human", "name": "Bob"},
            ],
            "rated": True,
        }
        assert "people only" in refused(host.post("/api/games", json=body), 422, "bad-request")


# -- open games: a rated game's seat is taken signed in; the host starts a casual one with bots -------
def test_a_rated_games_open_seat_is_taken_signed_in_and_bound() -> None:
    with app_client() as host:
        body = {
            "game": "two-player",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}],
            "rated": True,
        }
        game = host.post("/api/games", json=body).json()
        guest = TestClient(host.app, base_url="http://testserver")
        refused(
            guest.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "Bob"}), 401, "signed-out"
        )
        bob, _ = player(host.app, "Bob")
        joined = bob.post(f"/api/games/{game['id']}/join", json={"seat": 1, "name": "Bob"})
        assert joined.status_code == 200, joined.text
        token = joined.json()["token"]
        # Bound at once: the link alone does not open it; Bob's session does.
        refused(
            guest.get(f"/api/games/{game['id']}/view", headers={"Authorization": f"Bearer {token}"}),
            403,
            "account-seat",
        )
        assert (
            bob.get(f"/api/games/{game['id']}/view", headers={"Authorization": f"Bearer {token}"}).json()[
                "seat"
            ]
            == 1
        )
        assert host.get(f"/api/games/{game['id']}").json()["status"] == "playing"
        # The host cannot fill a rated game with bots.
        rated = host.post("/api/games", json=body).json()
        start = host.post(
            f"/api/games/{rated['id']}/start",
            json={},
            headers={"Authorization": f"Bearer {rated['host_token']}"},
        )
        assert "people only" in refused(start, 422, "bad-request")


def test_the_host_starts_a_waiting_game_with_bots() -> None:
    with app_client() as host:
        body = {
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "open"}],
            "bot_delay": 0,
        }
        game = host.post("/api/games", json=body).json()
        path = f"/api/games/{game['id']}/start"
        refused(host.post(path, json={}), 403, "bad-token")
        refused(
            host.post(path, json={}, headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}),
            403,
            "bad-token",
        )
        hosted = {"Authorization": f"Bearer {game['host_token']}"}
        refused(host.post(path, json={"bot": "nonsense"}, headers=hosted), 422, "bad-request")
        started = host.post(path, json={"bot": "easy"}, headers=hosted)
        assert started.status_code == 200, started.text
        seats = started.json()["seats"]
        assert [s["kind"] for s in seats] == ["human", "bot", "bot"] and seats[1]["bot"] == "easy"
        assert started.json()["status"] == "playing"
        refused(host.post(path, json={}, headers=hosted), 409, "seat-taken")
