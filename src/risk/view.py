"""What one player may know: the single secrecy boundary.

A :class:`View` reads the live game but shows only what its player may see: the board, every
player's army counts and number of cards, the traded (face-up) cards, and its own hand. It never
shows other hands, the order of the draw pile or the generator. Bots, the terminal game, the bot
protocol and the records given to players all go through it.

What a game variant hides, the variant says (its secrecy hooks, :mod:`risk.rules.variants.base`):
which of its fields a player may see (``shown``, ``to_dict``), how it hides a history entry
(``public_history``), how it samples what it hides (``determinise``); this module decides no
variant's secrets (it only offers the variants' queries, typed, to bots). A variant that hides the
board (fog of war, the ``fog`` rule) lets a view show, while the game runs, only what its player
sees: the owner and armies of the territories in its sight, and of the others what it last saw
(``visible``, ``seen_turn``); the history entries it witnessed; another player's armies to place and
territory count only as its memory implies them. During another player's turn it sees whose turn it
is, not the step (``phase`` is ``OTHER_TURN``, ``to_act`` the player whose turn it is, no attack or
move-in under way), and the latest battle it witnessed. A spectator sees no territory.
Once the game is over, everything is shown. ``View(game, player, through_fog=True)`` shows the
player the whole board under fog: for benchmarks that measure what fog costs a bot, never for play
(no server, protocol or front end passes it; tests/test_bots_fog.py checks that).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from risk.errors import IllegalActionError
from risk.maps import SYMBOLS, WILD
from risk.rules.actions import Action, Trade, action_territories
from risk.rules.determinise import determinise
from risk.rules.game import PHASE_NAMES, Battle, Game, Outcome, Phase, trade_options
from risk.rules.goal import Goal
from risk.rules.missions import Mission
from risk.rules.state import NEVER_SEEN, HistoryEntry
from risk.rules.variants.active import invasion_needs_call_off, open_invasion
from risk.rules.variants.missions import claimable_missions, ready_missions
from risk.rules.variants.team import team_at

if TYPE_CHECKING:
    from risk.maps import Board
    from risk.rules.options import Rules

SPECTATOR = -1
_OTHER_TURN: Final = Phase.OTHER_TURN


class View:
    """Player ``player``'s view of ``game`` (``SPECTATOR`` sees no hand at all).

    Reading is cheap, so that no bot has a reason to reach past the view: per-territory and per-seat
    facts (``owner``, ``armies``, ``alive``, ``units``, ...) are the live game's own sequences, not
    copies, read-only and changing as the game goes on (copy one to keep it); the four hottest
    (``owner``, ``armies``, ``alive``, ``territory_count``) are typed ``list``, read-only by contract,
    so that compiled bots (docs/compiled.md) index them directly, the rest ``Sequence``;
    what is fixed for the whole game (``board``, ``rules``, ``players``, ``team``, ...) and the
    engine's public queries (``force``, ``room``, ``fortify_targets``, ``occupy_range``, ...) are
    plain attributes.
    """

    __slots__ = (
        "_game",
        "_hides",
        "_through_fog",
        "active_neutrals",
        "board",
        "continents_of",
        "defending_seat",
        "force",
        "fortify_targets",
        "goal",
        "humans",
        "invasion_needs_call_off",
        "may_reinforce",
        "neutral",
        "occupy_range",
        "player",
        "players",
        "reinforcement_for",
        "room",
        "rules",
        "team",
        "team_at",
        "territories_of",
    )

    def __init__(self, game: Game, player: int, *, through_fog: bool = False) -> None:
        if not (player == SPECTATOR or 0 <= player < len(game.players)):
            raise ValueError(f"no player number {player} in a game of {len(game.players)}")
        self._game = game
        self.player: Final = player
        # Fixed for the whole game: plain attributes, the fastest reads.
        self.board: Final[Board] = game.board
        self.rules: Final[Rules] = game.rules
        self.players: Final[tuple[str, ...]] = game.players
        self.humans: Final = game.humans  # seats played by people or bots; the neutral seats follow
        # Which seats are neutral armies (2-player RISK): they never take a turn.
        self.neutral: Final = tuple(game.neutral)
        # Team RISK: each seat's team (0 or 1), else None.
        self.team: Final = None if game.team is None else tuple(game.team)
        # 2-player RISK with active neutrals (2003): bribes, allies, status dice.
        self.active_neutrals: Final = game.rules.neutral_mode == "active" and game.rules.neutrals > 0
        # How the game is won (risk.rules.goal): what to ask instead of the game's name.
        self.goal: Final[Goal] = game.goal
        # The engine's public queries on the board, bound once: no extra call on a bot's hot path.
        # force(territory, seat): the armies of a seat there (Team RISK: teammates share territories);
        # defending_seat(territory): who rolls its defence; team_at(territory): Team RISK, the team
        # holding it (-1: none); territories_of(player); continents_of(player): those held whole;
        # room(territory): armies it may still take (the expert army cap); may_reinforce(territory,
        # player); reinforcement_for(player): armies for territories and continents, before cards;
        # fortify_targets(source); occupy_range(): the fewest and most armies that may move in;
        # invasion_needs_call_off(): active neutrals, an invasion whose end rolls a status die.
        # Fog of war: the queries that read the board answer from what this player sees and remembers.
        # through_fog (measurement only): the player sees the board as if there were no fog.
        self._through_fog: Final = through_fog
        # Whether a variant hides part of the board (fog of war) from this view while the game runs.
        hides = game.hooks.in_sight is not None and not through_fog
        self._hides: Final = hides
        self.force: Final = self._hidden_force if hides else game.force
        self.defending_seat: Final = self._hidden_defending_seat if hides else game.defending_seat
        self.team_at: Final = self._hidden_team_at if hides else self._team_at
        self.territories_of: Final = self._hidden_territories_of if hides else game.territories_of
        self.continents_of: Final = self._hidden_continents_of if hides else game.continents_of
        self.room: Final = self._hidden_room if hides else game.room
        self.may_reinforce: Final = self._hidden_may_reinforce if hides else game.may_reinforce
        self.reinforcement_for: Final = self._hidden_reinforcement_for if hides else game.reinforcement_for
        self.fortify_targets: Final = self._hidden_fortify_targets if hides else game.fortify_targets
        self.occupy_range: Final = self._hidden_occupy_range if hides else game.occupy_range
        self.invasion_needs_call_off: Final = self._invasion_needs_call_off

    # -- public facts ----------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The phase; under fog, during another player's turn, ``Phase.OTHER_TURN``: which step of it
        is under way (an attack awaiting the defender's dice, a move-in, ...) is not this player's
        to know, unless it is the one to act."""
        return _OTHER_TURN if self._hides and self._step_hidden() else self._game.phase

    @property
    def current(self) -> int:
        return self._game.current

    @property
    def to_act(self) -> int:
        """Who must act now; under fog, during another player's turn, that player (see ``phase``)."""
        game = self._game
        return game.current if self._hides and self._step_hidden() else game.to_act

    def _step_hidden(self) -> bool:
        """Under fog: another player's turn of play, whose step this player may not know (the
        variant that hides the board says which)."""
        game = self._game
        step_hidden = game.hooks.step_hidden
        return self.fogged and step_hidden is not None and step_hidden(game, self.player)

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def owner(self) -> list[int]:
        """Each territory's owner (``-1`` unclaimed; Team RISK ``-2``: tied, no one controls it).
        Under fog: the owner this player last saw (``-1``: never seen; see :meth:`visible`)."""
        if self._hides and not self._game.is_over:
            return self._memory()[0]
        return self._game.owner

    @property
    def armies(self) -> list[int]:
        """Each territory's armies; under fog, the armies this player last saw (0: never seen)."""
        if self._hides and not self._game.is_over:
            return self._memory()[1]
        return self._game.armies

    @property
    def alive(self) -> list[bool]:
        return self._game.alive

    @property
    def territory_count(self) -> list[int]:
        """Territories held by each seat; under fog, another seat's as this player's memory counts them."""
        game = self._game
        if self._hides and not game.is_over:
            counts = [0] * len(game.players)
            for owner in self._memory()[0]:
                if owner >= 0:
                    counts[owner] += 1
            if self.player != SPECTATOR:
                counts[self.player] = game.territory_count[self.player]
            return counts
        return game.territory_count

    # -- fog of war ----------------------------------------------------------------------------
    @property
    def fogged(self) -> bool:
        """Whether this view hides part of the board now (fog of war, while the game runs)."""
        return self._hides and not self._game.is_over

    def visible(self, territory: int) -> bool:
        """Whether this player sees ``territory`` now (always, without fog or once the game is over)."""
        game = self._game
        if not self._hides or game.is_over:
            return True
        return self.player != SPECTATOR and bool(self._sight()[territory])

    def seen_turn(self, territory: int) -> int:
        """The turn this player last saw ``territory`` (the current turn while it is in sight; -1:
        never seen). Without fog, the current turn."""
        game = self._game
        if not self._hides or game.is_over:
            return game.turn
        if self.player == SPECTATOR:
            return NEVER_SEEN
        return game.turn if self._sight()[territory] else self._remembered()[2][territory]

    def _sight(self) -> list[int]:
        """For each territory, 1 when this player sees it now (a player's: a hidden board's rule)."""
        game = self._game
        in_sight = game.hooks.in_sight
        assert in_sight is not None and self.player != SPECTATOR
        return in_sight(game, self.player)

    def _remembered(self) -> tuple[list[int], list[int], list[int]]:
        """Owners, armies and turns this player last saw (a player's: a hidden board's rule)."""
        game = self._game
        memory = game.hooks.memory
        assert memory is not None and self.player != SPECTATOR
        return memory(game, self.player)

    def _memory(self) -> tuple[list[int], list[int]]:
        game = self._game
        if self.player == SPECTATOR:  # a spectator of a fogged game sees no territory
            return [-1] * len(game.board), [0] * len(game.board)
        owner, armies, _ = self._remembered()
        return owner, armies

    def _sees_all(self, territories: tuple[int, ...] | None) -> bool:
        if territories is None or not self._hides or self._game.is_over:
            return True
        if self.player == self._game.to_act:  # the one to act must know (2-player RISK: it rolls a
            return True  # neutral's defence, wherever the neutral is)
        if self.player == SPECTATOR:
            return False
        sight = self._sight()
        return all(sight[t] for t in territories)

    def _witnessed(self, index: int) -> bool:
        """Whether this player witnessed history entry ``index``."""
        game = self._game
        witnessed = game.hooks.witnessed
        if not self._hides or game.is_over or witnessed is None:
            return True
        return witnessed(game, index, self.player)

    def _hidden_force(self, territory: int, seat: int) -> int:
        if self.visible(territory):
            return self._game.force(territory, seat)
        owner, armies = self._memory()
        return armies[territory] if owner[territory] == seat else 0

    def _hidden_defending_seat(self, territory: int) -> int:
        if self.visible(territory):
            return self._game.defending_seat(territory)
        return self._memory()[0][territory]

    def _team_at(self, territory: int) -> int:
        return team_at(self._game, territory)

    def _invasion_needs_call_off(self) -> bool:
        return invasion_needs_call_off(self._game)

    def _hidden_team_at(self, territory: int) -> int:
        game = self._game
        if self.visible(territory):
            return team_at(game, territory)
        owner = self._memory()[0][territory]
        return -1 if game.team is None or owner < 0 else game.team[owner]

    def _hidden_territories_of(self, player: int) -> list[int]:
        if player == self.player or self._game.is_over:
            return self._game.territories_of(player)
        return [t for t, o in enumerate(self._memory()[0]) if o == player]

    def _hidden_continents_of(self, player: int) -> list[int]:
        if player == self.player or self._game.is_over:
            return self._game.continents_of(player)
        owner = self._memory()[0]
        return [c.index for c in self.board.continents if all(owner[t] == player for t in c.territories)]

    def _hidden_reinforcement_for(self, player: int) -> int:
        """Another player's: as this player's memory implies it (territories and continents)."""
        if player == self.player or self._game.is_over:
            return self._game.reinforcement_for(player)
        bonus = sum(self.board.continents[c].bonus for c in self._hidden_continents_of(player))
        return max(3, self.territory_count[player] // 3) + bonus

    def _hidden_room(self, territory: int) -> int:
        game = self._game
        if self.visible(territory) or game.rules.army_cap == 0:
            return game.room(territory)
        return max(0, game.rules.army_cap - self._memory()[1][territory])

    def _hidden_may_reinforce(self, territory: int, player: int) -> bool:
        return self.visible(territory) and self._game.may_reinforce(territory, player)

    def _hidden_fortify_targets(self, source: int) -> list[int]:
        game = self._game
        if self.visible(source) and game.owner[source] == self.player:
            return game.fortify_targets(source)
        return [] if not game.is_over else game.fortify_targets(source)

    def _hidden_occupy_range(self) -> tuple[int, int]:
        occupation = self._game.pending_occupation
        if occupation is None or not self._sees_step(occupation[:2]):
            return 0, 0
        return self._game.occupy_range()

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self._game.hands)

    def hand_size(self, player: int) -> int:
        """How many cards ``player`` holds (everyone may count them)."""
        return len(self._game.hands[player])

    @property
    def deck_size(self) -> int:
        return len(self._game.deck)

    @property
    def discard(self) -> Sequence[int]:
        """Traded cards lie face up: everyone may see them."""
        return self._game.discard

    @property
    def sets_traded(self) -> int:
        return self._game.sets_traded

    @property
    def pending(self) -> int:
        """Armies still to place (reinforcements, or an ally's); under fog, 0 for another player's turn
        of play (its income is hidden: ``to_dict`` leaves it out)."""
        game = self._game
        if self._hides and self._pending_hidden():
            return 0
        return game.pending

    def _pending_hidden(self) -> bool:
        game = self._game
        return self.fogged and self.player != game.current and game.turn > 0  # (turn 0: the setup)

    @property
    def setup_armies(self) -> Sequence[int]:
        return self._game.setup_armies

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def last_battle(self) -> Battle | None:
        """The latest battle (under fog: the latest this player witnessed; a spectator, none)."""
        game = self._game
        battle = game.last_battle
        seen_battle = game.hooks.seen_battle
        if battle is None or not self.fogged or seen_battle is None:
            return battle
        return seen_battle(game, self.player)

    @property
    def pending_attack(self) -> tuple[int, int, int] | None:
        """(source, target, attacker dice) of the attack awaiting the defender's dice (under fog, when
        this player sees both territories and may know the step: see ``phase``)."""
        attack = self._game.pending_attack
        return attack if attack is None or self._sees_step(attack[:2]) else None

    @property
    def pending_occupation(self) -> tuple[int, int, int] | None:
        """(source, target, minimum armies) of the conquest awaiting the move-in."""
        occupation = self._game.pending_occupation
        return occupation if occupation is None or self._sees_step(occupation[:2]) else None

    @property
    def pending_roll(self) -> tuple[int, int, tuple[int, ...], tuple[int, ...], bool] | None:
        """1993 experts: (source, target, attacker dice, defender dice, re-rolled yet) of the roll the
        attacker may still change."""
        rolled = self._game.pending_roll
        return rolled if rolled is None or self._sees_step(rolled[:2]) else None

    def _sees_step(self, territories: tuple[int, ...]) -> bool:
        return not (self._hides and self._step_hidden()) and self._sees_all(territories)

    # What the current player did this turn: under fog, another player's turn shows none of it (a
    # conquest or an attack out of sight is hidden; its card, drawn at the end, is public).
    @property
    def conquered_this_turn(self) -> bool:
        return self._game.conquered_this_turn and not (self._hides and self._turn_hidden())

    @property
    def conquests_this_turn(self) -> int:
        """Territories the current player has conquered this turn (Mission RISK counts them)."""
        return 0 if self._hides and self._turn_hidden() else self._game.conquests_this_turn

    @property
    def placed_this_turn(self) -> bool:
        return self._game.placed_this_turn and not (self._hides and self._turn_hidden())

    @property
    def traded_this_turn(self) -> bool:
        return self._game.traded_this_turn

    @property
    def attacked_this_turn(self) -> bool:
        return self._game.attacked_this_turn and not (self._hides and self._turn_hidden())

    def _turn_hidden(self) -> bool:
        return self.fogged and self.player != self._game.current

    def outcome(self) -> Outcome | None:
        return self._game.outcome()

    def next_set_value(self) -> int | None:
        return self._game.next_set_value()

    def set_value(self, cards: tuple[int, ...]) -> int:
        return self._game.set_value(cards)

    def must_trade(self, player: int | None = None) -> bool:
        """Whether ``player`` (by default the current player) must trade a set before anything else."""
        return self._game.must_trade(player)

    @property
    def ally(self) -> Sequence[int]:
        """Active neutrals (2003): each neutral seat's ally (-1: uninvolved); -1 for the other seats."""
        return self._game.ally

    @property
    def open_invasion(self) -> int | None:
        """Active neutrals: the target of the invasion under way, if any."""
        return open_invasion(self._game)

    @property
    def units(self) -> Sequence[Sequence[int]] | None:
        """Team RISK: each territory's armies by seat (teammates may share a territory); under fog, a
        territory out of sight shows its last-seen armies on its last-seen owner."""
        game = self._game
        if game.units is None or not self.fogged:
            return game.units
        owner, armies = self._memory()
        rows: list[list[int]] = []
        for territory, row in enumerate(game.units):
            if self.visible(territory):
                rows.append(list(row))
            else:
                hidden = [0] * len(row)
                if owner[territory] >= 0:
                    hidden[owner[territory]] = armies[territory]
                rows.append(hidden)
        return rows

    @property
    def placing_for(self) -> int:
        """During setup placement: the seat whose army is being placed (a neutral, in 2-player RISK)."""
        return self._game.placing_for

    # -- what the variants hide: as each variant shows it to this player ---------------------------------
    def shown(self, field: str) -> Any:
        """A game variant's field as this player may see it now: what the variant in play that hides
        it shows (its ``shown_to``), else the field itself (one no variant in play hides)."""
        game = self._game
        for shown_to in game.hooks.shown_to:
            fields = shown_to(game, self.player)
            if field in fields:
                return fields[field]
        return getattr(game, field)

    @property
    def capitals(self) -> tuple[int, ...]:
        """Capital RISK headquarters by seat; ``-1`` where not chosen or not yet revealed to this player."""
        return tuple(self.shown("capitals"))

    @property
    def missions_claimed(self) -> tuple[tuple[str, ...], ...]:
        """Mission RISK: every player's claimed mission cards (shown to all when claimed)."""
        return tuple(tuple(m) for m in self._game.missions_claimed)

    @property
    def mission_cards(self) -> tuple[tuple[str, ...] | None, ...]:
        """Mission RISK: unclaimed mission cards this player may see: its own, another's once three are
        claimed (the fourth is revealed), everyone's after the game; ``None`` where hidden."""
        return tuple(None if cards is None else tuple(cards) for cards in self.shown("mission_cards"))

    def claimable_missions(self) -> list[str]:
        """Mission RISK: the cards this player may claim now (when it is the one to act)."""
        return claimable_missions(self._game) if self.player == self._game.current else []

    def ready_missions(self) -> list[str]:
        """Mission RISK: this player's unclaimed cards that are complete now, whenever they may be shown."""
        return ready_missions(self._game, self.player)

    def public_history(self, start: int = 0) -> list[HistoryEntry]:
        """The history from entry ``start`` (negative: that many from the end) as this player may
        see it (see :func:`public_history`)."""
        return public_history(self._game, self.player, start, through_fog=self._through_fog)

    def last_action(self, seat: int) -> Action | None:
        """The latest action of ``seat`` (``None``: none yet, or one this player may not see yet)."""
        game = self._game
        for index in range(len(game.history) - 1, -1, -1):  # (not reversed(): mypyc (mypy 2.4.1) fails on it)
            kind, who, _ = game.history[index]
            if kind == "action" and who == seat and self._witnessed(index):
                action: Action | None = _redacted(game, game.history[index], self.player)[2]
                return action
        return None

    # -- this player's secrets ----------------------------------------------------------------
    @property
    def mission(self) -> Mission | None:
        """This player's secret mission (Secret Mission RISK); everyone's once the game is over."""
        if self.player == SPECTATOR:
            return None
        mission: Mission | None = self.shown("missions")[self.player]
        return mission

    @property
    def hand(self) -> tuple[int, ...]:
        """This player's cards (empty for a spectator; in Team RISK the team's shared hand)."""
        if self.player == SPECTATOR:
            return ()
        return tuple(self._game.hands[self.player])

    def trade_options(self) -> list[Trade]:
        """Every set this player may trade from its hand now, one action per bonus territory it could
        earn (whether trading is allowed in this phase is :meth:`legal_actions`' business)."""
        if self.player == SPECTATOR:
            return []
        return trade_options(self._game, self.player)

    def determinise(self, rng: random.Random) -> Game:
        """A complete game (every hand, the draw pile, missions, a generator) sampled from ``rng``
        among those this player cannot tell apart from the real one: for search. Depends on nothing
        this player may not see (:mod:`risk.rules.determinise`); seeing through the fog, the board
        is the real one."""
        return determinise(self._game, self.player, rng, through_fog=self._through_fog)

    def legal_actions(self) -> list[Action]:
        """The legal actions, when this player is the one to act; otherwise none. Under fog, none on a
        territory out of sight (as :meth:`check` refuses them)."""
        if self.player != self._game.to_act:
            return []
        actions = list(self._game.legal_actions())
        if self.fogged:
            sight = self._sight()  # (a fortify phase may have thousands: read once)
            actions = [a for a in actions if all(sight[t] for t in action_territories(a) or ())]
        return actions

    def _out_of_sight(self, action: Action) -> list[int]:
        """Under fog: the territories ``action`` names that this player does not see."""
        if not self._hides or self._game.is_over:
            return []
        named = action_territories(action) or ()
        if not all(isinstance(t, int) and 0 <= t < len(self.board) for t in named):
            return []
        return [t for t in named if not self.visible(t)]

    def legal_groups(self) -> list[dict[str, Any]]:
        """The legal actions in a compact form for menus and network messages (a fortify phase may
        have thousands): ``{"text": "place alaska", "min": 1, "max": 7}`` stands for ``place alaska N``
        for every N from 1 to 7; an entry without ``min`` is one action as it stands."""
        return group_actions(self.action_text(a) for a in self.legal_actions())

    def is_legal(self, action: Action) -> bool:
        game = self._game
        if self._hides and self._out_of_sight(action):
            return False
        return self.player == game.to_act and game.is_legal(action)

    def check(self, action: Action) -> None:
        """Raise :class:`~risk.errors.IllegalActionError` saying why ``action`` is not legal for this
        player now; return quietly when it is."""
        game = self._game
        if self.player != game.to_act:
            who = "a spectator" if self.player == SPECTATOR else game.players[self.player]
            raise IllegalActionError(f"{self.action_text(action)!r}: {who} is not the player to act")
        # Under fog the rules' reason could name what the fog hides (an owner, an army count): an
        # action on a territory out of sight is refused for that alone.
        hidden = self._out_of_sight(action)
        if hidden:
            raise IllegalActionError(
                f"{self.action_text(action)!r}: {self.board.name_of(hidden[0])} is out of your "
                "sight (fog of war)"
            )
        game.check(action)

    def parse(self, text: str) -> Action:
        return self._game.parse(text)

    def text(self, action: Action) -> str:
        """The action in the notation on the game's board (``'claim alaska'``), as :meth:`Game.text`."""
        return action.text(self._game.board)

    def action_text(self, action: Action) -> str:
        return action.text(self._game.board)

    # -- transport -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (for the bot protocol, the web app and saved views)."""
        game, board = self._game, self._game.board
        battle = self.last_battle
        fogged = self.fogged
        data: dict[str, Any] = {
            "player": self.player,
            "players": [
                {
                    "name": name,
                    "alive": game.alive[i],
                    "cards": len(game.hands[i]),
                    "neutral": game.neutral[i],
                    "team": None if game.team is None else game.team[i],
                }
                # Under fog another player's territory count is hidden: absent, not zeroed.
                | ({} if fogged and i != self.player else {"territories": game.territory_count[i]})
                for i, name in enumerate(game.players)
            ],
            "fog": fogged,
            "game": game.rules.game,
            # What the front ends ask instead of the game's name: how it is won, whether it has teams.
            "goal": self.goal.to_dict(),
            "has_teams": game.team is not None,
            "rules": game.rules.describe(),
            "board": board.name,
            "phase": PHASE_NAMES[self.phase],
            "turn": game.turn,
            "current": game.current,
            "to_act": self.to_act,
            "territories": [self._territory_data(t) for t in range(len(board))],
            "setup_armies": list(game.setup_armies),
            "sets_traded": game.sets_traded,
            "next_set_value": game.next_set_value(),
            "deck_size": len(game.deck),
            "discard": [board.card_name(c) for c in game.discard],
            "winner": game.winner,
            **({} if self._pending_hidden() else {"pending": game.pending}),
            "last_battle": None
            if battle is None
            else {
                "from": board.name_of(battle.source),
                "to": board.name_of(battle.target),
                "attacker_dice": list(battle.attacker_dice),
                "defender_dice": list(battle.defender_dice),
                "attacker_losses": battle.attacker_losses,
                "defender_losses": battle.defender_losses,
                "conquered": battle.conquered,
            },
        }
        for variant_data in game.hooks.view_data:  # each variant's part, its secrets as it shows them
            data.update(variant_data(game, self.player))
        if self.player != SPECTATOR:
            data["hand"] = [
                {
                    "card": board.card_name(c),
                    "symbol": "wild" if board.card_symbols[c] == WILD else SYMBOLS[board.card_symbols[c]],
                }
                for c in game.hands[self.player]
            ]
            # What each set in the hand gives now, as the rules count it: no page recomputes a chart.
            values: dict[tuple[int, ...], int] = {}
            for trade in trade_options(game, self.player):
                cards = tuple(sorted(trade.cards))
                if cards not in values:
                    values[cards] = game.set_value(cards)
            data["set_values"] = [
                {"cards": [board.card_name(c) for c in cards], "value": value}
                for cards, value in values.items()
            ]
        attack, occupation = self.pending_attack, self.pending_occupation  # (None for a hidden step)
        if game.phase == Phase.DEFEND and attack is not None:
            source, target, dice = attack
            data["attack"] = {"from": board.name_of(source), "to": board.name_of(target), "dice": dice}
        if game.phase == Phase.OCCUPY and occupation is not None:
            low, high = game.occupy_range()
            data["occupy"] = {
                "from": board.name_of(occupation[0]),
                "to": board.name_of(occupation[1]),
                "min": low,
                "max": high,
            }
        return data

    def _territory_data(self, territory: int) -> dict[str, Any]:
        """One territory as ``to_dict`` shows it: owner and armies in sight; out of sight (fog of
        war), ``hidden`` and what this player last saw (``seen``: owner, armies, turn), if anything."""
        game = self._game
        data: dict[str, Any] = {"name": self.board.name_of(territory)}
        if self.visible(territory):
            data["owner"], data["armies"] = game.owner[territory], game.armies[territory]
            if game.units is not None:  # Team RISK: each seat's armies; an owner of -2 is a tie
                data["units"] = list(game.units[territory])
            return data
        data["hidden"] = True
        turn = self.seen_turn(territory)
        if turn != NEVER_SEEN:
            owner, armies = self._memory()
            data["seen"] = {"owner": owner[territory], "armies": armies[territory], "turn": turn}
        return data


