"""After the game: charts, the luck meter and a timelapse, replayed from a game's record.

:func:`summarize` replays a game's history (its settings and the list of its actions with their
chance outcomes, what :mod:`risk.record` reads and writes) from the start, one action at a time,
and keeps only what every player could see while the game was played:

- **series**: at the start of every turn (and at the end of the game), each seat's armies on the
  board, territories, cards held (the count: hands are secret, their size is not) and continents held;
- **luck**: every battle roll, each side's losses against the exact expectation for those dice
  (:func:`risk.odds.roll_outcomes`), summed per battle, per seat and in total (definition below);
- **frames**: the owner and armies of every territory after each action, as the changes from the
  frame before, with the turn, round, phase, the seat whose turn it is, and the log line
  (:mod:`risk.narrate`) of that action.

Nothing secret goes in: no card in any hand, no mission, no headquarters before they are revealed,
no deck order, no seed. The log lines are the public log, and every number is one the board or the
players panel showed at that moment. (The record itself, with the seed and every card, is the
players' to download once the game is over; the summary never needs it.)

**Armies of luck.** For one roll, let ``S`` be the attacker's balance: defender's losses minus
attacker's losses. Its expectation ``E[S]`` for the dice thrown (3 against 2, 1 against 1, ...) is
exact. The attacker's luck on the roll is ``S - E[S]``, the defender's the opposite: luck is
zero-sum, what one side gains the other loses. A seat's armies of luck are the sum over all its
rolls, attacking and defending:

    luck = (expected own losses - actual own losses) + (actual enemy losses - expected enemy losses)

so "+3.2" means the dice left that seat 3.2 armies better off than average. With the 1993 experts'
options, a roll can be changed after it is thrown: a re-rolled die is chance again (its luck is the
result against the average of the six faces it could show), but the choice of which die to re-roll
and the commander's 6 are not luck; what they gained is reported apart as ``edge``, so that
``luck + edge`` is the whole difference from the expectation. Without those options ``edge`` is 0.

A **battle** (an invasion) is the consecutive rolls of one attacker from one territory on one target
in one turn, until the territory falls or the attacker turns elsewhere.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from risk.errors import RecordError, RiskError
from risk.maps import Board, available_maps, normalise
from risk.narrate import LogLine, narrate, snapshot
from risk.odds import roll_outcomes
from risk.record import BOARD_JSON, MAGIC, SEPARATOR, Replay, replay_record
from risk.rounds import count_rounds
from risk.rules.actions import AcceptDice, Attack, Commander, Defend, Fortify, Occupy, Reroll, Resign
from risk.rules.game import PHASE_NAMES, Battle, Game, Phase, battle_losses
from risk.rules.options import Rules

SUMMARY_VERSION = 1

# A roll's effect on the attacker's balance (defender's losses minus attacker's losses).
Losses = tuple[int, int]  # (attacker's, defender's)
# (attacker seat, defender seat, source, target, armies in the source, armies in the target)
_Fight = tuple[int, int, int, int, int, int]


@cache
def expected_losses(attacker_dice: int, defender_dice: int) -> tuple[Fraction, Fraction]:
    """The exact expected losses (attacker's, defender's) of one roll of these dice."""
    outcomes = roll_outcomes(attacker_dice, defender_dice)
    return (
        sum((p * lost_a for (lost_a, _), p in outcomes.items()), Fraction(0)),
        sum((p * lost_d for (_, lost_d), p in outcomes.items()), Fraction(0)),
    )


# Every expectation here is a whole number of 1/6**5 of an army (a roll of 3 dice against 2 has 6**5
# equally likely throws, a re-rolled die 6 faces): the sums are kept in those units, exact and fast.
UNIT = 6**5


@cache
def _scaled_expected(attacker_dice: int, defender_dice: int) -> tuple[int, int]:
    scaled = tuple(x * UNIT for x in expected_losses(attacker_dice, defender_dice))
    assert all(x.denominator == 1 for x in scaled)
    return int(scaled[0]), int(scaled[1])


def _balance(losses: Losses) -> int:
    """The attacker's balance of a roll, in units: the defender's losses minus the attacker's."""
    return (losses[1] - losses[0]) * UNIT


