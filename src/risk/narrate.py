"""The game's log in plain words, for every front end: "Ann attacks Alaska from Kamchatka with 3 dice."

The log is public: it says what every player may know. Cards drawn are only counted, headquarters
choices are only announced (until the headquarters are revealed), missions are never named. It is built
one step at a time: take :func:`snapshot` before ``game.apply``, then :func:`narrate` the history
entries the step added.

Under fog of war each line says who may read it (``LogLine.seen_by``: a bit per seat, or
``EVERYONE``), from who witnessed the entries it tells (:mod:`risk.rules.variants.fog`); a front end
shows a seat only its lines (:func:`visible_to`) while the game runs, and the whole log once it is
over. ``seen_by`` is never sent: who saw a battle tells where players are.

>>> from risk import Game, Rules
>>> game = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=7)
>>> before, start = snapshot(game), len(game.history)
>>> game.apply("claim alaska")
>>> [line.text for line in narrate(game, before, game.history[start:])][-1]
'Ann claims Alaska.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from risk.rules.actions import (
    AcceptDice,
    Attack,
    Bribe,
    CallOff,
    Capital,
    Claim,
    ClaimMission,
    Commander,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    ReinforceAlly,
    Reroll,
    Resign,
    Trade,
)
from risk.rules.game import Game, Phase
from risk.rules.variants.fog import EVERYONE, sees


@dataclass(frozen=True, slots=True)
class Before:
    """What a step may change that its log line needs to know."""

    owner: tuple[int, ...]
    alive: tuple[bool, ...]
    current: int
    phase: Phase
    pending: int
    turn: int
    capitals_hidden: bool


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str  # claim, place, trade, attack, defend, battle, conquest, move, fortify, turn, ...
    seat: int = -1  # who it is about (-1: no one)
    data: dict[str, Any] = field(default_factory=dict)  # dice and the like, for drawing
    seen_by: int = EVERYONE  # fog of war: the seats that may read it (a bit each); never sent

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "kind": self.kind, "seat": self.seat} | (
            {"data": self.data} if self.data else {}
        )


_SETUP = (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)


def snapshot(game: Game) -> Before:
    return Before(
        owner=tuple(game.owner),
        alive=tuple(game.alive),
        current=game.current,
        phase=game.phase,
        pending=game.pending,
        turn=game.turn,
        capitals_hidden=game.phase == Phase.CHOOSE_CAPITAL,
    )


def _armies(count: int) -> str:
    return f"{count} {'army' if count == 1 else 'armies'}"


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def visible_to(line: LogLine, seat: int) -> bool:
    """Whether ``seat`` (-1: a spectator) may read ``line`` while the game runs."""
    return sees(line.seen_by, seat)


def narrate(
    game: Game, before: Before, entries: list[tuple[str, Any, Any]], first: int | None = None
) -> list[LogLine]:
    """The log lines for one step: ``entries`` are the history entries it added, from entry
    ``first`` of the history (by default the last entries of the history)."""
    players = game.players
    lines: list[LogLine] = []
    defender = -1
    last_actor = before.current  # who acted last in these entries: the one who draws a card
    witnessed = game.witnessed if game.rules.fog == "on" else []
    start = len(game.history) - len(entries) if first is None else first
    battle_seen = EVERYONE  # the seats that saw the step's battle (for its conquest's line)
    for index, (kind, who, value) in enumerate(entries, start):
        seen_by = witnessed[index] if 0 <= index < len(witnessed) else EVERYONE
        if kind == "action":
            last_actor = who
            actor = players[who]
            line = _action_line(game, before, who, actor, value)
            if isinstance(value, Attack):
                defender = before.owner[value.target]
            if seen_by != EVERYONE:
                battle_seen = seen_by
            if line is not None:
                lines.append(_seen(line, seen_by))
            continue
        if who == "dice":
            battle_seen = seen_by
        if who in ("first", "first-turn"):
            what = "claims first" if game.rules.setup == "claim" and who == "first" else "goes first"
            if who == "first" and game.phase == Phase.SETUP_PLACE:
                what = "places first"
            lines.append(LogLine(f"{players[value]} wins the roll and {what}.", "roll", value))
        elif who == "dice":
            attack, defence = value
            battle = game.last_battle
            attacker = before.current
            if defender < 0 and battle is not None:
                defender = before.owner[battle.target]
            lost_a, lost_d = (
                (battle.attacker_losses, battle.defender_losses) if battle is not None else (0, 0)
            )
            losses = []
            if lost_a:
                losses.append(f"{players[attacker]} loses {_armies(lost_a)}")
            if lost_d:
                losses.append(f"{players[defender]} loses {_armies(lost_d)}" if defender >= 0 else "")
            lines.append(
                _seen(
                    LogLine(
                        f"{players[attacker]} rolls {'-'.join(map(str, attack))}, "
                        f"{players[defender] if defender >= 0 else 'the defence'} rolls "
                        f"{'-'.join(map(str, defence))}: " + " and ".join(x for x in losses if x) + ".",
                        "battle",
                        attacker,
                        {"attack": list(attack), "defence": list(defence), "defender": defender},
                    ),
                    seen_by,
                )
            )
        elif who == "draw":
            # The card goes to the player whose turn earned it: under the 1993 and 2003 rules it is
            # drawn as the turn ends, when the next player is already the current one.
            lines.append(LogLine(f"{players[last_actor]} draws a card.", "draw", last_actor))
        elif who == "deal":
            lines.append(LogLine("The territories are dealt.", "deal"))
        elif who == "missions":
            lines.append(LogLine("Each player is dealt a secret mission.", "missions"))
        elif who == "mission-cards":
            lines.append(LogLine("Each player is dealt four mission cards.", "missions"))
        elif who == "die":
            line = LogLine(f"The die is re-rolled: {value}.", "die", game.current, {"die": value})
            lines.append(_seen(line, seen_by))
    resigned = {who for kind, who, value in entries if kind == "action" and isinstance(value, Resign)}
    lines += [
        _seen(line, battle_seen) if line.kind == "conquest" else line
        for line in _consequences(game, before)
        if not (line.kind == "eliminated" and line.seat in resigned)  # said by the resignation's line
    ]
    return lines


def _seen(line: LogLine, seen_by: int) -> LogLine:
    if seen_by == EVERYONE:
        return line
    return LogLine(line.text, line.kind, line.seat, line.data, seen_by)


def _action_line(game: Game, before: Before, seat: int, actor: str, action: Any) -> LogLine | None:
    board = game.board
    name = board.name_of
    if isinstance(action, Claim):
        return LogLine(f"{actor} claims {name(action.territory)}.", "claim", seat)
    if isinstance(action, Place):
        owner = game.owner[action.territory]
        whose = "" if owner in (seat, -2) or owner < 0 else f" for {game.players[owner]}"
        return LogLine(
            f"{actor} places {_armies(action.armies)}{whose} in {name(action.territory)}.", "place", seat
        )
    if isinstance(action, Trade):
        cards = _cards(game, action.cards)
        gained = game.pending - before.pending
        worth = f" for {_armies(gained)}" if gained > 0 else ""
        return LogLine(f"{actor} trades in {cards}{worth}.", "trade", seat)
    if isinstance(action, Attack):
        target_owner = before.owner[action.target]
        whose = f" ({game.players[target_owner]})" if target_owner >= 0 else ""
        return LogLine(
            f"{actor} attacks {name(action.target)}{whose} from {name(action.source)} "
            f"with {_dice(action.dice)}.",
            "attack",
            seat,
        )
    if isinstance(action, Defend):
        return LogLine(f"{actor} defends with {_dice(action.dice)}.", "defend", seat)
    if isinstance(action, Occupy):
        target = game.last_battle.target if game.last_battle is not None else None
        where = f" into {name(target)}" if target is not None else ""
        return LogLine(f"{actor} moves {_armies(action.armies)}{where}.", "move", seat)
    if isinstance(action, EndAttack):
        return LogLine(f"{actor} ends the attack.", "end-attack", seat)
    if isinstance(action, Fortify):
        return LogLine(
            f"{actor} fortifies {name(action.target)} with {_armies(action.armies)} "
            f"from {name(action.source)}.",
            "fortify",
            seat,
        )
    if isinstance(action, EndTurn):
        return LogLine(f"{actor} ends the turn.", "end-turn", seat)
    if isinstance(action, Capital) or action is None:
        return LogLine(f"{actor} chooses a headquarters in secret.", "capital", seat)
    if isinstance(action, ClaimMission):
        return LogLine(f"{actor} shows a completed mission card: {action.key}.", "mission", seat)
    if isinstance(action, Bribe):
        return LogLine(f"{actor} bribes Neutral {action.neutral} with a card.", "bribe", seat)
    if isinstance(action, ReinforceAlly):
        return LogLine(f"{actor} reinforces the ally Neutral {action.neutral}.", "ally", seat)
    if isinstance(action, CallOff):
        return LogLine(f"{actor} calls off the invasion.", "calloff", seat)
    if isinstance(action, Reroll):
        return LogLine(f"{actor} re-rolls the {action.side}'s die {action.die}.", "reroll", seat)
    if isinstance(action, Commander):
        return LogLine(f"{actor} calls on the commander: die {action.die} becomes a 6.", "commander", seat)
    if isinstance(action, AcceptDice):
        return None
    if isinstance(action, Resign):
        armies = "" if game.is_over else f": {actor}'s armies stay on the board as neutral armies"
        return LogLine(f"{actor} resigns{armies}.", "resign", seat)
    return LogLine(f"{actor}: {action.text(board)}.", "action", seat)


def _cards(game: Game, cards: tuple[int, ...]) -> str:
    """Cards in words: "Japan, Quebec and a wild card" (a card is its territory's, or wild)."""
    count = len(game.board.territories)
    names = [game.board.name_of(card) for card in cards if card < count]
    wild = sum(1 for card in cards if card >= count)
    if wild:
        names.append("a wild card" if wild == 1 else f"{wild} wild cards")
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _consequences(game: Game, before: Before) -> list[LogLine]:
    """What the step changed beyond its own line: conquests, eliminations, revealed headquarters,
    the end of the game, and the next player's turn."""
    players, name = game.players, game.board.name_of
    lines: list[LogLine] = []
    if before.phase not in (Phase.CLAIM, Phase.SETUP_PLACE):
        for territory, (was, now) in enumerate(zip(before.owner, game.owner, strict=True)):
            if was != now and was >= 0 and now >= 0:
                lines.append(
                    LogLine(
                        f"{players[now]} conquers {name(territory)} from {players[was]}.", "conquest", now
                    )
                )
    for seat, (was, now) in enumerate(zip(before.alive, game.alive, strict=True)):
        if was and not now:
            lines.append(LogLine(f"{players[seat]} is eliminated.", "eliminated", seat))
    if before.capitals_hidden and game.phase != Phase.CHOOSE_CAPITAL:
        shown = ", ".join(f"{players[s]} in {name(c)}" for s, c in enumerate(game.capitals) if c >= 0)
        lines.append(LogLine(f"The headquarters are revealed: {shown}.", "capitals"))
    if game.is_over:
        outcome = game.outcome()
        if outcome is not None and outcome.winner is not None:
            lines.append(
                LogLine(f"{players[outcome.winner]} wins: {outcome.reason}.", "over", outcome.winner)
            )
    elif game.phase not in _SETUP and (game.current != before.current or before.phase in _SETUP):
        lines.append(LogLine(f"{players[game.current]}'s turn.", "turn", game.current))
    return lines
