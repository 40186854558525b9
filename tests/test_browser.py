"""A person in a real browser: Debian's Chromium driven by Playwright against a real `risk serve`.

- creates a game against bots in the lobby and plays whole turns by clicking the board and the
  buttons (place, trade, attack, move in, fortify, end the phase);
- a second browser context joins a two-human game and sees the first player's moves live;
- the same at a phone's width.
Screenshots go to $RISK_SCREENSHOTS when it is set (the README's pictures come from there).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from live_server import free_port, request, server

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser(shared_chromium: Any) -> Iterator[Any]:
    """The run's Chromium (tests/chromium.py); the contexts a module's tests left open close with it."""
    yield shared_chromium
    for context in shared_chromium.contexts:
        context.close()


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    database = tmp_path_factory.mktemp("browser") / "games.sqlite3"
    number = free_port()
    with server(f"sqlite:///{database}", number):
        yield number


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("RISK_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


# Where a territory's army badge sits on the screen (the badge may be hidden while it is empty).
SCREEN_POINT = """async slug => {
  // Where the badge is once the map stands still (the page pans by itself as a step begins).
  const map = document.querySelector('.board-svg');
  for (let i = 0; map && map.classList.contains('panning') && i < 100; i++)
    await new Promise(r => setTimeout(r, 20));
  const badge = document.querySelector(`[data-armies="${slug}"]`);
  const m = badge.transform.baseVal.consolidate().matrix;
  const point = badge.ownerSVGElement.createSVGPoint();
  point.x = m.e;
  point.y = m.f;
  const screen = point.matrixTransform(badge.parentNode.getScreenCTM());
  return [screen.x, screen.y];
}"""


class Person:
    """Reads the board as a player would (their own view) and clicks."""

    def __init__(self, page: Any, port: int, game_id: str, token: str) -> None:
        self.page, self.port, self.game_id, self.token = page, port, game_id, token
        self.did: set[str] = set()
        self.did_turn: set[str] = set()  # what was done in the current turn

    def state(self) -> dict[str, Any]:
        return request(self.port, "GET", f"/api/games/{self.game_id}/view", token=self.token)

    def wait_for_my_turn(self, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if state["status"] == "over" or state["legal"]:
                # The page shows the same state once its own message has arrived.
                self.page.wait_for_function(
                    "id => document.body.dataset.stateId === String(id)",
                    arg=state["state_id"],
                    timeout=30_000,
                )
                return state
            time.sleep(0.05)
        raise AssertionError("it never became this player's turn")

    def click_territory(self, slug: str, modifiers: list[str] | None = None) -> None:
        """A click where a person aims: on the territory's army badge (the badge lets clicks through)."""
        x, y = self.in_view(slug)
        for key in modifiers or []:
            self.page.keyboard.down(key)
        self.page.mouse.click(x, y)
        for key in modifiers or []:
            self.page.keyboard.up(key)

    def in_view(self, slug: str) -> tuple[float, float]:
        """Where the territory is on the screen, after dragging the map to it when it is off the
        screen (a phone shows part of the board)."""
        for _ in range(6):
            x, y = self.page.evaluate(SCREEN_POINT, slug)
            box = self.page.locator(".board-svg").bounding_box()
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            if abs(x - cx) < box["width"] / 2 - 24 and abs(y - cy) < box["height"] / 2 - 24:
                return x, y
            dx = max(-box["width"] * 0.8, min(box["width"] * 0.8, cx - x))
            dy = max(-box["height"] * 0.8, min(box["height"] * 0.8, cy - y))
            self.page.mouse.move(cx - dx / 2, cy - dy / 2)
            self.page.mouse.down()
            self.page.mouse.move(cx + dx / 2, cy + dy / 2, steps=8)
            self.page.mouse.up()
        raise AssertionError(f"{slug} could not be brought into view")

    def click(self, selector: str) -> None:
        try:
            self.page.locator(selector).first.click(timeout=30_000)
        except playwright_api.TimeoutError:
            self.page.screenshot(
                path=str(Path(os.environ.get("RISK_SCREENSHOTS", "/tmp")) / "browser-failure.png")
            )
            raise

    def step(self, state: dict[str, Any]) -> None:
        """One decision, made by clicking."""
        view = state["view"]
        me = state["seat"]
        phase = view["phase"]
        legal = {g["text"]: g for g in state["legal"]}
        names = [t["name"] for t in view["territories"]]
        slug = {t["name"]: t["name"].lower().replace(" ", "-") for t in view["territories"]}
        mine = [t for t in view["territories"] if t["owner"] == me]
        if phase == "claim":
            target = next(text.split(" ", 1)[1] for text in legal if text.startswith("claim "))
            self.click_territory(target)
            self.did.add("claim")
        elif phase in ("setup-place",):
            target = next(text.split(" ")[1] for text in legal if text.startswith("place "))
            self.click_territory(target)
            self.did.add("setup")
        elif phase in ("reinforce", "elimination-trade") and any(t.startswith("trade ") for t in legal):
            # The button says what the best set gives, as the engine counts it (the view's set_values).
            best = max(entry["value"] for entry in view["set_values"])
            assert f"(+{best})" in self.page.locator("#trade-best").inner_text(timeout=30_000)
            self.click("#trade-best")
            self.did.add("trade")
        elif phase in ("reinforce", "elimination-trade"):
            # All on the strongest territory that borders an enemy.
            border = [
                t
                for t in mine
                if any(view["territories"][n]["owner"] != me for n in self.neighbours(t["name"]))
            ]
            target = max(border or mine, key=lambda t: t["armies"])
            if self.page.locator("#place-all").count():
                self.click("#place-all")
            self.click_territory(slug[target["name"]])
            self.did.add("place")
        elif phase == "attack":
            attacks = [
                (view["territories"][names.index(self.name_of(text.split()[1]))]["armies"], text)
                for text in legal
                if text.startswith("attack ")
            ]
            best = max(attacks, default=None)
            target_armies = None
            if best is not None:
                target_armies = view["territories"][names.index(self.name_of(best[1].split()[2]))]["armies"]
            if (
                best is not None
                and best[0] >= 4
                and best[0] > target_armies + 1
                and "attack" not in self.did_turn
            ):
                _, text = best
                _, source, target = text.split()
                self.click_territory(source)
                self.click_territory(target)
                self.page.locator("#odds").filter(has_text="%").wait_for(timeout=30_000)
                self.click("#blitz")
                self.did.add("attack")
                self.did_turn.add("attack")
                # The page attacks again and again on its own until the territory falls or it cannot go on.
                wait_until(lambda: self.blitz_over(source, target), what="the blitz to end", timeout=60)
                self.page.wait_for_selector("#stop-auto", state="detached", timeout=30_000)
            else:
                self.click("#end-phase")
        elif phase == "occupy":
            self.page.locator("#move-slider").wait_for(timeout=30_000)
            assert self.page.locator("#move-slider").input_value() == str(legal["move"]["max"])  # all but one
            self.click("#move-confirm")
            self.did.add("move")
        elif phase == "defend":
            self.click(f"#defend-{legal['defend']['max']}")
            self.did.add("defend")
        elif phase == "fortify":
            moves = [text for text in legal if text.startswith("fortify ")]
            if moves and "fortify" not in self.did_turn:
                move = max(moves, key=lambda text: legal[text]["max"])
                _, source, target = move.split()
                self.click_territory(source)
                self.click_territory(target)
                self.page.locator("#move-slider").wait_for(timeout=30_000)
                self.click("#move-confirm")
                self.did.add("fortify")
                self.did_turn.add("fortify")
            else:
                self.click("#end-phase")
        else:
            raise AssertionError(f"no click planned for phase {phase}: {list(legal)}")

    def blitz_over(self, source: str, target: str) -> bool:
        state = self.state()
        if state["status"] == "over" or state["view"]["phase"] == "occupy":
            return True
        if state["view"]["to_act"] != state["seat"]:
            return False  # a defender is choosing its dice: the battle goes on
        attack = f"attack {source} {target}"
        return not any(g["text"] == attack for g in state["legal"])

    def name_of(self, slug: str) -> str:
        return self._slugs[slug]

    def neighbours(self, name: str) -> list[int]:
        return self._neighbours[name]

    def load_board(self) -> None:
        board = request(self.port, "GET", "/api/boards/classic")["board"]
        self._slugs = {t["slug"]: t["name"] for t in board["territories"]}
        index = {t["name"]: i for i, t in enumerate(board["territories"])}
        self._neighbours = {t["name"]: [index[n] for n in t["neighbours"]] for t in board["territories"]}