def _reroll_average(attack: tuple[int, ...], defence: tuple[int, ...], side: str, die: int) -> int:
    """The attacker's expected balance (units) when die ``die`` (1: the highest) of ``side`` is thrown
    again."""
    total = 0
    for face in range(1, 7):
        dice = list(attack if side == "attacker" else defence)
        dice[die - 1] = face
        dice.sort(reverse=True)
        new = (tuple(dice), defence) if side == "attacker" else (attack, tuple(dice))
        total += _balance(battle_losses(*new))
    return total // 6


@dataclass
class _Roll:
    """One battle roll being followed: who fights, the dice as they stand, the luck so far."""

    attacker: int
    defender: int
    source: int
    target: int
    dice: tuple[tuple[int, ...], tuple[int, ...]]
    expected: tuple[int, int]  # units
    luck: int = 0  # the attacker's, in units
    edge: int = 0  # the attacker's, in units

    def current(self) -> Losses:
        return battle_losses(*self.dice)


@dataclass
class _Battle:
    attacker: int
    defender: int
    source: int
    target: int
    turn: int
    round: int
    frame: int
    attacking_armies: int
    defending_armies: int
    rolls: int = 0
    lost: list[int] = field(default_factory=lambda: [0, 0])  # attacker's, defender's
    expected: list[int] = field(default_factory=lambda: [0, 0])  # units, as every sum below
    luck: int = 0
    edge: int = 0
    conquered: bool = False


@dataclass
class _SeatLuck:
    rolls: int = 0
    attacks: int = 0  # battles as the attacker
    defences: int = 0  # battles as the defender
    lost: int = 0
    expected_lost: int = 0
    killed: int = 0
    expected_killed: int = 0
    luck_attacking: int = 0
    luck_defending: int = 0
    edge: int = 0


def _number(units: int) -> float:
    return round(units / UNIT, 4)


