"""The view the board page chooses by itself (issue 37, items 1 and 5), in a real browser at the three
sizes people play at: a phone held upright (390x844, touch), the same phone on its side (844x390) and
a laptop (1366x768).

At the zoom the page chooses (no pinch, no wheel, no button), through the setup and a whole turn:
every army count on screen is at least 11 CSS px; the zoom never changes by itself (the map only
pans); each step frames what it needs (the player's bordering territories while placing, as many as
any window of that size could show; the attacker and its target); a tap beside the smallest
territory still takes it; the page never scrolls. "Show my territories" pans to them and rings them.
"""

from __future__ import annotations

from typing import Any

import pytest

from live_server import request
from test_browser import LAPTOP, PHONE, browser, playwright_api, port, shot, wait_until
from test_browser_phone import Finger
from whole_turn import PagePlayer, play_a_whole_turn

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

LANDSCAPE = {"width": 844, "height": 390}
MIN_COUNT_PX = 11

# What the map shows: its view box, and each badge's place (board units), screen point and count size.
MAP = """async () => {
  // As the screen shows it: after a frame (a map resized by the sheet below it gets its view box then).
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const map = document.querySelector('.board-svg');
  for (let i = 0; map.classList.contains('panning') && i < 100; i++)
    await new Promise(r => setTimeout(r, 20));
  const box = map.getBoundingClientRect();
  const [x, y, w, h] = map.getAttribute('viewBox').split(' ').map(Number);
  const badges = [...document.querySelectorAll('[data-armies]')].map((badge) => {
    const m = badge.transform.baseVal.consolidate().matrix;
    const text = badge.querySelector('text');
    const ctm = badge.getScreenCTM();
    const px = Number(text.getAttribute('font-size')) * Math.hypot(ctm.a, ctm.b);
    const screen = badge.ownerSVGElement.createSVGPoint();
    screen.x = m.e; screen.y = m.f;
    const at = screen.matrixTransform(badge.parentNode.getScreenCTM());
    return {slug: badge.dataset.armies, x: m.e, y: m.f, sx: at.x, sy: at.y, px,
            shown: at.x > box.left && at.x < box.right && at.y > box.top && at.y < box.bottom};
  });
  return {viewBox: {x, y, w, h}, box: {left: box.left, top: box.top, width: box.width, height: box.height},
          badges, scrolled: window.scrollY, wide: document.documentElement.scrollWidth};
}"""


class Mouse(PagePlayer):
    """A player with a mouse: clicks a territory where they see it, and the page's buttons."""

    def choose(self, slug: str) -> None:
        self.click_territory(slug)

    def press(self, element_id: str) -> None:
        self.click(f"#{element_id}")


def slug_of(name: str) -> str:
    return name.lower().replace(" ", "-")


def borders(state: dict[str, Any], board: dict[str, Any]) -> set[str]:
    """The player's territories with an enemy next door."""
    me = state["seat"]
    owner = {slug_of(t["name"]): t["owner"] for t in state["view"]["territories"]}
    next_to: dict[str, set[str]] = {slug_of(t["name"]): set() for t in board["territories"]}
    for t in board["territories"]:
        for n in t.get("neighbours", []):
            next_to[slug_of(t["name"])].add(slug_of(n))
            next_to[slug_of(n)].add(slug_of(t["name"]))
    return {s for s, o in owner.items() if o == me and any(owner[n] != me for n in next_to[s])}


def most_in_any_window(points: list[tuple[float, float]], w: float, h: float, view: dict[str, Any]) -> int:
    """The most of ``points`` that any w x h window over the board holds (its edges touching points)."""
    xs = [view["x"]] + [p[0] for p in points] + [p[0] - w for p in points]
    ys = [view["y"]] + [p[1] for p in points] + [p[1] - h for p in points]
    best = 0
    for left in xs:
        left = min(max(left, view["x"]), view["x"] + max(0, view["w"] - w))
        for top in ys:
            top = min(max(top, view["y"]), view["y"] + max(0, view["h"] - h))
            inside = sum(left <= x <= left + w and top <= y <= top + h for x, y in points)
            best = max(best, inside)
    return best