def play(person: Person, turns: int, timeout: float = 480) -> None:
    """Play by clicking for ``turns`` of this player's turns (or to the end of the game)."""
    person.load_board()
    deadline = time.monotonic() + timeout
    played_turns, last_turn = 0, None
    while time.monotonic() < deadline:
        state = person.wait_for_my_turn()
        if state["status"] == "over":
            return
        turn = state["view"]["turn"]
        if state["view"]["phase"] == "reinforce" and turn != last_turn:
            if last_turn is not None:
                played_turns += 1
            last_turn = turn
            person.did_turn = set()
            if played_turns >= turns:
                return
        before = state["state_id"]
        person.step(state)
        wait_until(lambda b=before: person.state()["state_id"] > b, what="the click to be taken")
    raise AssertionError("ran out of time")


def wait_until(condition: Any, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited in vain for {what}")
        time.sleep(0.05)


def test_a_person_creates_a_game_and_plays_whole_turns(browser: Any, port: int) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    shot(page, "lobby-laptop")
    page.locator(".seat-row input[type=text]").first.fill("Ann")
    page.locator("summary", has_text="Table settings").click()
    page.locator("#bot-delay").fill("0")
    page.locator("#seed").fill("2024")
    # The rulebook's setup, claimed and placed by hand (the lobby's default is the quick start).
    page.click("#setup-claim")
    page.uncheck("#auto-place")
    page.click("#create-game")
    play_now = page.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    href = play_now.get_attribute("href")
    assert href is not None and "#token=" in href
    play_now.click()
    page.wait_for_url("**/game/**", timeout=30_000)
    game_id = href.split("/game/")[1].split("#")[0]
    token = href.split("#token=")[1]
    person = Person(page, port, game_id, token)
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    play(person, turns=7)
    shot(page, "board-laptop")
    assert {"claim", "setup", "place", "attack", "move", "fortify"} <= person.did, person.did
    assert "trade" in person.did or person.state()["status"] == "over", person.did
    assert page.locator("#log li").count() > 50
    assert errors == []
    context.close()


def test_a_friend_sees_moves_live_in_a_second_browser(browser: Any, port: int) -> None:
    created = request(
        port,
        "POST",
        "/api/games",
        {
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"}, {"kind": "bot", "bot": "quick"}],
            "seed": 77,
            "bot_delay": 0,
        },
    )
    game_id, token = created["id"], created["seats"][0]["token"]
    ann_context = browser.new_context(viewport=LAPTOP)
    bob_context = browser.new_context(viewport=LAPTOP)
    ann = ann_context.new_page()
    bob = bob_context.new_page()
    ann.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    # Bob takes the open seat from the lobby's list.
    bob.goto(f"http://127.0.0.1:{port}/")
    row = bob.locator("#open-games .join-name").first
    row.wait_for(timeout=30_000)
    row.fill("Bob")
    bob.locator("#open-games .join-button").first.click()
    bob.wait_for_url(f"**/game/{game_id}*", timeout=30_000)
    bob.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    summary = request(port, "GET", f"/api/games/{game_id}")
    assert summary["status"] == "playing" and summary["seats"][1]["name"] == "Bob"
    bob_token = bob.evaluate("() => location.hash.split('token=')[1] || ''")
    assert bob_token, "Bob's page holds no seat token"
    # Ann claims by clicking; Bob's page shows it without reloading. Then Bob, next in seat order,
    # claims in his page, and Ann's page shows that.
    ann_person, bob_person = Person(ann, port, game_id, token), Person(bob, port, game_id, bob_token)
    ann_person.load_board()
    for _ in range(3):
        for actor, seat, watcher in ((ann_person, "0", bob), (bob_person, "1", ann)):
            state = actor.wait_for_my_turn()
            target = next(
                g["text"].split(" ", 1)[1] for g in state["legal"] if g["text"].startswith("claim ")
            )
            actor.click_territory(target)
            watcher.locator(f'[data-armies="{target}"]').filter(has_text="1").wait_for(timeout=30_000)
            assert watcher.locator(f'[data-territory="{target}"]').get_attribute("data-owner") == seat
    shot(bob, "friend-laptop")
    ann_context.close()
    bob_context.close()


@pytest.mark.slow  # make test-all: tests/test_browser_phone.py plays a whole turn by taps at this width
def test_phone_width(browser: Any, port: int) -> None:
    created = request(
        port,
        "POST",
        "/api/games",
        {
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "bot", "bot": "quick"},
                {"kind": "bot", "bot": "continental"},
            ],
            "seed": 5,
            "bot_delay": 0,
        },
    )
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/")
    shot(page, "lobby-phone")
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page is {width} px wide on a {PHONE['width']} px phone"
    person = Person(page, port, created["id"], created["seats"][0]["token"])
    play(person, turns=1)
    assert "claim" in person.did and "setup" in person.did
    shot(page, "board-phone")
    context.close()