class _Luck:
    """Follows the battle rolls of a replay and adds up the luck meter."""

    def __init__(self, seats: int) -> None:
        self.seats = [_SeatLuck() for _ in range(seats)]
        self.battles: list[_Battle] = []
        self.roll: _Roll | None = None
        self.open: _Battle | None = None  # the battle the last roll belonged to, if it may go on

    def rolled(self, fight: _Fight, dice: Any, game: Game, frame: int, rounds: int) -> None:
        attacker, defender, source, target, attacking, defending = fight
        attack, defence = tuple(dice[0]), tuple(dice[1])
        expected = _scaled_expected(len(attack), len(defence))
        roll = _Roll(attacker, defender, source, target, (attack, defence), expected)
        roll.luck = _balance(roll.current()) - (expected[1] - expected[0])
        self.roll = roll
        battle = self.open
        if battle is None or (battle.attacker, battle.source, battle.target, battle.turn) != (
            attacker,
            source,
            target,
            game.turn,
        ):
            battle = _Battle(
                attacker, defender, source, target, game.turn, rounds, frame,
                attacking_armies=attacking, defending_armies=defending,
            )  # fmt: skip
            self.battles.append(battle)
            self.seats[attacker].attacks += 1
            self.seats[defender].defences += 1
        self.open = battle

    def rerolled(self, action: Reroll, face: int) -> None:
        roll = self.roll
        if roll is None:
            return
        before = _balance(roll.current())
        average = _reroll_average(*roll.dice, action.side, action.die)
        attack, defence = roll.dice
        dice = list(attack if action.side == "attacker" else defence)
        dice[action.die - 1] = face
        dice.sort(reverse=True)
        roll.dice = (tuple(dice), defence) if action.side == "attacker" else (attack, tuple(dice))
        roll.luck += _balance(roll.current()) - average
        roll.edge += average - before

    def commanded(self, action: Commander) -> None:
        roll = self.roll
        if roll is None:
            return
        before = _balance(roll.current())
        attack = list(roll.dice[0])
        attack[action.die - 1] = 6
        roll.dice = (tuple(sorted(attack, reverse=True)), roll.dice[1])
        roll.edge += _balance(roll.current()) - before

    def settled(self, battle: Battle) -> None:
        roll, record = self.roll, self.open
        if roll is None or record is None:
            return
        self.roll = None
        # The engine's own settlement is the truth; the dice followed here must agree with it.
        if (battle.attacker_dice, battle.defender_dice) != roll.dice:
            raise RecordError(
                f"the luck meter lost track of a roll: it followed {roll.dice}, the game settled "
                f"{(battle.attacker_dice, battle.defender_dice)}"
            )
        lost = (battle.attacker_losses, battle.defender_losses)
        record.rolls += 1
        for side in (0, 1):
            record.lost[side] += lost[side]
            record.expected[side] += roll.expected[side]
        record.luck += roll.luck
        record.edge += roll.edge
        record.conquered = battle.conquered
        attacker, defender = self.seats[roll.attacker], self.seats[roll.defender]
        for seat, own, other in ((attacker, 0, 1), (defender, 1, 0)):
            seat.rolls += 1
            seat.lost += lost[own]
            seat.expected_lost += roll.expected[own]
            seat.killed += lost[other]
            seat.expected_killed += roll.expected[other]
        attacker.luck_attacking += roll.luck
        defender.luck_defending -= roll.luck
        attacker.edge += roll.edge
        defender.edge -= roll.edge
        if battle.conquered:
            self.open = None

    def to_dict(self) -> dict[str, Any]:
        seats = [
            {
                "seat": index,
                "luck": _number(s.luck_attacking + s.luck_defending),
                "attacking": _number(s.luck_attacking),
                "defending": _number(s.luck_defending),
                "edge": _number(s.edge),
                "rolls": s.rolls,
                "attacks": s.attacks,
                "defences": s.defences,
                "lost": s.lost,
                "expected_lost": _number(s.expected_lost),
                "killed": s.killed,
                "expected_killed": _number(s.expected_killed),
            }
            for index, s in enumerate(self.seats)
        ]
        battles = [
            {
                "attacker": b.attacker,
                "defender": b.defender,
                "from": b.source,
                "to": b.target,
                "turn": b.turn,
                "round": b.round,
                "frame": b.frame,
                "armies": [b.attacking_armies, b.defending_armies],
                "rolls": b.rolls,
                "lost": list(b.lost),
                "expected": [_number(x) for x in b.expected],
                "luck": _number(b.luck),
                "edge": _number(b.edge),
                "conquered": b.conquered,
            }
            for b in self.battles
            if b.rolls
        ]
        rolls = sum(b.rolls for b in self.battles)
        lost = [sum(b.lost[side] for b in self.battles) for side in (0, 1)]
        expected = [sum(b.expected[side] for b in self.battles) for side in (0, 1)]
        return {
            "seats": seats,
            "battles": battles,
            "total": {
                "rolls": rolls,
                "battles": len(battles),
                "attackers_lost": lost[0],
                "attackers_expected": _number(expected[0]),
                "defenders_lost": lost[1],
                "defenders_expected": _number(expected[1]),
                # The attackers' luck, all together (the defenders' is its opposite).
                "attackers_luck": _number(sum(b.luck for b in self.battles)),
            },
        }


def _fight(game: Game, action: Any) -> _Fight | None:
    """Who fights where, before ``action`` is applied, if it may roll the battle dice."""
    if isinstance(action, Attack):
        source, target = action.source, action.target
    elif isinstance(action, Defend) and game.pending_attack is not None:
        source, target, _ = game.pending_attack
    else:
        return None
    attacker = game.current if game.units is not None else game.owner[source]
    return attacker, game.defending_seat(target), source, target, game.armies[source], game.armies[target]


def _arrow(game: Game, action: Any) -> list[Any] | None:
    """What the action points at on the map, before it is applied: [from, to, "attack" or "move"]."""
    if isinstance(action, Attack):
        return [action.source, action.target, "attack"]
    if isinstance(action, Fortify):
        return [action.source, action.target, "move"]
    if isinstance(action, Defend) and game.pending_attack is not None:
        return [game.pending_attack[0], game.pending_attack[1], "attack"]
    if isinstance(action, Occupy) and game.pending_occupation is not None:
        return [game.pending_occupation[0], game.pending_occupation[1], "move"]
    if isinstance(action, (Reroll, Commander, AcceptDice)) and game.pending_roll is not None:
        return [game.pending_roll[0], game.pending_roll[1], "attack"]
    return None


