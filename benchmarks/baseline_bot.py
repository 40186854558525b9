#!/usr/bin/env python3
"""A bot of an older version of risk, played through the bot protocol (docs/protocol.md).

    python benchmarks/baseline_bot.py --baseline ../baseline/src --bot continental

``--baseline`` is the ``src`` folder of a checkout of the version to measure against ("today's
version" of a bot); its ``risk`` package, engine and bots together, is imported instead of this
checkout's. Use it as a tournament seat:

    risk tournament --bots \
        "benchmarks/baseline_bot.py --baseline ../baseline/src --bot continental",continental

The protocol sends only the player's view, and the old bots read a ``Game``, so each decision
rebuilds one in the old engine from the view: the board, armies, cards in hand (the other hands
hold placeholder cards of the right number), headquarters, mission cards, the attack or move under
way. What the view does not carry but the bot's own turn decides (whether it has placed, traded,
attacked or conquered this turn, its last move) is kept from the bot's own decisions. Anything this
program cannot rebuild ends the program with a message on standard error.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", required=True, type=Path, help="the src folder of the old version")
    parser.add_argument("--bot", required=True, help="the old version's bot name (quick, continental, ...)")
    args = parser.parse_args(argv)
    if not (args.baseline / "risk" / "__init__.py").is_file():
        parser.error(f"{args.baseline} is not a src folder holding a risk package")
    return args


class TurnMemory:
    """What the bot did in its current turn: the facts the view does not show."""

    def __init__(self) -> None:
        self.turn = -1
        self.territories_at_start = 0
        self.verbs: list[str] = []
        self.last_action: str | None = None

    def update(self, view: dict[str, Any], seat: int) -> None:
        """Start a new memory when the bot's new turn begins."""
        if view["current"] != seat or view["turn"] != self.turn:
            if view["current"] == seat and view["phase"] in ("reinforce", "attack"):
                self.turn = view["turn"]
                self.territories_at_start = view["players"][seat]["territories"]
                self.verbs, self.last_action = [], None
            elif view["current"] != seat:
                self.turn, self.verbs, self.last_action = -1, [], None

    def record(self, text: str) -> None:
        self.verbs.append(text.split()[0])
        self.last_action = text