def group_actions(texts: Iterable[str]) -> list[dict[str, Any]]:
    """Group action texts that differ only in a final count into ranges (see ``View.legal_groups``)."""
    counts: dict[str, list[int]] = {}
    for text in texts:
        head, _, last = text.rpartition(" ")
        if head and last.isdigit():
            counts.setdefault(head, []).append(int(last))
        else:
            counts.setdefault(text, [])
    groups: list[dict[str, Any]] = []
    for head, numbers in counts.items():
        numbers.sort()
        if not numbers:
            groups.append({"text": head})
        elif numbers[-1] - numbers[0] + 1 == len(numbers):
            groups.append({"text": head, "min": numbers[0], "max": numbers[-1]})
        else:  # not a run: each count on its own (never seen in the rules today, but exact all the same)
            groups.extend({"text": f"{head} {n}"} for n in numbers)
    return groups


def _shares_hand(game: Game, drawer: int, player: int) -> bool:
    """The drawer's hand is this player's (the same player, or one sharing its hand: Team RISK's
    teammates hold one hand)."""
    return drawer == player or (drawer >= 0 and player >= 0 and game.hands[drawer] is game.hands[player])


def _redacted(game: Game, entry: HistoryEntry, player: int) -> HistoryEntry:
    """A history entry as ``player`` may see it, as each variant in play hides its secrets in it."""
    for redact in game.hooks.redact:
        entry = redact(game, entry, player)
    return entry