def _sample(game: Game) -> list[list[int]]:
    """Armies on the board, territories, cards held and continents held, for every seat."""
    seats = range(len(game.players))
    if game.units is not None:
        armies = [sum(stack[seat] for stack in game.units) for seat in seats]
    else:
        armies = [0] * len(game.players)
        for owner, count in zip(game.owner, game.armies, strict=True):
            if owner >= 0:
                armies[owner] += count
    return [
        armies,
        [game.territory_count[seat] for seat in seats],
        [len(game.hands[seat]) for seat in seats],
        [len(game.continents_of(seat)) for seat in seats],
    ]


SERIES = ("armies", "territories", "cards", "continents")
# A frame is a list: the state after one action (the first frame: after the opening's chance steps).
# ``phase`` indexes the list of phase names; ``player`` is whose turn it is, ``seat`` who acted (-1:
# no one); ``changes`` is flat triples (territory, owner, armies) of what differs from the frame before;
# ``arrow`` is what the action pointed at, [from, to, "attack" or "move"], or null.
FRAME_FIELDS = ("turn", "round", "phase", "player", "seat", "changes", "log", "arrow")
PHASES = [PHASE_NAMES[Phase(number)] for number in range(len(Phase))]  # a frame's phase: its number


def _text(lines: list[LogLine]) -> str:
    return " ".join(line.text for line in lines)


def summarize(game: Game) -> dict[str, Any]:
    """The summary of ``game`` so far (see the module's description): its history is replayed from
    the start; ``game`` itself is not changed. Raises :class:`RecordError` if the history does not
    replay (a game built by hand around the rules)."""
    return summarize_history(game.rules, list(game.players[: game.humans]), game.board, game.history)


