"""Taking back moves that revealed nothing new, without ever rewriting a stored game.

A game is stored as its entries, append-only, and the state id (the seq of the newest entry) only
grows. An undo is an entry of its own whose text is ``#undo S``, S being the seq of the first action it
takes back. The *effective* actions come from reading the entries in order and, at ``#undo S``,
dropping every effective entry with seq >= S (an earlier undo entry included). Whatever rebuilds a game
(a restart, a record, a summary) replays the effective actions only, with :func:`effective_actions`.

What may be taken back (:func:`reveals_nothing`): a placement (reinforcements, an elimination trade's,
an active neutral ally's), the move into a conquered territory, a fortification after which the same
seat is still to act, and only if the step drew on no chance: no die, no card, no shuffle (the
generator's state is the same before and after). Taking such a step back tells its player nothing
they could use to choose again, and the generator goes on exactly as if the step had never been made.
Dice, cards drawn or traded, headquarters, missions and everything before them stay.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from risk.rules.actions import Action, Fortify, Occupy, Place
from risk.rules.game import Game, Phase
from risk.rules.variants.fog import EVERYONE, sees
from risk.server.logwindow import SEEN_BY
from risk.server.storage import ActionRecord

UNDO_WORD = "#undo"

# The phases whose placements and moves may be taken back, and the actions.
UNDOABLE_PHASES = frozenset(
    {Phase.REINFORCE, Phase.ELIMINATION_TRADE, Phase.ALLY_PLACE, Phase.OCCUPY, Phase.FORTIFY}
)
UNDOABLE_ACTIONS = (Place, Occupy, Fortify)


def undo_text(first: int) -> str:
    """The stored text of an undo that takes back the actions from seq ``first`` on."""
    return f"{UNDO_WORD} {first}"


def undo_target(text: str) -> int | None:
    """S for an undo entry ``#undo S``; None for an action. Raises ValueError for a broken undo entry."""
    if not text.startswith("#"):
        return None
    word, _, number = text.partition(" ")
    if word != UNDO_WORD or not number.isdigit():
        raise ValueError(f"{text!r} is not an undo entry ('{UNDO_WORD} S')")
    return int(number)


@dataclass(frozen=True)
class Undo:
    """An undo entry that still counts, and the actions it took back (oldest first)."""

    entry: ActionRecord
    undone: tuple[ActionRecord, ...]

    @property
    def seq(self) -> int:
        return self.entry.seq


def effective_entries(records: Iterable[ActionRecord]) -> list[ActionRecord | Undo]:
    """The actions that count and the undo entries that count (each with what it took back), in order.

    An undo entry counts until a later undo takes back an action stored before it: its log line goes
    with the actions it follows."""
    effective: list[ActionRecord | Undo] = []
    for record in records:
        first = undo_target(record.text)
        if first is None:
            effective.append(record)
            continue
        cut = len(effective)
        while cut > 0 and effective[cut - 1].seq >= first:
            cut -= 1
        undone = tuple(e for e in effective[cut:] if isinstance(e, ActionRecord))
        del effective[cut:]
        effective.append(Undo(record, undone))
    return effective


def effective_actions(records: Iterable[ActionRecord]) -> list[ActionRecord]:
    """The actions that count, in order: the stored entries with every undone action (and every undo
    entry) left out. Replaying them rebuilds the game exactly."""
    return [e for e in effective_entries(records) if isinstance(e, ActionRecord)]


def may_take_back(game: Game, action: Action) -> bool:
    """Whether ``action``, made now, is of a kind that may be taken back (:func:`reveals_nothing` decides
    once it is made)."""
    return isinstance(action, UNDOABLE_ACTIONS) and game.phase in UNDOABLE_PHASES


def reveals_nothing(before: Game, after: Game, seat: int) -> bool:
    """Whether the step from ``before`` to ``after``, one action of ``seat``, may be taken back."""
    added = after.history[len(before.history) :]
    if len(added) != 1:  # the action alone: no die rolled, no card drawn, no deal
        return False
    kind, who, action = added[0]
    return (
        kind == "action"
        and who == seat
        and isinstance(action, UNDOABLE_ACTIONS)
        and before.phase in UNDOABLE_PHASES
        and not after.is_over
        and after.to_act == seat
        and same_generator(before, after)
    )


def same_generator(before: Game, after: Game) -> bool:
    """The games' random generators are in the same state: nothing random happened between them (a
    shuffle is not in the history, so the generator itself is compared). The server owns these
    engines; no player's view is involved."""
    return before.same_generator(after)


@dataclass(frozen=True)
class Checkpoint:
    """The position before an action that may still be taken back."""

    seq: int  # the action's stored seq
    seat: int
    text: str
    game: Game  # before the action; never changed
    log_length: int  # the log's length before the action's lines
    turns: int  # how many turns had started (the master's round count) before it


def undo_line(name: str, seat: int, undone: int, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The log line of an undo: who took back what, in the words of the lines it removed."""
    said = " ".join(line["text"] for line in lines if line.get("kind") != "undo")
    what = "a move" if undone == 1 else f"{undone} moves"
    return {"text": f"{name} takes back {what}: {said}", "kind": "undo", "seat": seat}


def undo_lines(
    name: str, seat: int, undone: int, lines: list[dict[str, Any]], seats: int
) -> list[dict[str, Any]]:
    """The log lines of an undo. Under fog of war (lines with readers, ``seen_by``) each of the
    ``seats`` that read some of the lines taken back is told those alone, and how many, in a line
    read by the seats told the same (a spectator reads none of them): the words of a line it did not
    read would tell what the fog hides."""
    if all(SEEN_BY not in line for line in lines):
        return [undo_line(name, seat, undone, lines)]
    told: dict[tuple[int, ...], int] = {}  # the lines read (their indexes) -> the seats that read them
    for reader in range(seats):
        read = tuple(
            i
            for i, line in enumerate(lines)
            if line.get("kind") != "undo" and sees(line.get(SEEN_BY, EVERYONE), reader)
        )
        if read:
            told[read] = told.get(read, 0) | 1 << reader
    moves = sum(1 for line in lines if line.get("kind") != "undo")
    return [
        undo_line(name, seat, undone if len(read) == moves else len(read), [lines[i] for i in read])
        | {SEEN_BY: readers}
        for read, readers in told.items()
    ]
