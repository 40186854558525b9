"""How each bot in a folder of game records plays: the figures behind docs/bots.md "The top bot".

    .venv/bin/python tools/study_records.py ../shared/studies/strong-ai/mixed-table
    .venv/bin/python tools/study_records.py tournament-out --json

Players are grouped by their bot: the player name without its seat number (``search-2`` is
``search``). Per bot: seats played, wins and the 95% Wilson interval of the win rate (so the folder
of a tournament stopped early still gives its figures so far); and over every turn it played after
setup: conquests a turn, the share of turns without a conquest (no card that turn), how often it
moves everything it may into a conquered territory, its hand size when it trades, the players it
eliminated, and (with exactly two opponents left) how often the target of a new attack belongs to
the opponent with fewer territories.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from risk.play.tournament import wilson_interval
from risk.record import read_record_file
from risk.rules.actions import Attack, Occupy, Trade
from risk.rules.game import Game, Phase


def bot_of(player: str) -> str:
    """``search-2`` -> ``search``: the bot behind a tournament player name."""
    base, _, seat = player.rpartition("-")
    return base if base and seat.isdigit() else player


@dataclass
class BotFigures:
    turns: int = 0
    conquests: int = 0
    turns_without_conquest: int = 0
    moves_in: Counter[str] = field(default_factory=Counter)  # all / least / between
    trade_hands: Counter[int] = field(default_factory=Counter)
    eliminated: Counter[str] = field(default_factory=Counter)  # victim bot
    new_attacks_on: Counter[str] = field(default_factory=Counter)  # weaker / stronger opponent
    games: int = 0
    wins: int = 0

    def summary(self) -> dict[str, object]:
        moves = sum(self.moves_in.values())
        trades = sum(self.trade_hands.values())
        aimed = sum(self.new_attacks_on.values())
        turns = max(1, self.turns)
        low, high = wilson_interval(self.wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "ci95": [round(low, 3), round(high, 3)],
            "conquests_per_turn": round(self.conquests / turns, 2),
            "turns_without_conquest": round(self.turns_without_conquest / turns, 3),
            "moves_everything_in": round(self.moves_in["all"] / moves, 3) if moves else 0.0,
            "mean_hand_at_trade": round(sum(k * v for k, v in self.trade_hands.items()) / trades, 2)
            if trades
            else 0.0,
            "eliminated": dict(self.eliminated),
            "new_attacks_on_weaker_opponent": round(self.new_attacks_on["weaker"] / max(1, aimed), 3),
        }


def study_game(game_at_end: Game, seed: int, figures: dict[str, BotFigures]) -> None:
    """Replay one finished game from its seed and its history, counting each player's play."""
    names = game_at_end.players
    bots = [bot_of(name) for name in names]
    game = Game(game_at_end.rules, names, seed=seed, board=game_at_end.board)
    for player in range(game.humans):
        figures[bots[player]].games += 1
    if game_at_end.winner is not None:
        figures[bots[game_at_end.winner]].wins += 1
    turn_owner, turn_number, conquered = game.current, game.turn, 0
    for kind, _, action in game_at_end.history:
        if kind != "action":
            continue
        actor = game.to_act
        mine = figures[bots[actor]]
        if isinstance(action, Trade):
            mine.trade_hands[len(game.hands[actor])] += 1
        elif isinstance(action, Occupy):
            low, high = game.occupy_range()
            amount = "all" if action.armies == high else "least" if action.armies == low else "between"
            mine.moves_in[amount] += 1
        elif isinstance(action, Attack):
            battle = game.last_battle
            fresh = (
                battle is None
                or battle.conquered
                or (battle.source, battle.target) != (action.source, action.target)
            )
            opponents = [p for p in range(game.humans) if game.alive[p] and p != actor]
            counts = game.territory_count
            if fresh and len(opponents) == 2 and counts[opponents[0]] != counts[opponents[1]]:
                weaker = min(opponents, key=counts.__getitem__)
                mine.new_attacks_on["weaker" if game.owner[action.target] == weaker else "stronger"] += 1
        alive_before = list(game.alive)
        holder = game.owner[action.target] if isinstance(action, Attack) else -1
        game.apply(action)
        if isinstance(action, Attack) and game.owner[action.target] != holder:
            conquered += 1
        for victim, was_alive in enumerate(alive_before):
            if was_alive and not game.alive[victim]:
                figures[bots[game.current]].eliminated[bots[victim]] += 1
        if (game.current, game.turn) != (turn_owner, turn_number):
            if turn_number >= 1 and game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE):
                ended = figures[bots[turn_owner]]
                ended.turns += 1
                ended.conquests += conquered
                ended.turns_without_conquest += conquered == 0
            turn_owner, turn_number, conquered = game.current, game.turn, 0


def record_seed(path: Path) -> int:
    for line in path.read_text().splitlines():
        if line.startswith("seed:"):
            return int(line.split(":", 1)[1])
        if line.strip() == "---":
            break
    raise ValueError(f"{path}: the record names no seed, so its chance cannot be replayed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of .risk records")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    paths = sorted(args.folder.glob("*.risk"))
    if not paths:
        parser.error(f"no .risk records in {args.folder}")
    figures: dict[str, BotFigures] = defaultdict(BotFigures)
    for path in paths:
        study_game(read_record_file(path, verify=False), record_seed(path), figures)
    report = {bot: figures[bot].summary() for bot in sorted(figures)}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for bot, summary in report.items():
        print(bot)
        for key, value in summary.items():
            print(f"  {key}: {value}")


if __name__ == "__main__":
    main()