def test_a_long_game_sends_and_shows_its_newest_log_lines(browser: Any, port: int) -> None:
    """A game of thousands of log lines: a page opened on it is sent the newest 400 (the whole game
    is in its record) and shows them, numbered from the start of the whole log, the last one last."""
    from websockets.sync.client import connect

    bots = [{"kind": "bot", "name": f"Bot {n}", "bot": "quick"} for n in range(4)]
    created = request(port, "POST", "/api/games", {"seats": bots, "seed": 5, "bot_delay": 0})
    game_id = created["id"]
    deadline = time.monotonic() + 120
    while request(port, "GET", f"/api/games/{game_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.5)
    with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws") as socket:
        socket.send('{"type": "hello", "token": null}')
        state = json.loads(socket.recv(30))
    assert state["type"] == "state" and state["log_start"] > 0, "the game's log is too short for this test"
    whole = state["log_start"] + len(state["log"])
    assert len(state["log"]) == 400
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}")
    page.locator("#log li[data-index]").nth(399).wait_for(timeout=30_000)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('#log li[data-index]')]"
        ".map(li => [Number(li.dataset.index), li.querySelector('.log-text').textContent])"
    )
    assert [index for index, _ in shown] == list(range(whole - 400, whole))
    assert [text for _, text in shown] == [line["text"] for line in state["log"]]
    context.close()
