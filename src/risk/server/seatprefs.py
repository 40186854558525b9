"""A human seat's own settings, kept with the seat in the store (``SeatRecord.prefs``), so the server
applies them whether or not the player's page is open (docs/web.md, "A seat's settings"):

- ``defence``: how the seat's defence dice are chosen. ``most``: always the most dice, never asked
  (what the lobby gives every human seat it creates, and a new player's browser the games it
  joins); ``matters``: asked only when rolling fewer dice can be better
  (:func:`fewer_dice_can_be_better`, from :mod:`risk.odds`), else the most; ``ask``: asked once per
  attack: the answer stands for the rest of that attack on that territory (the same attacker, the
  same turn), so a whole attack asks at most once; ``every``: asked for every roll. A seat with no
  setting (``None``: made through the API without one, or before settings existed) is asked for every
  roll, as it always was: a program that answers its own dice goes on doing so.
- ``pace``: how fast the bots play while this player watches: ``watch`` (the game's delay per move),
  ``fast`` (a short pause before each attack, none otherwise: a new seat's) or ``skip`` (no pause: to
  my turn). The game goes at the pace of the slowest human who has the game open (:func:`game_pace`).
- ``auto_setup``: a standing order during the setup: the seat's claims and starting armies are
  placed for it, as the ``hard`` level's bot (:data:`AUTO_SETUP_BOT`, the warlord) would, each time
  its turn in the setup comes: small continents claimed, the armies spread over the borders that face
  an enemy, most toward the continents the seat can hold;
  ``queue``: ``[[territory, n], ...]``, the seat's next setup placements, one army at a time.

Everything here is a plain function of the game and the seat's record: no store, no clock.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from risk.odds import invasion, roll_outcomes
from risk.rules.actions import Defend
from risk.rules.game import Game, Phase
from risk.server.errors import Refusal
from risk.server.storage import SeatRecord

DEFENCES = ("most", "matters", "ask", "every")
ASKED_EVERY_ROLL = (None, "every")  # no setting (a seat made through the API without one) or "every"
PACES = ("watch", "fast", "skip")  # slowest first
NEW_PLAYER_DEFENCE = "most"  # what the browser gives the games of a player who never chose
DEFAULT_PACE = "fast"  # a new seat's: the bots' attacks glimpsed, the rest at once (issue 37)
BOTS_ONLY_PACE = "watch"  # a game of bots alone goes at its own delay: people watch it
# Who plays a seat's auto setup: the strong player's claims and spread placement, whatever the game's
# stand-in (the quick bot piles every army on one territory).
AUTO_SETUP_BOT = "hard"
FAST_DELAY = 0.15  # seconds before a bot's attack at the "fast" pace (never more than the game's delay)
MAX_QUEUE = 200  # setup placements one seat may queue (a setup has at most a few dozen)
SETUP_PHASES = (Phase.CLAIM, Phase.SETUP_PLACE)
# How much better fewer dice must be to count: the odds are floats; a tie is not "better".
BETTER_BY = 1e-9


@dataclass(frozen=True)
class SeatPrefs:
    defence: str | None = None  # None: asked every roll (no setting)
    pace: str = DEFAULT_PACE
    auto_setup: bool = False
    queue: tuple[tuple[str, int], ...] = ()
    # The defence dice the seat chose for the attack under way: (turn, attacker, target slug, dice).
    answer: tuple[int, int, str, int] | None = None

    @classmethod
    def of(cls, seat: SeatRecord) -> SeatPrefs:
        raw = seat.prefs or {}
        answer = raw.get("answer")
        return cls(
            defence=raw.get("defence"),
            pace=raw.get("pace", DEFAULT_PACE),
            auto_setup=bool(raw.get("auto_setup", False)),
            queue=tuple((str(t), int(n)) for t, n in raw.get("queue", ())),
            answer=None
            if answer is None
            else (int(answer[0]), int(answer[1]), str(answer[2]), int(answer[3])),
        )

    def stored(self) -> dict[str, Any]:
        """What the store keeps (JSON)."""
        out: dict[str, Any] = {"pace": self.pace, "auto_setup": self.auto_setup}
        if self.defence is not None:
            out["defence"] = self.defence
        if self.queue:
            out["queue"] = [[t, n] for t, n in self.queue]
        if self.answer is not None:
            out["answer"] = list(self.answer)
        return out

    def public(self) -> dict[str, Any]:
        """What the seat's own page is shown."""
        return {
            "defence": self.defence,
            "pace": self.pace,
            "auto_setup": self.auto_setup,
            "queue": [{"territory": t, "count": n} for t, n in self.queue],
        }