def history_leaves_out(game: Game) -> bool:
    """Whether a player's history leaves out entries now (a hidden board, while the game runs)."""
    return game.hooks.witnessed is not None and not game.is_over


def public_history(
    game: Game, player: int, start: int = 0, *, through_fog: bool = False
) -> list[HistoryEntry]:
    """The game's history as ``player`` may see it, from entry ``start`` on (negative: that many from
    the end): other players' card draws are hidden (``None``), and so is what each variant hides (its
    ``redact``: other players' missions, headquarters chosen in secret); under fog of war, the entries
    it did not witness are left out while the game runs (unless ``through_fog``: measurement only)."""
    return [entry for _, entry in indexed_history(game, player, start, through_fog=through_fog)]


def indexed_history(
    game: Game, player: int, start: int = 0, *, through_fog: bool = False
) -> list[tuple[int, HistoryEntry]]:
    """:func:`public_history`, each entry with its index in the game's history."""
    history = game.history
    start = max(0, len(history) + start) if start < 0 else min(start, len(history))
    # A draw goes to the hand of the last player who acted before it.
    drawer = -1
    for index in range(start - 1, -1, -1):
        kind, who, _ = history[index]
        if kind == "action" and who >= 0:
            drawer = who
            break
    shown: list[tuple[int, HistoryEntry]] = []
    # A hidden board: only the entries this player witnessed (all, once the game is over).
    witnessed = game.hooks.witnessed if history_leaves_out(game) and not through_fog else None
    redacts = bool(game.hooks.redact)
    for index, entry in enumerate(islice(history, start, None), start):
        kind, who, _ = entry
        if kind == "action":
            drawer = who if who >= 0 else drawer
        if witnessed is not None and not witnessed(game, index, player):
            continue
        if kind == "chance" and who == "draw" and not _shares_hand(game, drawer, player):
            shown.append((index, (kind, who, None)))
        elif redacts:
            shown.append((index, _redacted(game, entry, player)))
        else:
            shown.append((index, entry))
    return shown