def summarize_history(
    rules: Rules, players: list[str], board: Board | str, history: list[tuple[str, Any, Any]]
) -> dict[str, Any]:
    """The summary of the game with these settings and this history (``Game.history``: actions and
    chance outcomes, in order). Only the public part of it reaches the answer."""
    outcomes = deque((kind, value) for entry, kind, value in history if entry == "chance")
    actions = [(seat, action) for entry, seat, action in history if entry == "action"]
    try:
        # The outcomes come from the history, never from a generator: the seed plays no part.
        game = Game(rules, players, seed=0, board=board, _script=outcomes)
    except RiskError as error:  # a history that does not fit its own rules
        raise RecordError(f"the game's opening does not replay: {error}") from None
    board_data = game.board
    starters: list[int] = []  # who started each turn, to count rounds as players do
    counted = [0]  # the rounds the turns so far span (counted again only when a turn starts)

    def rounds() -> int:
        if len(starters) < game.turn:
            while len(starters) < game.turn:
                starters.append(game.current)
            counted[0] = count_rounds(starters, game.humans)
        return counted[0]

    opening = narrate(game, snapshot(game), list(game.history))
    owner, armies = list(game.owner), list(game.armies)
    frames: list[list[Any]] = [[game.turn, 0, int(game.phase), game.current, -1, [], _text(opening), None]]
    initial = {"owner": owner[:], "armies": armies[:]}
    series: dict[str, Any] = {"turn": [], "round": [], "player": [], "frame": []} | {k: [] for k in SERIES}

    def sample(frame: int) -> None:
        for name, values in zip(SERIES, _sample(game), strict=True):
            series[name].append(values)
        series["turn"].append(game.turn)
        series["round"].append(rounds())
        series["player"].append(game.current)
        series["frame"].append(frame)

    luck = _Luck(len(game.players))
    for number, (seat, action) in enumerate(actions, start=1):
        if action is None:
            raise RecordError(f"action {number} is hidden: this history was written for one player")
        fight, arrow = _fight(game, action), _arrow(game, action)
        before, start, settled = snapshot(game), len(game.history), game.last_battle
        turn = game.turn
        try:
            if seat != game.to_act and not isinstance(action, Resign):  # a player resigns at any time
                raise RecordError(f"it is by seat {seat}, but seat {game.to_act} was to act")
            game.apply(action)
        except RiskError as error:
            raise RecordError(
                f"action {number} ({action.text(board_data)!r}) does not replay: {error}"
            ) from None
        entries = game.history[start:]
        for _, kind, value in entries:
            if kind == "dice" and fight is not None:
                luck.rolled(fight, value, game, number, rounds())
            elif kind == "die" and isinstance(action, Reroll):
                luck.rerolled(action, value)
        if isinstance(action, Commander):
            luck.commanded(action)
        if game.last_battle is not None and game.last_battle is not settled:
            luck.settled(game.last_battle)
        changes: list[int] = []
        for territory, (now_owner, now_armies) in enumerate(zip(game.owner, game.armies, strict=True)):
            if now_owner != owner[territory] or now_armies != armies[territory]:
                changes += [territory, now_owner, now_armies]
                owner[territory], armies[territory] = now_owner, now_armies
        text = _text(narrate(game, before, entries)) or f"{game.players[seat]}: {action.text(board_data)}."
        frames.append([game.turn, rounds(), int(game.phase), game.current, seat, changes, text, arrow])
        if game.turn != turn and game.turn >= 1:
            sample(number)
    if outcomes:
        raise RecordError("the history has chance outcomes that its actions did not use")
    if game.turn >= 1 and (not series["frame"] or series["frame"][-1] != len(actions)):
        sample(len(actions))  # the end of the game (or of the record)

    outcome = game.outcome()
    return {
        "version": SUMMARY_VERSION,
        "rules": game.rules.describe(),
        "game": game.rules.game,
        "goal": game.goal.to_dict(),  # how it was won, for the page (seat colours), not the game's name
        "board": board_data.name,
        "territories": [board_data.slug_of(t) for t in range(len(board_data))],  # what indexes name
        "players": [
            {
                "seat": index,
                "name": name,
                "neutral": game.neutral[index],
                "team": None if game.team is None else game.team[index],
                "alive": game.alive[index],
            }
            for index, name in enumerate(game.players)
        ],
        "over": game.is_over,
        "winner": None if outcome is None else outcome.winner,
        "winners": [] if outcome is None else list(outcome.winners),
        "reason": None if outcome is None else outcome.reason,
        "turns": game.turn,
        "rounds": rounds(),
        "actions": len(actions),
        "series": series,
        "luck": luck.to_dict(),
        "frames": {"fields": list(FRAME_FIELDS), "phases": PHASES, "initial": initial, "steps": frames},
    }


def check_board(text: str) -> None:
    """Refuse a record whose header names a board that is not shipped and does not carry the board
    itself (``board-json``, checked against its digest when replayed): a board may be a file path for
    the library, and an uploaded record must never make the server read a file."""
    named: tuple[int, str] | None = None
    carried = False
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line == SEPARATOR:
            break
        key, sep, value = line.partition(":")
        key = key.strip().lower() if number > 1 and sep else ""
        if key == "board":
            named = (number, value.strip())
        carried = carried or key == BOARD_JSON
    if named is not None and not carried:
        number, name = named
        if normalise(name) not in {normalise(shipped) for shipped in available_maps()}:
            raise RecordError(f"no board {name!r}; boards: {', '.join(available_maps())}", number)


def replay_upload(text: str) -> Replay:
    """An uploaded record replayed on its own board (a shipped board's, or the one it carries), never a
    file it names. Raises :class:`RecordError` naming the line."""
    if not text.lstrip().startswith(MAGIC):
        raise RecordError(f"a record starts with {MAGIC!r}", 1)
    check_board(text)
    return replay_record(text)


def summarize_record(text: str) -> tuple[dict[str, Any], bool]:
    """The summary of a record's game, and whether its chance outcomes are the ones its seed gives
    (False without a seed: nothing to check). Raises :class:`RecordError` naming the line."""
    replay = replay_upload(text)
    return summarize(replay.game), replay.verified


__all__ = [
    "FRAME_FIELDS",
    "SERIES",
    "SUMMARY_VERSION",
    "check_board",
    "expected_losses",
    "replay_upload",
    "summarize",
    "summarize_history",
    "summarize_record",
]