class Watched:
    """What the map showed at each look: the zoom must never change by itself."""

    def __init__(self, page: Any, size: dict[str, int]) -> None:
        self.page = page
        self.size = size
        self.zooms: list[float] = []

    def look(self) -> dict[str, Any]:
        seen = self.page.evaluate(MAP)
        shown = [b for b in seen["badges"] if b["shown"]]
        assert shown, "no territory on screen"
        smallest = min(b["px"] for b in shown)
        assert smallest >= MIN_COUNT_PX - 0.05, f"an army count {smallest:.1f} px tall"
        assert seen["scrolled"] == 0 and seen["wide"] <= self.size["width"] + 1
        self.zooms.append(seen["box"]["width"] / seen["viewBox"]["w"])
        assert max(self.zooms) - min(self.zooms) < 1e-3 * max(self.zooms), f"the zoom moved: {self.zooms}"
        return seen


def open_seat(browser: Any, port: int, size: dict[str, int], touch: bool, seed: int) -> tuple[Any, Any, str]:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    body = {"seats": seats, "seed": seed, "bot_delay": 0, "options": {"setup": "deal"}}
    created = request(port, "POST", "/api/games", body)
    context = browser.new_context(
        viewport=size, is_mobile=touch, has_touch=touch, device_scale_factor=2 if touch else 1
    )
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    return context, page, created


@pytest.mark.parametrize(
    ("size", "touch", "name"),
    [(PHONE, True, "phone"), (LANDSCAPE, True, "landscape"), (LAPTOP, False, "laptop")],
)
def test_the_page_frames_each_step_at_one_readable_zoom(
    browser: Any, port: int, size: dict[str, int], touch: bool, name: str
) -> None:
    context, page, created = open_seat(browser, port, size, touch, seed=5)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    token = created["seats"][0]["token"]
    hands = (Finger if touch else Mouse)(page, port, created["id"], token)
    drawn = request(port, "GET", f"/api/games/{created['id']}/board")
    board = drawn["board"]
    view = dict(zip("xywh", map(float, drawn["drawing"]["viewBox"]), strict=True))
    watched = Watched(page, size)
    framed: list[str] = []

    def placing(slug: str) -> None:
        if framed:
            return
        # The first placement: the map frames the player's borders, as many as any window shows.
        state = hands.my_turn()
        page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state["state_id"])
        seen = watched.look()
        mine = borders(state, board)
        at = {b["slug"]: b for b in seen["badges"]}
        shown = sum(at[s]["shown"] for s in mine)
        vb = seen["viewBox"]
        best = most_in_any_window([(at[s]["x"], at[s]["y"]) for s in mine], vb["w"], vb["h"], view)
        assert shown >= 0.75 * best, (
            f"{shown} of the player's {len(mine)} borders on screen; a window holds {best}"
        )
        if name == "laptop":
            assert all(b["shown"] for b in seen["badges"]), "the laptop shows the whole classic board"
        framed.append(slug)
        shot(page, f"view-{name}-placing")
        if touch:
            tap_beside_the_smallest(page, hands, seen, state)

    def attack_chosen(source: str, target: str) -> None:
        seen = watched.look()
        at = {b["slug"]: b for b in seen["badges"]}
        assert at[source]["shown"] and at[target]["shown"], f"{source} or {target} is off the screen"
        shot(page, f"view-{name}-attack")

    done = play_a_whole_turn(
        hands, on_setup=placing, on_attack_chosen=attack_chosen, after_each=lambda: watched.look()
    )
    assert {"reinforce", "attack", "end"} <= done and framed
    assert len(watched.zooms) > 5
    assert errors == []
    context.close()


