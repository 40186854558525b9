"""Actions and their text notation.

Every action a player can take has one line of text, printed and parsed exactly (docs/notation.md):

    claim alaska                      claim an empty territory (setup)
    place alaska 3                    place armies (setup: always 1; the count may be left out)
    trade alaska kamchatka wild1      trade a set of three cards
    attack kamchatka alaska 3         attack with 1-3 dice
    defend 2                          the defender's choice of 1 or 2 dice
    move 5                            armies moved into a conquered territory
    endattack                         stop attacking
    fortify siberia ural 4            the free move
    endturn                           end the turn (without fortifying, or after)
    capital alaska                    Capital RISK: choose a headquarters (secret until all have chosen)
    mission captain-australia         Mission RISK: claim a completed mission at the time it names
    reroll attacker 2                 experts: re-roll one die (holding the card of either territory)
    commander 1                       experts: once a turn, turn one of your dice into a 6
    accept                            let the dice stand
    bribe neutral-2 alaska            active neutrals: give a card to a neutral (moves it toward you)
    reinforce neutral-2               active neutrals: roll a die and place that many for an ally
    calloff                           active neutrals: call off an invasion (the neutrals' dice follow)
    resign 2                          player 2 (0-based) leaves the game, at any time; ``resign``: the
                                      player to act (docs/rules.md, "Resigning")

Territories are printed as lower-case hyphenated names; the parser also takes any spelling the
board accepts (``"Western United States"``, ``Quebec`` or ``Eastern Canada``), with spaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from risk.errors import NotationError
from risk.rules.pickling import picklable

if TYPE_CHECKING:
    from risk.maps import Board

# Each action with fields writes its own ``__init__`` (the one ``dataclass`` would write, by hand): in
# the compiled build (docs/compiled.md) a hand-written one runs as native code, while the generated
# one runs as Python, some 30 times slower, and bots build an action per decision.


@dataclass(frozen=True, slots=True)
class Claim:
    territory: int

    def __init__(self, territory: int) -> None:
        object.__setattr__(self, "territory", territory)

    def text(self, board: Board) -> str:
        return f"claim {board.slug_of(self.territory)}"


@dataclass(frozen=True, slots=True)
class Capital:
    """Capital RISK: choose a headquarters among your territories (kept secret until all have chosen)."""

    territory: int

    def __init__(self, territory: int) -> None:
        object.__setattr__(self, "territory", territory)

    def text(self, board: Board) -> str:
        return f"capital {board.slug_of(self.territory)}"


@dataclass(frozen=True, slots=True)
class ClaimMission:
    """Mission RISK: show a completed mission card, at the time it names."""

    key: str

    def __init__(self, key: str) -> None:
        object.__setattr__(self, "key", key)

    def text(self, board: Board) -> str:
        return f"mission {self.key}"


@dataclass(frozen=True, slots=True)
class Bribe:
    """2-player RISK, active neutrals: give a card to neutral number ``neutral`` (1-4)."""

    neutral: int
    card: int

    def __init__(self, neutral: int, card: int) -> None:
        object.__setattr__(self, "neutral", neutral)
        object.__setattr__(self, "card", card)

    def text(self, board: Board) -> str:
        return f"bribe neutral-{self.neutral} {board.card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class ReinforceAlly:
    """2-player RISK, active neutrals: roll one die and place that many armies for an ally."""

    neutral: int

    def __init__(self, neutral: int) -> None:
        object.__setattr__(self, "neutral", neutral)

    def text(self, board: Board) -> str:
        return f"reinforce neutral-{self.neutral}"


@dataclass(frozen=True, slots=True)
class CallOff:
    """2-player RISK, active neutrals: call off the invasion under way (then roll for the neutrals)."""

    def text(self, board: Board) -> str:
        return "calloff"


@dataclass(frozen=True, slots=True)
class Reroll:
    """1993 experts: re-roll one die of the battle just rolled (side "attacker" or "defender";
    die 1 is the highest of that side)."""

    side: str
    die: int

    def __init__(self, side: str, die: int) -> None:
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "die", die)

    def text(self, board: Board) -> str:
        return f"reroll {self.side} {self.die}"


@dataclass(frozen=True, slots=True)
class Commander:
    """1993 experts: once a turn, turn one of the attacker's dice just rolled into a 6."""

    die: int

    def __init__(self, die: int) -> None:
        object.__setattr__(self, "die", die)

    def text(self, board: Board) -> str:
        return f"commander {self.die}"