def check_defence(value: str) -> str:
    if value not in DEFENCES:
        raise Refusal("bad-request", f"no defence setting {value!r}; settings: {', '.join(DEFENCES)}")
    return value


def check_pace(value: str) -> str:
    if value not in PACES:
        raise Refusal("bad-request", f"no pace {value!r}; paces: {', '.join(PACES)}")
    return value


def creation_prefs(defence: str | None, pace: str | None, auto_setup: bool) -> dict[str, Any]:
    """A human seat's settings as a new game stores them (checked)."""
    return SeatPrefs(
        defence=None if defence is None else check_defence(defence),
        pace=check_pace(pace or DEFAULT_PACE),
        auto_setup=auto_setup,
    ).stored()


# -- defence ---------------------------------------------------------------------------------------
def _hold_this_roll(attacker_dice: int, dice: int, defenders: int) -> float:
    return float(sum(p for (_, lost), p in roll_outcomes(attacker_dice, dice).items() if lost < defenders))


def _hold_to_the_end(attackers: int, attacker_dice: int, dice: int, defenders: int) -> float:
    """P(the territory holds) when this roll is thrown with ``dice`` and the attacker then goes on with
    the most dice until it wins or has no army left to attack with (both sides the most dice after)."""
    held = 0.0
    for (lost_a, lost_d), p in roll_outcomes(attacker_dice, dice).items():
        left_a, left_d = attackers - lost_a, defenders - lost_d
        if left_d <= 0:
            continue
        held += float(p) * (1.0 if left_a <= 0 else invasion(left_a, left_d).defender_wins)
    return held


@lru_cache(maxsize=4096)
def fewer_dice_can_be_better(attackers: int, attacker_dice: int, defenders: int, most: int) -> bool:
    """Whether a defender of ``defenders`` armies, attacked with ``attacker_dice`` dice by a territory
    with ``attackers`` fighting armies (all but the one that stays), may do better with fewer than its
    ``most`` dice: a higher chance to still hold the territory after this roll (the attacker may stop
    there) or after an attack to the end. With the usual dice, only a defender of 2 armies against 2
    or 3 dice (docs/odds.md, "Fewer defence dice")."""
    for dice in range(1, most):
        if (
            _hold_this_roll(attacker_dice, dice, defenders)
            > _hold_this_roll(attacker_dice, most, defenders) + BETTER_BY
        ):
            return True
        if (
            _hold_to_the_end(attackers, attacker_dice, dice, defenders)
            > _hold_to_the_end(attackers, attacker_dice, most, defenders) + BETTER_BY
        ):
            return True
    return False


def attack_key(game: Game) -> tuple[int, int, str] | None:
    """(turn, attacker, target slug) of the attack waiting for its defence dice, else None."""
    pending = game.pending_attack
    if game.phase != Phase.DEFEND or pending is None:
        return None
    return game.turn, game.current, game.board.slug_of(pending[1])


def defence_range(game: Game) -> tuple[int, int]:
    """The fewest and the most defence dice the defender may roll now."""
    dice = [action.dice for action in game.legal_actions() if isinstance(action, Defend)]
    return min(dice), max(dice)


def standing_defence(game: Game, seat: SeatRecord) -> str | None:
    """The defence the server rolls for a human seat playing itself, by its setting; None: the seat
    is asked (its page shows the choice; the defence clock, if any, runs)."""
    if game.phase != Phase.DEFEND or game.to_act != seat.seat:
        return None
    fewest, most = defence_range(game)
    if fewest == most:
        return f"defend {most}"  # no choice to make
    prefs = SeatPrefs.of(seat)
    if prefs.defence in ASKED_EVERY_ROLL:
        return None
    key = attack_key(game)
    if prefs.answer is not None and key is not None and prefs.answer[:3] == key:
        return f"defend {max(fewest, min(most, prefs.answer[3]))}"  # the answer stands for this attack
    if prefs.defence == "most":
        return f"defend {most}"
    if prefs.defence == "matters":
        pending = game.pending_attack
        assert pending is not None
        source, target, attacker_dice = pending
        attackers = _fighting(game, source)
        if not fewer_dice_can_be_better(attackers, attacker_dice, game.armies[target], most):
            return f"defend {most}"
    return None