def tap_beside_the_smallest(page: Any, finger: Finger, seen: dict[str, Any], state: dict[str, Any]) -> None:
    """A tap 18 px beside the smallest of the player's territories on screen places there, or asks which
    territory was meant (naming it): a 44 px target, whatever its size on the map."""
    me = state["seat"]
    mine = {slug_of(t["name"]) for t in state["view"]["territories"] if t["owner"] == me}
    sizes = page.evaluate(
        """slugs => slugs.map((s) => {
            const b = document.querySelector(`[data-territory="${s}"]`).getBoundingClientRect();
            return [s, Math.max(b.width, b.height)]; })""",
        [b["slug"] for b in seen["badges"] if b["shown"] and b["slug"] in mine],
    )
    slug, extent = min(sizes, key=lambda pair: pair[1])
    badge = next(b for b in seen["badges"] if b["slug"] == slug)
    before = finger.state()["view"]["territories"]
    armies = next(t["armies"] for t in before if slug_of(t["name"]) == slug)
    page.touchscreen.tap(badge["sx"] + 18, badge["sy"])
    choices = page.locator(".tap-choice")
    page.wait_for_timeout(400)
    if choices.count():
        names = [choices.nth(i).get_attribute("data-choice") for i in range(choices.count())]
        assert slug in names, f"a tap beside {slug} ({extent:.0f} px) offered {names}"
        page.locator(f'.tap-choice[data-choice="{slug}"]').tap()
    wait_until(
        lambda: any(
            slug_of(t["name"]) == slug and t["armies"] > armies for t in finger.state()["view"]["territories"]
        ),
        what=f"an army placed on {slug}",
        timeout=10,
    )


