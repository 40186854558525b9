"""How long a whole 3-player game against two bots takes a person who plays quickly (issue 23), run by
hand:

    .venv/bin/python benchmarks/bench_web_game.py [--seed 2024] [--bots easy] [--bot-delay 0]
        [--pace fast|skip|watch] [--place-rest] [--defence ask|matters|most] [--turns N] [--json]

A real `risk serve` (the code on PYTHONPATH, so an older checkout's ``src`` can be measured the same
way) and Debian's Chromium driven by Playwright: the scripted person (tests/test_browser.py's
``Person``, which clicks the board and the buttons as a player does) opens their seat's link and plays
every turn as fast as the page lets them, from the first claim to the end of the game: claims and
setup placements one click each (or, with ``--place-rest``, one click on "Place the rest for me"),
every reinforcement on its strongest border territory, a blitz from its strongest territory while one
has the odds, the biggest fortification, and the defence dice the page asks for (the most). ``--pace``
chooses the bots' speed on the page's control (the releases before it had none: give ``--bot-delay``
instead, the game's delay per bot move, 0 the fastest). Prints the game's wall time, the person's
decisions, the defence prompts they answered and the actions stored. ``--turns N`` stops once the game
reaches its turn N + 1 (a short game, for a check that the page plays through; the figures of a whole
game are not comparable with it).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from chromium import ARGS, CHROMIUM
from live_server import free_port, request, server
from test_browser import LAPTOP, Person


class QuickPerson(Person):
    """Attacks again and again while it has the odds (the tests' person attacks once a turn), and
    counts its decisions and the defence prompts it answered."""

    def __init__(self, *args: Any, place_rest: bool = False) -> None:
        super().__init__(*args)
        self.place_rest = place_rest
        self.decisions = 0
        self.prompts = 0
        self.asked_rest = False

    def step(self, state: dict[str, Any]) -> None:
        phase = state["view"]["phase"]
        self.decisions += 1
        if phase == "defend":
            self.prompts += 1
        if self.place_rest and phase in ("claim", "setup-place") and not self.asked_rest:
            self.asked_rest = True
            self.click("#place-rest")
            return
        if phase == "attack":
            self.did_turn.discard("attack")
            # The last attacker stays selected after a blitz: let go of it (Escape), so the next
            # source is chosen afresh (a click on a still-selected source deselects it).
            self.page.keyboard.press("Escape")
        super().step(state)


def play_game(browser: Any, port: int, args: argparse.Namespace) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": args.bots}] * 2
    body: dict[str, Any] = {"seats": seats, "seed": args.seed, "bot_delay": args.bot_delay}
    if args.defence:
        seats[0]["defence"] = args.defence
    created = request(port, "POST", "/api/games", body)
    game_id, token = created["id"], created["seats"][0]["token"]
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    person = QuickPerson(page, port, game_id, token, place_rest=args.place_rest)
    person.load_board()
    started = time.monotonic()
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    if args.pace:
        # The seat's settings are folded away in "Your seat": a player unfolds them, chooses, folds them.
        page.locator("#seat-panel > summary").click()
        page.select_option("#pace-select", args.pace)
        page.locator("#seat-panel > summary").click()
    while True:
        state = person.wait_for_my_turn(timeout=args.timeout)
        if state["status"] == "over" or (args.turns and state["view"]["turn"] > args.turns):
            break
        if time.monotonic() - started > args.timeout:
            raise SystemExit(
                f"the game was not over after {args.timeout:g} s (turn {state['view']['turn']}, "
                f"{state['state_id']} actions, {person.decisions} decisions)"
            )
        before = state["state_id"]
        person.step(state)
        deadline = time.monotonic() + 60
        while person.state()["state_id"] <= before:
            if time.monotonic() > deadline:
                raise SystemExit("a click was never taken")
            time.sleep(0.02)
    elapsed = time.monotonic() - started
    context.close()
    final = request(port, "GET", f"/api/games/{game_id}")
    return {
        "seconds": round(elapsed, 1),
        "decisions": person.decisions,
        "defence_prompts": person.prompts,
        "actions": final["state_id"],
        "turns": final["turn"],
        "winner": state["view"]["players"][final["winner"]]["name"] if final["winner"] is not None else None,
        "over": final["winner"] is not None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--bots", default="easy", help="the two bots' level or name (default easy)")
    parser.add_argument("--bot-delay", type=float, default=0.6, help="the game's seconds per bot move")
    parser.add_argument("--pace", choices=("watch", "fast", "skip"), help="chosen on the page's control")
    parser.add_argument("--defence", choices=("most", "matters", "ask"), help="the seat's defence setting")
    parser.add_argument("--place-rest", action="store_true", help='click "Place the rest for me"')
    parser.add_argument("--turns", type=int, help="stop after the game's turn N (default: play to the end)")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        port = free_port()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        with server(f"sqlite:///{folder}/games.sqlite3", port):
            result = play_game(browser, port, args)
        browser.close()
    result["settings"] = {k: v for k, v in vars(args).items() if k not in ("json", "timeout")}
    if args.json:
        print(json.dumps(result))
    else:
        what, end = "the whole game", f"won by {result['winner']}"
        if not result["over"]:
            what, end = f"the first {args.turns} turns", "stopped there (--turns)"
        print(
            f"{result['seconds']} s for {what}: {result['turns']} turns, {result['actions']} actions "
            f"stored, {result['decisions']} decisions by the person (a click or a few each), "
            f"{result['defence_prompts']} defence prompts answered, {end}"
        )


if __name__ == "__main__":
    main()