@dataclass(frozen=True, slots=True)
class AcceptDice:
    """Let the battle's dice stand (after a roll that could be changed)."""

    def text(self, board: Board) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Place:
    territory: int
    armies: int = 1

    def __init__(self, territory: int, armies: int = 1) -> None:
        object.__setattr__(self, "territory", territory)
        object.__setattr__(self, "armies", armies)

    def text(self, board: Board) -> str:
        return f"place {board.slug_of(self.territory)} {self.armies}"


@dataclass(frozen=True, slots=True)
class Trade:
    """Three cards. Where the territory bonus applies, it goes to the first held territory listed."""

    cards: tuple[int, int, int]

    def __init__(self, cards: tuple[int, int, int]) -> None:
        object.__setattr__(self, "cards", cards)

    def text(self, board: Board) -> str:
        return "trade " + " ".join(board.card_name(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Attack:
    source: int
    target: int
    dice: int

    def __init__(self, source: int, target: int, dice: int) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "dice", dice)

    def text(self, board: Board) -> str:
        return f"attack {board.slug_of(self.source)} {board.slug_of(self.target)} {self.dice}"


@dataclass(frozen=True, slots=True)
class Defend:
    dice: int

    def __init__(self, dice: int) -> None:
        object.__setattr__(self, "dice", dice)

    def text(self, board: Board) -> str:
        return f"defend {self.dice}"


@dataclass(frozen=True, slots=True)
class Occupy:
    armies: int

    def __init__(self, armies: int) -> None:
        object.__setattr__(self, "armies", armies)

    def text(self, board: Board) -> str:
        return f"move {self.armies}"


@dataclass(frozen=True, slots=True)
class EndAttack:
    def text(self, board: Board) -> str:
        return "endattack"


@dataclass(frozen=True, slots=True)
class Fortify:
    source: int
    target: int
    armies: int

    def __init__(self, source: int, target: int, armies: int) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "armies", armies)

    def text(self, board: Board) -> str:
        return f"fortify {board.slug_of(self.source)} {board.slug_of(self.target)} {self.armies}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    def text(self, board: Board) -> str:
        return "endturn"


@dataclass(frozen=True, slots=True)
class Resign:
    """A player leaves the game, at any time, even out of turn: ``player`` is its seat (0-based, as in
    the record's ``~ first P``), or None for the player to act. Its armies stay on the board as
    neutral armies. Never among the legal actions a game lists (bots do not resign)."""

    player: int | None = None

    def __init__(self, player: int | None = None) -> None:
        object.__setattr__(self, "player", player)

    def text(self, board: Board) -> str:
        return "resign" if self.player is None else f"resign {self.player}"


Action = (
    Claim
    | Place
    | Trade
    | Attack
    | Defend
    | Occupy
    | EndAttack
    | Fortify
    | EndTurn
    | Capital
    | ClaimMission
    | Reroll
    | Bribe
    | ReinforceAlly
    | CallOff
    | Commander
    | AcceptDice
    | Resign
)

END_ATTACK: Final = EndAttack()
END_TURN: Final = EndTurn()


def action_territories(action: object) -> tuple[int, ...] | None:
    """The territories an action names itself (a claim, a placement, an attack, a fortification);
    ``None`` for one that names none."""
    if isinstance(action, (Claim, Place)):
        return (action.territory,)
    if isinstance(action, (Attack, Fortify)):
        return (action.source, action.target)
    return None


VERBS = (
    "claim",
    "place",
    "trade",
    "attack",
    "defend",
    "move",
    "endattack",
    "fortify",
    "endturn",
    "capital",
    "mission",
    "reroll",
    "commander",
    "accept",
    "bribe",
    "reinforce",
    "calloff",
    "resign",
)
ACCEPT_DICE: Final = AcceptDice()
CALL_OFF: Final = CallOff()