class Conqueror(Finger):
    """A new player on a phone who plays to win: every army on their strongest border, a blitz while
    the odds are good (bolder after turn 40, reckless after 80) at the player with the fewest
    territories first, the page's move-in, and a stack left with no enemy beside it moved to the front.
    Taps only: no pinch; a swipe only to reach a territory the page did not frame (counted)."""

    def __init__(self, *args: Any, board: dict[str, Any]) -> None:
        super().__init__(*args)
        self.next_to: dict[str, set[str]] = {slug_of(t["name"]): set() for t in board["territories"]}
        for t in board["territories"]:
            for n in t.get("neighbours", []):
                self.next_to[slug_of(t["name"])].add(slug_of(n))
                self.next_to[slug_of(n)].add(slug_of(t["name"]))
        self.swipes = 0
        self.misses = 0

    def swipe(self, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
        self.swipes += 1
        super().swipe(start, end, steps)

    def shown(self, selector: str) -> bool:
        """Whether the tap just made shows ``selector``. If not, the tap took another territory or
        none (a loaded machine may fold a tap into a swipe, or the page redrew under the finger): as
        a person would, let go of the choice and look again (counted, five at most)."""
        try:
            self.page.locator(selector).wait_for(timeout=10_000)
            return True
        except playwright_api.TimeoutError:
            self.misses += 1
            assert self.misses <= 5, f"taps in vain five times (the last waited for {selector})"
            if self.page.locator("#cancel-selection").count():
                self.press("cancel-selection")
            return False

    def selected(self, slug: str) -> bool:
        """Tap one of my territories to act from it: whether the page took it."""
        self.choose(slug)
        return self.shown(".selection-what")

    def play(self, state: dict[str, Any]) -> None:
        view, me = state["view"], state["seat"]
        legal = [g["text"] for g in state["legal"]]
        owner = {slug_of(t["name"]): t["owner"] for t in view["territories"]}
        armies = {slug_of(t["name"]): t["armies"] for t in view["territories"]}
        phase = view["phase"]

        held = {seat: list(owner.values()).count(seat) for seat in set(owner.values())}

        def weakest_enemy(slug: str) -> int:
            return min((armies[n] for n in self.next_to[slug] if owner[n] != me), default=10**6)

        def prey_beside(slug: str) -> int:
            """The fewest territories of a player beside it: the next to be wiped out, for its cards."""
            return min((held[owner[n]] for n in self.next_to[slug] if owner[n] != me), default=10**6)

        if phase in ("reinforce", "elimination-trade") and self.page.locator("#trade-best").count():
            self.act_and_wait(lambda: self.press("trade-best"), "the trade")
        elif phase in ("reinforce", "elimination-trade"):
            spots = [t.split()[1] for t in legal if t.startswith("place ")]
            best = max(spots, key=lambda s: (weakest_enemy(s) < 10**6, armies[s] - weakest_enemy(s)))
            if self.page.locator("#place-all").count():
                self.press("place-all")
            self.act_and_wait(lambda: self.choose(best), "the reinforcement")
        elif phase == "attack":
            found = {tuple(t.split()[1:3]) for t in legal if t.startswith("attack ")}
            # Bolder in a long game: as many armies as the defender win more often than not with three
            # dice against two, and a cautious player and a bot stacking its borders can stall (CI met
            # 144 turns at 21 territories each, on a loaded machine that sent the seeded game astray).
            # Past turn 80 (CI met turn 157 at 1000 moves under load), any attack from three armies:
            # the game ends, whoever wins it.
            margin = 1 if view["turn"] <= 40 else -1 if view["turn"] <= 80 else -(10**6)
            good = [(s, t) for s, t in found if armies[s] >= 3 and armies[s] > armies[t] + margin]
            if not good:
                self.act_and_wait(lambda: self.press("end-phase"), "the end of the attack")
                return

            def appeal(a: tuple[str, ...]) -> tuple[bool, int, int]:
                return armies[a[0]] > armies[a[1]], -held[owner[a[1]]], armies[a[0]] - armies[a[1]]

            source, target = max(good, key=appeal)
            if not self.selected(source):
                return
            far = self.page.locator(f'#off-view [data-target="{target}"]')
            if far.count():
                far.tap()  # beyond the map's view: its button
            else:
                self.choose(target)
            if not self.shown("#blitz"):
                return
            self.act_and_wait(lambda: self.press("blitz"), "the blitz")
        elif phase == "occupy":
            self.act_and_wait(lambda: self.press("move-confirm"), "the move-in")
        elif phase == "fortify":
            # A stack stranded behind the lines (a move-in takes every army along) goes back to the
            # front: without it the armies pile up where no enemy is, and a long game drags on.
            moves = []
            for group in state["legal"]:
                words, most = group["text"].split(), group.get("max", 0)
                # Every army but the one that stays, from a stack with no enemy beside it, to the front.
                whole = words[0] == "fortify" and most >= 2 and most == armies[words[1]] - 1
                if whole and weakest_enemy(words[1]) == 10**6 and weakest_enemy(words[2]) < 10**6:
                    moves.append((words[1], words[2], most))
            if not moves:
                self.act_and_wait(lambda: self.press("end-phase"), "the end of the turn")
                return
            source, target, _ = max(moves, key=lambda m: (m[2], -prey_beside(m[1]), -weakest_enemy(m[1])))
            if not self.selected(source):
                return
            self.choose(target)
            if self.shown("#move-confirm"):
                self.act_and_wait(lambda: self.press("move-confirm"), "the fortification")
        else:
            raise AssertionError(f"no move planned for {phase}: {legal[:5]}")


@pytest.mark.parametrize(
    ("board_name", "bots", "seed"),
    [
        ("classic", 2, 4),  # 22 turns, about 50 s here
        pytest.param("crossroads", 2, 4, marks=pytest.mark.slow),
        pytest.param("pangaea", 7, 4, marks=pytest.mark.slow),  # 273 turns, about 4.5 minutes
    ],
)
def test_a_whole_game_on_a_phone(browser: Any, port: int, board_name: str, bots: int, seed: int) -> None:
    """From the quick start to the end, by taps: every count readable and the zoom never moved."""
    seats = [{"kind": "human", "name": "Ann", "auto_setup": True, "defence": "most", "pace": "skip"}]
    seats += [{"kind": "bot", "bot": "easy"}] * bots
    # Sets at fixed values (the 2003 chart): escalating sets make a long game a see-saw, each side's
    # trade sweeping the other's thin territories (a game astray on a loaded machine went past 1000
    # moves at 39 territories to 3).
    options = {"setup": "deal", "card_values": "fixed"}
    body = {"seats": seats, "seed": seed, "bot_delay": 0, "options": options, "board": board_name}
    created = request(port, "POST", "/api/games", body)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator("[data-territory]").first.wait_for(timeout=30_000)
    board = request(port, "GET", f"/api/games/{created['id']}/board")["board"]
    player = Conqueror(page, port, created["id"], created["seats"][0]["token"], board=board)
    watched = Watched(page, PHONE)
    moves = 0
    while True:
        state = player.wait_for_my_turn(timeout=120)
        if state["status"] == "over":
            break
        page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state["state_id"])
        watched.look()
        player.play(state)
        moves += 1
        # A guard against a game that never ends, not a measure: the seeded game takes 137 moves (22
        # turns), but on a loaded machine a tap taken twice or a swipe read as a tap sends it down
        # another path (this player, modelled in-process on 100 other deals: median 165 moves,
        # longest 505).
        if moves >= 1000:
            held = [t["owner"] for t in state["view"]["territories"]]
            counts = {seat: held.count(seat) for seat in sorted(set(held))}
            raise AssertionError(
                f"the game did not end in {moves} moves: turn {state['view']['turn']}, territories by seat "
                f"{counts}, {player.misses} taps in vain, {player.swipes} swipes"
            )
    shot(page, f"phone-whole-game-{board_name}")
    final = request(port, "GET", f"/api/games/{created['id']}")
    assert final["winner"] is not None
    assert len(watched.zooms) == moves  # Watched.look asserted one zoom throughout
    said = f"{moves} moves, {final['turn']} turns, {player.swipes} swipes, won by seat {final['winner']}"
    print(f"{board_name}: {said}")
    assert errors == []
    context.close()


