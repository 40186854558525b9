"""Capital RISK (1993, 2008): a secret headquarters each; hold yours and take the others to win.

"After deploying your troops ... select one of the territories you've claimed and make it your
Headquarters (but don't tell anybody)." Headquarters are revealed together; "You may not use a
Headquarters card as part of a matched set". The winner holds its own headquarters and every
opposing one ("If you wish, you can shorten the game even further": 4 players, any 2; 5 or 6, any 3).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar

from mypy_extensions import trait

from risk.errors import RulesError
from risk.rules.actions import Action
from risk.rules.actions import Capital as ChooseCapital
from risk.rules.goal import Goal, GoalKind
from risk.rules.hooks import ActionRule
from risk.rules.state import LIST, HistoryEntry, Outcome, Phase, State
from risk.rules.variants.base import Variant


@trait
class CapitalState(State):
    __slots__ = ()
    capitals: Annotated[list[int], LIST.when_absent(lambda seats: [-1] * seats)]  # headquarters by seat


def capitals_needed(game: CapitalState) -> int:
    """How many opposing headquarters a player must hold (with its own) to win."""
    # A player who resigned before choosing a headquarters has none to take.
    gone = sum(1 for p in range(game.humans) if game.capitals[p] < 0 and not game.alive[p])
    others = game.humans - 1 - gone
    if game.rules.capitals_to_win == "short" and game.humans >= 4:
        return min(2 if game.humans == 4 else 3, others)
    return others


def _held(game: CapitalState, player: int) -> int:
    return sum(1 for q, c in enumerate(game.capitals) if q != player and c >= 0 and game.owner[c] == player)


def _waiting(game: CapitalState) -> list[int]:
    return [p for p in range(game.humans) if game.capitals[p] < 0 and game.alive[p]]


def _reveal(game: CapitalState) -> None:
    """All reveal together; the headquarters cards leave the deck; the first turn begins."""
    game.deck = [c for c in game.deck if c not in game.capitals]
    game.begin_play()


def refuse_capital(game: CapitalState, action: ChooseCapital, name: str) -> str:
    if game.phase != Phase.CHOOSE_CAPITAL:
        return "headquarters are chosen in Capital RISK, after deployment"
    t = action.territory
    if not isinstance(t, int) or not 0 <= t < len(game.board):
        return f"{t!r} is not a territory of the {game.board.name} board"
    if game.owner[t] != game.to_act:
        return f"{game.board.name_of(t)} is not held by {name}"
    return ""


def apply_capital(game: CapitalState, action: ChooseCapital) -> None:
    game.capitals[game.current] = action.territory
    waiting = _waiting(game)
    if waiting:
        game.current = game.to_act = min(waiting, key=lambda p: (p - game.current) % game.humans)
    else:
        _reveal(game)


def capital_choices(game: CapitalState) -> Iterator[Action]:
    player, owner = game.to_act, game.owner
    return (ChooseCapital(t) for t in range(len(owner)) if owner[t] == player)


def shown_capitals(game: CapitalState, seat: int) -> list[int]:
    """The headquarters as ``seat`` may see them: while they are chosen, its own alone (-1 elsewhere)."""
    if game.phase == Phase.CHOOSE_CAPITAL:
        return [c if p == seat else -1 for p, c in enumerate(game.capitals)]
    return game.capitals


class Capital(Variant[CapitalState]):
    name = "capital"
    goal = Goal(GoalKind.HEADQUARTERS, secret=True)
    actions: ClassVar[Mapping[type, ActionRule]] = {ChooseCapital: ActionRule(refuse_capital, apply_capital)}
    absent_refusals: ClassVar[Mapping[type, str]] = {
        ChooseCapital: "headquarters are chosen in Capital RISK, after deployment"
    }
    phase_actions: ClassVar[Mapping[Phase, Any]] = {Phase.CHOOSE_CAPITAL: capital_choices}

    def setup(self, game: CapitalState) -> None:
        # "secretly selects one of their territories": a choice only with two territories or more.
        fewest = len(game.board) // game.humans
        if fewest < 2:
            raise RulesError(
                f"Capital RISK needs at least {2 * game.humans} territories for {game.humans} players, "
                f"two each so that a headquarters is a secret choice: the {game.board.name} board has "
                f"{len(game.board)}"
            )

    def finish_setup(self, game: CapitalState) -> bool:
        game.phase = Phase.CHOOSE_CAPITAL
        game.current = game.to_act = game.in_game_from(game.first_player)
        return True

    def resigned(self, game: CapitalState, seat: int, was_to_act: bool) -> bool:
        if game.phase != Phase.CHOOSE_CAPITAL:
            return False
        waiting = _waiting(game)
        if was_to_act and waiting:
            game.current = game.to_act = min(waiting, key=lambda p: (p - seat) % game.humans)
        elif was_to_act:
            _reveal(game)
        return True

    def after_action(self, game: CapitalState) -> None:
        p = game.current
        home = game.capitals[p]
        if home >= 0 and game.owner[home] == p and _held(game, p) >= capitals_needed(game):
            game.end_game(p)

    def outcome(self, game: CapitalState, winner: int, last_standing: bool) -> Outcome | None:
        if last_standing:
            return None
        return Outcome(
            winner, f"holds its headquarters and {_held(game, winner)} opposing headquarters", (winner,)
        )

    # -- the secret: the headquarters, each chooser's own until all are revealed together --------------
    def shown_to(self, game: CapitalState, seat: int) -> Mapping[str, Any]:
        return {"capitals": shown_capitals(game, seat)}

    def view_data(self, game: CapitalState, seat: int) -> Mapping[str, Any]:
        board = game.board
        return {"capitals": [None if c < 0 else board.name_of(c) for c in shown_capitals(game, seat)]}

    def redact(self, game: CapitalState, entry: HistoryEntry, seat: int) -> HistoryEntry:
        kind, who, action = entry
        hidden = game.phase == Phase.CHOOSE_CAPITAL and who != seat  # (until all are revealed)
        if hidden and kind == "action" and type(action) is ChooseCapital:
            return kind, who, None
        return entry

    def sample_hidden(self, real: CapitalState, sample: CapitalState, seat: int, rng: random.Random) -> None:
        """Each headquarters chosen in secret: any territory its chooser holds."""
        if real.phase != Phase.CHOOSE_CAPITAL:
            return
        sample.capitals = list(real.capitals)
        for p, capital in enumerate(real.capitals):
            if p != seat and capital >= 0:
                own = real.territories_of(p)
                sample.capitals[p] = own[int(rng.random() * len(own))]
