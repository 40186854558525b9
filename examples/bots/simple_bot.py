#!/usr/bin/env python3
"""A small bot for the risk line protocol (docs/protocol.md): Python standard library only.

Its rule: trade a set when it may, put all new armies on the first territory offered, attack
when the attacking stack outnumbers the defenders by two or more, roll and defend with the most
dice, move everything into conquered territories, and never fortify.

Run it in a tournament:  risk tournament --bots ./examples/bots/simple_bot.py,quick,quick
"""

from __future__ import annotations

import json
import sys


def top_of_range(token: str) -> str:
    """'1..12' -> '12': a legal line's range, taken at its top."""
    return token.split("..")[-1]


def choose(board: dict, view: dict, legal: list[str]) -> str:
    # The view names territories for display, actions by slug: the board lists both, in one order.
    # Under fog of war a territory out of sight has no "armies" (only what was last "seen").
    armies = {
        place["slug"]: seen["armies"]
        for place, seen in zip(board["territories"], view["territories"], strict=True)
        if "armies" in seen
    }
    by_verb: dict[str, list[list[str]]] = {}
    for line in legal:
        words = line.split()
        by_verb.setdefault(words[0], []).append(words)
    if "trade" in by_verb:
        return " ".join(by_verb["trade"][0])
    for verb in ("claim", "place", "defend", "move"):
        if verb in by_verb:
            words = by_verb[verb][0]
            if verb == "claim":
                return " ".join(words)
            return " ".join([*words[:-1], top_of_range(words[-1])])
    if "attack" in by_verb:
        for words in by_verb["attack"]:
            source, target = words[1], words[2]
            if armies.get(source, 0) >= armies.get(target, 0) + 2:
                return " ".join([*words[:-1], top_of_range(words[-1])])
        return "endattack"
    for verb in ("endattack", "endturn"):
        if verb in by_verb:
            return verb
    words = legal[0].split()
    return " ".join([*words[:-1], top_of_range(words[-1])])


def main() -> None:
    board: dict = {}
    view: dict = {}
    legal: list[str] = []
    for raw in sys.stdin:
        line = raw.strip()
        command, _, rest = line.partition(" ")
        if command == "risk-protocol":
            print("ready simple", flush=True)
        elif command == "board":
            board = json.loads(rest)
        elif command == "view":
            view, legal = json.loads(rest), []
        elif command == "legal":
            legal.append(rest)
        elif command == "go":
            print("action " + choose(board, view, legal), flush=True)
        elif command == "quit":
            return
        # seat, seed, gameover, and any line a later version adds: nothing to do


if __name__ == "__main__":
    main()