def test_a_target_off_the_map_is_one_tap_away(browser: Any, port: int) -> None:
    """Alaska attacks Kamchatka across the map's edge: at a phone's zoom both cannot be on screen, so
    the chosen territory's targets off the map's view are buttons under it."""
    seats = [{"kind": "human", "name": "Ann", "auto_setup": True, "defence": "most", "pace": "skip"}]
    seats += [{"kind": "bot", "bot": "quick"}] * 2
    for seed in range(1, 80):
        body = {"seats": seats, "seed": seed, "bot_delay": 0, "options": {"setup": "deal"}}
        created = request(port, "POST", "/api/games", body)
        token = created["seats"][0]["token"]
        dealt = request(port, "GET", f"/api/games/{created['id']}/view", token=token)["view"]["territories"]
        owner = {slug_of(t["name"]): t["owner"] for t in dealt}
        if owner["alaska"] == 0 and owner["kamchatka"] != 0:
            break
    else:
        raise AssertionError("no seed deals Ann Alaska and another player Kamchatka")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    finger = Finger(page, port, created["id"], token)
    state = finger.my_turn()
    while state["view"]["phase"] != "attack":
        if page.locator("#trade-best").count():
            finger.act_and_wait(lambda: finger.press("trade-best"), "the trade")
        else:
            if page.locator("#place-all").count():
                finger.press("place-all")
            finger.act_and_wait(lambda: finger.choose("alaska"), "the reinforcement")
        state = finger.my_turn()
    # The game is seeded: the same deal and the same bots' turns every run.
    assert any(g["text"].startswith("attack alaska kamchatka") for g in state["legal"]), "Alaska was lost"
    finger.choose("alaska")
    page.locator(".selection-what", has_text="Alaska").wait_for(timeout=10_000)
    far = page.locator('#off-view [data-target="kamchatka"]')
    far.wait_for(timeout=10_000)
    # Only what the screen does not show is listed: Kamchatka, not Alaska's neighbours in view.
    listed = page.locator("#off-view [data-target]").evaluate_all("bs => bs.map((b) => b.dataset.target)")
    for slug in listed:
        assert not finger.visible(*finger.point(slug), margin=0), f"{slug} is on the screen and listed"
    assert "northwest-territory" not in listed and "alberta" not in listed, listed
    shot(page, "phone-off-view")
    far.tap()
    page.locator("#odds").filter(has_text="%").wait_for(timeout=30_000)
    assert "Kamchatka" in page.locator(".battle-card").inner_text()
    context.close()


