"""Standing orders: the moves at the terminal that no one types one by one. A blitz under way,
setup placements queued by `place T N`, automatic defence (`autodefend`, ``--auto-defend``, Enter
at a defence question for the rest of that attack), and `auto` (the computer plays a human's setup
or turn). :class:`StandingOrders` keeps them and answers whether one applies now; the session plays
them."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from risk.bots import DEFAULT_BOT, Bot, make_bot
from risk.play.simulate import bot_seed
from risk.rules.actions import Place
from risk.rules.game import Phase
from risk.tui.context import Context
from risk.tui.saves import SavedSettings

SETUP_PHASES = (Phase.CLAIM, Phase.SETUP_PLACE)


@dataclass
class Blitz:
    """An attack repeated with the most dice until the target falls or the source is down to 1."""

    source: int
    target: int
    attacker: int
    defenders: tuple[int, ...]  # the target's owner; in Team RISK everyone with armies there
    rolls: int = 0
    lost: int = 0
    killed: int = 0
    conquered: bool = False
    after: list[Text] = field(default_factory=list)  # news shown after the blitz's own line


class StandingOrders:
    """The orders the humans at the keyboard gave for moves to come. ``auto_defend``: every human
    defends with the most dice, unasked; ``settings``: those of a resumed game."""

    def __init__(self, context: Context, auto_defend: bool, settings: SavedSettings | None) -> None:
        self.context = context
        self.game = context.game
        self.auto_defend = auto_defend
        # Humans who turned automatic defence on in the game (`autodefend`).
        self.auto_defenders: set[int] = set()
        self.autopilot: dict[int, int | None] = {}  # player -> turn it plays (None: the setup)
        # Enter at the defence question: the most dice for the rest of that attack this turn, by
        # (turn, from, to); the defender sees the rolls.
        self.defending: set[tuple[int, int, int]] = set()
        self.setup_queue: dict[tuple[int, int], list[int]] = {}  # (player, seat placed for) -> where
        self.blitz: Blitz | None = None
        self._helpers: dict[int, Bot] = {}
        humans = context.humans
        if settings is not None:  # a resumed game: its humans' settings (a seat now a bot has none)
            self.auto_defenders = {p for p in settings.auto_defenders if p in humans}
            self.autopilot = {p: turn for p, turn in settings.autopilot.items() if p in humans}

    def auto_defends(self, player: int) -> bool:
        """Whether ``player`` defends every attack with the most dice, unasked (`autodefend`)."""
        return self.auto_defend or player in self.auto_defenders

    def defend_rest_of_attack(self) -> None:
        """Enter at the defence question: the most dice for the rest of this attack, unasked."""
        game = self.game
        attack = game.pending_attack
        if attack is not None:
            self.defending = {key for key in self.defending if key[0] == game.turn}
            self.defending.add((game.turn, attack[0], attack[1]))

    def defends_on(self, player: int) -> bool:
        """Whether the human ``player`` rolls this defence without being asked: Enter was pressed
        earlier in this attack. (A single army is never asked: the engine rolls its one die.)"""
        game = self.game
        attack = game.pending_attack
        if attack is None or self.auto_defends(player):
            return False
        return (game.turn, attack[0], attack[1]) in self.defending

    def queue_setup(self, player: int, territory: int, armies: int) -> int:
        """`place T N` in the setup: the next ``armies`` setup armies (at most those left) go to
        ``territory``; returns how many were queued."""
        seat = self.game.placing_for
        count = min(armies, self.game.setup_armies[seat])
        self.setup_queue[(player, seat)] = [territory] * count
        return count

    def queued_placement(self, player: int) -> tuple[Place, bool] | None:
        """The next setup placement ``player`` queued, if any, and whether it is the last one."""
        queue = self.setup_queue.get((player, self.game.placing_for))
        if self.game.phase != Phase.SETUP_PLACE or not queue:
            return None
        return Place(queue.pop(), 1), not queue

    def autopilot_active(self, player: int) -> bool:
        """Whether the computer plays ``player``'s move now (`auto`); forgets an `auto` that is over."""
        if player not in self.autopilot:
            return False
        active = self.autopilot_on(player)
        if not active:
            del self.autopilot[player]
        return active

    def autopilot_on(self, player: int) -> bool:
        """Whether the setup or turn that ``auto`` handed to the computer is still going on."""
        game, turn = self.game, self.autopilot[player]
        if turn is None:
            return game.phase in SETUP_PHASES
        return game.turn == turn and game.current == player

    def start_autopilot(self, player: int) -> bool:
        """`auto`: the computer plays the rest of ``player``'s setup or this turn; True for the setup."""
        setup = self.game.phase in SETUP_PHASES
        self.autopilot[player] = None if setup else self.game.turn
        return setup

    def hand_turn(self, player: int) -> bool:
        """Whether ``player``'s moves are typed at the keyboard (a human not on `auto`)."""
        return self.context.seats[player].is_human and player not in self.autopilot

    def helper(self, player: int) -> Bot:
        """The bot that plays a human's `auto` moves."""
        return self._helpers.setdefault(player, make_bot(DEFAULT_BOT, bot_seed(self.game.seed, player) + 1))

    def saved_settings(self) -> SavedSettings:
        """The settings a save keeps (``--auto-defend`` as every human's `autodefend`)."""
        defenders = set(self.context.humans) if self.auto_defend else self.auto_defenders
        autopilot = {p: turn for p, turn in self.autopilot.items() if self.autopilot_on(p)}
        return SavedSettings(set(defenders), autopilot)