def _neutral(token: str, text: str) -> int:
    """A neutral's number from ``neutral-2``, ``neutral2``, ``2`` or ``neutral`` (the only one)."""
    digits = token.removeprefix("neutral").lstrip("-") or "1"
    if not _is_whole(digits) or not 1 <= int(digits) <= 9:
        raise NotationError(f"{text!r}: expected a neutral such as 'neutral-2', got {token!r}")
    return int(digits)


def _is_whole(token: str) -> bool:
    """ASCII digits, at most 9 of them: ``str.isdigit`` also takes '²' (which ``int`` refuses), and
    no count in the game has 10 digits (``int`` refuses past 4,300)."""
    return 0 < len(token) <= 9 and token.isascii() and token.isdigit()


def _number(token: str, what: str, text: str) -> int:
    if not _is_whole(token):
        raise NotationError(f"{text!r}: expected {what} (a whole number), got {token!r}")
    return int(token)


def _territories(tokens: list[str], count: int, board: Board, text: str) -> tuple[list[int], list[str]]:
    """Read ``count`` territory names from the front of ``tokens``; names may span several tokens.

    The longest run of tokens that names a territory wins, so ``western united states alberta``
    reads as two territories.
    """
    found: list[int] = []
    rest = tokens
    for _ in range(count):
        for length in range(len(rest), 0, -1):
            index = board.find_territory(" ".join(rest[:length]))
            if index is not None:
                found.append(index)
                rest = rest[length:]
                break
        else:
            shown = " ".join(rest) if rest else "nothing"
            raise NotationError(f"{text!r}: expected a territory name, got {shown!r}")
    return found, rest


def _cards(tokens: list[str], board: Board, text: str) -> tuple[int, int, int]:
    cards: list[int] = []
    rest = tokens
    while rest:
        for length in range(len(rest), 0, -1):
            phrase = " ".join(rest[:length])
            try:
                cards.append(board.card(phrase))
            except ValueError:
                continue
            rest = rest[length:]
            break
        else:
            raise NotationError(f"{text!r}: no card called {' '.join(rest)!r}")
    if len(cards) != 3:
        raise NotationError(f"{text!r}: a trade names exactly three cards, not {len(cards)}")
    return cards[0], cards[1], cards[2]


def parse_action(text: str, board: Board) -> Action:
    """Parse one line of action notation. Raises :class:`NotationError` with what was wrong."""
    tokens = text.strip().lower().replace(",", " ").split()
    if not tokens:
        raise NotationError("empty action: expected one of " + ", ".join(VERBS))
    verb, args = tokens[0], tokens[1:]
    if verb == "end" and args in (["attack"], ["turn"]):
        verb, args = "end" + args[0], []
    parse = _PARSERS.get(verb)
    if parse is None:
        raise NotationError(f"{text!r}: unknown action {verb!r}; expected one of {', '.join(VERBS)}")
    return parse(args, board, text)


# -- one small parser per verb: (the words after the verb, the board, the whole text) -> the action --


def _no_more(rest: list[str], text: str) -> None:
    if rest:
        raise NotationError(f"{text!r}: unexpected {' '.join(rest)!r} at the end")


def _parse_claim(args: list[str], board: Board, text: str) -> Action:
    (territory,), rest = _territories(args, 1, board, text)
    _no_more(rest, text)
    return Claim(territory)


def _parse_bribe(args: list[str], board: Board, text: str) -> Action:
    if len(args) < 2:
        raise NotationError(f"{text!r}: expected 'bribe neutral-N CARD'")
    neutral = _neutral(args[0], text)
    try:
        card = board.card(" ".join(args[1:]))
    except ValueError:
        raise NotationError(f"{text!r}: no card called {' '.join(args[1:])!r}") from None
    return Bribe(neutral, card)