def _fighting(game: Game, source: int) -> int:
    """The attacker's armies that may still fight from ``source`` (all but the one that stays)."""
    armies = game.armies[source] if game.units is None else game.force(source, game.current)
    return max(1, armies - 1)


def with_answer(seat: SeatRecord, key: tuple[int, int, str], dice: int) -> dict[str, Any] | None:
    """The seat's settings once it has answered ``defend dice`` to the attack ``key``; None when no
    answer is kept (a seat with no defence setting is asked every roll)."""
    prefs = SeatPrefs.of(seat)
    if prefs.defence in ASKED_EVERY_ROLL:
        return None
    return SeatPrefs(prefs.defence, prefs.pace, prefs.auto_setup, prefs.queue, (*key, dice)).stored()


# -- setup orders ------------------------------------------------------------------------------------
def queued_placement(game: Game, seat: SeatRecord) -> str | None:
    """The seat's next queued setup placement, if it is its turn to place one and it is legal."""
    if game.phase != Phase.SETUP_PLACE or game.to_act != seat.seat:
        return None
    prefs = SeatPrefs.of(seat)
    if not prefs.queue:
        return None
    text = f"place {prefs.queue[0][0]} 1"
    try:
        return text if game.is_legal(game.parse(text)) else None
    except Exception:  # a territory the board no longer has: the queue is ignored
        return None


def after_placement(seat: SeatRecord, text: str) -> dict[str, Any] | None:
    """The seat's settings after it placed ``text`` (the queue one shorter when it placed on the
    queue's first territory); None when they do not change."""
    prefs = SeatPrefs.of(seat)
    words = text.split()
    if not prefs.queue or len(words) < 2 or words[0] != "place" or words[1] != prefs.queue[0][0]:
        return None
    (territory, count), rest = prefs.queue[0], prefs.queue[1:]
    placed = int(words[2]) if len(words) > 2 else 1
    queue = ((territory, count - placed), *rest) if count > placed else rest
    return SeatPrefs(prefs.defence, prefs.pace, prefs.auto_setup, queue, prefs.answer).stored()


def queue_more(queue: Sequence[tuple[str, int]], territory: str, count: int) -> tuple[tuple[str, int], ...]:
    """``queue`` with ``count`` more setup placements on ``territory`` at its end."""
    longer = list(queue)
    if longer and longer[-1][0] == territory:
        longer[-1] = (territory, longer[-1][1] + count)
    else:
        longer.append((territory, count))
    if sum(n for _, n in longer) > MAX_QUEUE:
        raise Refusal("bad-request", f"at most {MAX_QUEUE} setup placements may be queued")
    return tuple(longer)


# -- pace ------------------------------------------------------------------------------------------
def game_pace(seats: Sequence[SeatRecord], present: Collection[int] | None) -> str:
    """The pace of the slowest human with the game open (``present``); if none has it open, of the
    slowest human playing their own seat; ``watch`` (the game's delay) in a game of bots only."""
    humans = [s for s in seats if s.kind == "human" and s.stand_in is None]
    watching = [s for s in humans if present is not None and s.seat in present]
    chosen = [SeatPrefs.of(s).pace for s in watching or humans]
    return min(chosen, key=PACES.index, default=BOTS_ONLY_PACE)


def move_delay(pace: str, game_delay: float, phase: Phase) -> float:
    """Seconds the server waits before a bot's move (or a seat's standing order) at ``pace``. The
    setup's claims and placements, one army at a time, never wait longer than the fast pace's pause
    before an attack: watching a hundred single armies land is no part of a game."""
    if phase in SETUP_PHASES and pace != "skip":
        return min(game_delay, FAST_DELAY)
    if pace == "watch":
        return game_delay
    if pace == "fast":
        return min(game_delay, FAST_DELAY) if phase == Phase.ATTACK else 0.0
    return 0.0