def test_show_my_territories_on_a_big_board(browser: Any, port: int) -> None:
    """Pangaea with 8 seats on a phone: the counts readable at the page's zoom, and after a swipe
    elsewhere, ◎ brings back as many of the player's territories as any window shows, ringed."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 7
    body = {"seats": seats, "seed": 6, "bot_delay": 0, "options": {"setup": "deal"}, "board": "pangaea"}
    created = request(port, "POST", "/api/games", body)
    token = created["seats"][0]["token"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator("[data-territory]").first.wait_for(timeout=30_000)
    finger = Finger(page, port, created["id"], token)
    state = finger.my_turn()
    page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state["state_id"])
    watched = Watched(page, PHONE)
    watched.look()
    drawn = request(port, "GET", f"/api/games/{created['id']}/board")["drawing"]
    view = dict(zip("xywh", map(float, drawn["viewBox"]), strict=True))
    mine = {slug_of(t["name"]) for t in state["view"]["territories"] if t["owner"] == state["seat"]}
    # Away from them: swipes to a corner of the board.
    box = finger.map_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(3):
        finger.swipe(middle, (middle[0] + box["width"] * 0.4, middle[1] + box["height"] * 0.4))
    before = sum(b["shown"] for b in watched.look()["badges"] if b["slug"] in mine)
    # The tap rings the player's badges at once. On a loaded machine Chrome may fold a tap that
    # follows a swipe into it: as a person would, tap again when nothing rang (three tries).
    glowing = 0
    for _ in range(3):
        page.locator("#show-mine").tap()
        try:
            page.locator(".badge.glow").first.wait_for(timeout=5_000)
        except playwright_api.TimeoutError:
            continue
        glowing = page.locator(".badge.glow").count()
        break
    assert glowing == len(mine), f"{glowing} badges rang for {len(mine)} territories"
    seen = watched.look()
    at = {b["slug"]: b for b in seen["badges"]}
    shown = sum(at[s]["shown"] for s in mine)
    vb = seen["viewBox"]
    best = most_in_any_window([(at[s]["x"], at[s]["y"]) for s in mine], vb["w"], vb["h"], view)
    assert shown >= 0.75 * best and shown >= before, (
        f"{shown} of {len(mine)} shown (from {before}); {best} fit"
    )
    shot(page, "phone-pangaea-show-mine")
    context.close()


def test_the_bots_pace_is_fast_by_default_and_one_tap_away(browser: Any, port: int) -> None:
    """A new seat watches the bots at "fast"; watch and skip are buttons in the phone's top bar."""
    context, page, created = open_seat(browser, port, PHONE, True, seed=8)
    token = created["seats"][0]["token"]

    def pace() -> str:
        return str(request(port, "GET", f"/api/games/{created['id']}/view", token=token)["prefs"]["pace"])

    assert pace() == "fast"
    page.locator('#pace-fast[aria-pressed="true"]').wait_for(timeout=30_000)
    for choice in ("skip", "watch", "fast"):
        box = page.locator(f"#pace-{choice}").bounding_box()
        assert box and box["y"] + box["height"] <= 60, f"{choice} is not in the top bar: {box}"
        page.locator(f"#pace-{choice}").tap()
        wait_until(lambda c=choice: pace() == c, what=f"the pace {choice}", timeout=10)
        page.locator(f'#pace-{choice}[aria-pressed="true"]').wait_for(timeout=10_000)
    context.close()