def _parse_reinforce(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 1:
        raise NotationError(f"{text!r}: expected 'reinforce neutral-N'")
    return ReinforceAlly(_neutral(args[0], text))


def _parse_call_off(args: list[str], board: Board, text: str) -> Action:
    _no_more(args, text)
    return CALL_OFF


def _parse_reroll(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 2 or args[0] not in ("attacker", "defender"):
        raise NotationError(f"{text!r}: expected 'reroll attacker N' or 'reroll defender N'")
    return Reroll(args[0], _number(args[1], "a die number", text))


def _parse_commander(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 1:
        raise NotationError(f"{text!r}: expected 'commander N' (N: which of your dice)")
    return Commander(_number(args[0], "a die number", text))


def _parse_accept(args: list[str], board: Board, text: str) -> Action:
    _no_more(args, text)
    return ACCEPT_DICE


def _parse_mission(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 1:
        raise NotationError(f"{text!r}: expected 'mission KEY', e.g. 'mission captain-australia'")
    return ClaimMission(args[0])


def _parse_capital(args: list[str], board: Board, text: str) -> Action:
    (territory,), rest = _territories(args, 1, board, text)
    _no_more(rest, text)
    return Capital(territory)


def _parse_place(args: list[str], board: Board, text: str) -> Action:
    (territory,), rest = _territories(args, 1, board, text)
    armies = _number(rest[0], "a number of armies", text) if rest else 1
    _no_more(rest[1:], text)
    return Place(territory, armies)


def _parse_trade(args: list[str], board: Board, text: str) -> Action:
    return Trade(_cards(args, board, text))


def _two_territories_and_a_number(
    args: list[str], board: Board, text: str, missing: str, what: str
) -> tuple[int, int, int]:
    (source, target), rest = _territories(args, 2, board, text)
    if not rest:
        raise NotationError(f"{text!r}: {missing}")
    number = _number(rest[0], what, text)
    _no_more(rest[1:], text)
    return source, target, number


def _parse_attack(args: list[str], board: Board, text: str) -> Action:
    missing = "an attack ends with the number of dice (1-3)"
    return Attack(*_two_territories_and_a_number(args, board, text, missing, "a number of dice"))


def _parse_defend(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 1:
        raise NotationError(f"{text!r}: expected 'defend 1' or 'defend 2'")
    return Defend(_number(args[0], "a number of dice", text))


def _parse_move(args: list[str], board: Board, text: str) -> Action:
    if len(args) != 1:
        raise NotationError(f"{text!r}: expected 'move N'")
    return Occupy(_number(args[0], "a number of armies", text))


def _parse_end_attack(args: list[str], board: Board, text: str) -> Action:
    _no_more(args, text)
    return END_ATTACK


def _parse_fortify(args: list[str], board: Board, text: str) -> Action:
    missing = "a fortification ends with the number of armies"
    return Fortify(*_two_territories_and_a_number(args, board, text, missing, "a number of armies"))


def _parse_end_turn(args: list[str], board: Board, text: str) -> Action:
    _no_more(args, text)
    return END_TURN


def _parse_resign(args: list[str], board: Board, text: str) -> Action:
    if len(args) > 1:
        raise NotationError(f"{text!r}: expected 'resign' or 'resign P' (P: the player's number from 0)")
    return Resign(_number(args[0], "a player number", text) if args else None)


_PARSERS: dict[str, Callable[[list[str], Board, str], Action]] = {
    "claim": _parse_claim,
    "bribe": _parse_bribe,
    "reinforce": _parse_reinforce,
    "calloff": _parse_call_off,
    "call-off": _parse_call_off,
    "reroll": _parse_reroll,
    "commander": _parse_commander,
    "accept": _parse_accept,
    "mission": _parse_mission,
    "capital": _parse_capital,
    "headquarters": _parse_capital,
    "hq": _parse_capital,
    "place": _parse_place,
    "trade": _parse_trade,
    "attack": _parse_attack,
    "defend": _parse_defend,
    "move": _parse_move,
    "occupy": _parse_move,
    "endattack": _parse_end_attack,
    "fortify": _parse_fortify,
    "endturn": _parse_end_turn,
    "resign": _parse_resign,
}

# Pickled and copied through their constructors in both builds (risk.rules.pickling).
picklable(
    Claim,
    Capital,
    ClaimMission,
    Bribe,
    ReinforceAlly,
    CallOff,
    Reroll,
    Commander,
    AcceptDice,
    Place,
    Trade,
    Attack,
    Defend,
    Occupy,
    EndAttack,
    Fortify,
    EndTurn,
    Resign,
)