def rebuild(view: dict[str, Any], memory: TurnMemory, template: Any) -> Any:
    """A game of the old engine with what ``view`` shows (see the module's docstring)."""
    from risk.rules.game import Battle, Phase

    game = template.copy()
    board = game.board
    me = view["player"]
    card_of = {board.card_name(c): c for c in range(board.card_count)}
    territory_of = {board.name_of(t): t for t in range(len(board))}
    territories = view["territories"]
    game.owner = [t["owner"] for t in territories]
    game.armies = [t["armies"] for t in territories]
    if game.units is not None:
        game.units = [list(t["units"]) for t in territories]
    players = view["players"]
    game.territory_count = [p["territories"] for p in players]
    game.alive = [p["alive"] for p in players]
    mine = [card_of[c["card"]] for c in view.get("hand", [])]
    game.discard = [card_of[name] for name in view["discard"]]
    spare = [c for c in range(board.card_count) if c not in set(mine) | set(game.discard)]
    hands: list[list[int]] = []
    for seat, player in enumerate(players):
        if seat == me:
            hands.append(mine)
        else:
            hands.append(spare[: player["cards"]])
            spare = spare[player["cards"] :]
    game.hands = hands if game.team is None else [hands[seat % 2] for seat in range(len(players))]
    game.deck = spare[: view["deck_size"]]
    game.setup_armies = list(view["setup_armies"])
    for name in ("sets_traded", "pending", "turn", "winner", "current", "to_act"):
        setattr(game, name, view[name])
    game.placing_for = view["to_act"]
    game.phase = Phase[view["phase"].upper().replace("-", "_")]
    if "capitals" in view:
        game.capitals = [-1 if c is None else territory_of[c] for c in view["capitals"]]
    if "mission_cards" in view:
        for seat, cards in enumerate(view["mission_cards"]):
            game.missions_claimed[seat] = list(cards["claimed"])
            game.mission_cards[seat] = list(cards["unclaimed"] or [])
    if "missions" in view and view["missions"][me] is not None:
        from risk.rules.missions import effective_mission, mission_by_key

        game.missions[me] = effective_mission(mission_by_key(view["missions"][me]["key"], game.humans), me)
    battle = view["last_battle"]
    game.last_battle = (
        None
        if battle is None
        else Battle(
            territory_of[battle["from"]],
            territory_of[battle["to"]],
            tuple(battle["attacker_dice"]),
            tuple(battle["defender_dice"]),
            battle["attacker_losses"],
            battle["defender_losses"],
            battle["conquered"],
        )
    )
    attack = view.get("attack")
    game._attack = (
        None if attack is None else (territory_of[attack["from"]], territory_of[attack["to"]], attack["dice"])
    )
    occupy = view.get("occupy")
    game._occupy = (
        None
        if occupy is None
        else (territory_of[occupy["from"]], territory_of[occupy["to"]], occupy["min"], False)
    )
    # The bot's own turn: what it did so far.
    own_turn = view["current"] == me and memory.turn == view["turn"]
    verbs = memory.verbs if own_turn else []
    conquests = players[me]["territories"] - memory.territories_at_start if own_turn else 0
    game.conquests_this_turn = max(0, conquests)
    drawn = game.rules.card_draw == "before-fortify" and game.phase == Phase.FORTIFY
    game.conquered_this_turn = conquests > 0 and not drawn
    game.placed_this_turn = "place" in verbs and game.phase != Phase.SETUP_PLACE
    game.traded_this_turn = game.territory_bonus_used = "trade" in verbs
    game.attacked_this_turn = "attack" in verbs
    game.claimed_mission_this_turn = "mission" in verbs
    last = memory.last_action if own_turn else None
    game.history = [] if last is None else [("action", me, game.parse(last))]
    return game


def expand(legal: list[str]) -> set[str]:
    """The engine's ``legal`` lines as a set of action texts (ranges ``N..M`` spelt out)."""
    texts: set[str] = set()
    for line in legal:
        head, _, last = line.rpartition(" ")
        if head and ".." in last:
            low, high = (int(n) for n in last.split(".."))
            texts.update(f"{head} {n}" for n in range(low, high + 1))
        else:
            texts.add(line)
    return texts


def main(argv: list[str] | None = None) -> None:
    args = parse_arguments(argv)
    sys.path.insert(0, str(args.baseline.resolve()))
    from risk.bots import make_bot
    from risk.rules.game import Game
    from risk.rules.options import Rules
    from risk.view import View

    seat, seed = 0, 0
    bot = None
    template = None
    memory = TurnMemory()
    view: dict[str, Any] = {}
    legal: list[str] = []
    for raw in sys.stdin:
        command, _, rest = raw.strip().partition(" ")
        if command == "risk-protocol":
            print(f"ready baseline-{args.bot}", flush=True)
        elif command == "seat":
            seat = int(rest)
        elif command == "seed":
            seed = int(rest)
        elif command == "view":
            view, legal = json.loads(rest), []
        elif command == "legal":
            legal.append(rest)
        elif command == "go":
            if template is None:
                names = [p["name"] for p in view["players"]]
                rules = Rules.from_description(view["rules"])
                template = Game(rules, names, seed=random.Random(seed).getrandbits(32), board=view["board"])
                bot = make_bot(args.bot, seed)
            assert bot is not None
            memory.update(view, seat)
            game = rebuild(view, memory, template)
            text = View(game, seat).action_text(bot.choose(View(game, seat)))
            if text not in expand(legal):
                print(f"info the old bot chose {text!r}, not legal in the real game", flush=True)
                sys.exit(f"baseline_bot: {text!r} is not legal (phase {view['phase']})")
            memory.record(text)
            print(f"action {text}", flush=True)
        elif command == "gameover":
            bot, template, memory = None, None, TurnMemory()
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
