"""The world-domination game: state, legal actions and their effects. Pure: no I/O, no clock.

One seeded generator, owned by the game, rolls every die and makes every shuffle. Every chance
outcome is written to the history next to the actions, so a record replays without a generator; the
generator runs all the same, so a replay can check that each outcome is the one the seed gives.

The turn is data: the game is always in one :class:`Phase`, and each phase accepts only its own
actions. ``game.to_act`` is the player who must act now (the defender while it chooses its dice).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from itertools import combinations
from typing import Annotated, Any

from risk.errors import GameOverError, IllegalActionError, RiskError, RulesError
from risk.maps import WILD, Board, load_map
from risk.rules.actions import (
    ACCEPT_DICE,
    CALL_OFF,
    END_ATTACK,
    END_TURN,
    AcceptDice,
    Action,
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
    parse_action,
)
from risk.rules.missions import (
    RANKED_MISSIONS,
    RANKS,
    Mission,
    effective_mission,
    mission_by_key,
    mission_deck,
    ranked_mission,
)
from risk.rules.options import Rules
from risk.rules.state import (
    DERIVED,
    PHASE_NAMES,
    ROLLS,
    TIED,
    Battle,
    ChanceMismatch,
    Kept,
    Outcome,
    Phase,
    copy_list,
    declared_fields,
    same,
    saved_key,
    state_fields,
)
from risk.rules.variants import VARIANT_STATES, VariantStates

_ATTACK, _DEFEND, _OCCUPY, _GAME_OVER = Phase.ATTACK, Phase.DEFEND, Phase.OCCUPY, Phase.GAME_OVER
_SETUP_PLACE, _ALLY_PLACE = Phase.SETUP_PLACE, Phase.ALLY_PLACE
_REINFORCE, _ELIMINATION_TRADE = Phase.REINFORCE, Phase.ELIMINATION_TRADE

ESCALATING_VALUES = (4, 6, 8, 10, 12, 15)
# Fixed set values (2003 Mission and Team RISK): by the symbol of a three-of-a-kind, or one of each.
FIXED_VALUES = (4, 6, 8)
FIXED_ONE_OF_EACH = 10


def battle_losses(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """Losses (attacker, defender) of one roll; both tuples sorted high to low. Ties go to the defender."""
    attacker_losses = defender_losses = 0
    for a, d in zip(attack, defence, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


# Losses (attacker, defender) of every roll of 1-3 attacking and 1-2 defending dice, sorted high to
# low: a lookup instead of comparing the dice of each battle.
LOSSES: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {
    (attack, defence): battle_losses(attack, defence)
    for attack in {roll for rolls in ROLLS[1:] for roll in rolls}
    for defence in {roll for rolls in ROLLS[1:3] for roll in rolls}
}


def is_set(symbols: tuple[int, ...] | list[int]) -> bool:
    """Three card symbols form a set: three alike, one of each, or any two plus a wild."""
    if WILD in symbols:
        return True
    a, b, c = symbols
    return (a == b == c) or (a != b and b != c and a != c)


def fixed_set_value(symbols: tuple[int, ...] | list[int]) -> int:
    """The value of a set under the fixed chart (2003 Mission and Team RISK).

    "A wild card can be used for any one of the above cards": a wild completes the set the other
    cards make. Two alike and a wild are three alike (4, 6 or 8 by the kind); two different and a
    wild are one of each (10). A set that could be read either way (two wilds and one card: three
    alike or one of each) takes the best value it can make, which is one of each.
    """
    plain = {s for s in symbols if s != WILD}
    if len(plain) == 1 and len(symbols) - symbols.count(WILD) >= 2:
        return FIXED_VALUES[next(iter(plain))]  # three alike, or two alike completed by a wild
    return FIXED_ONE_OF_EACH  # one of each (a wild completing it), or two wilds: the best reading


class Game(VariantStates):
    """A game of world domination.

    >>> game = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=1)
    >>> game.phase.name
    'CLAIM'
    >>> len(game.legal_actions())
    42
    """

    _check_goals: Annotated[bool, DERIVED]  # Secret Mission and Capital RISK: goals checked after each action
    __slots__ = (*(name for cls in VARIANT_STATES for name, _ in declared_fields(cls)), *__annotations__)

    def __init__(
        self,
        rules: Rules | str,
        players: list[str] | int,
        seed: int | None = None,
        board: Board | str = "classic",
        *,
        _script: deque[tuple[str, Any]] | None = None,
        _verify: bool = False,
    ) -> None:
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.board = load_map(board) if isinstance(board, str) else board
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        rules = self.rules
        if rules.neutrals and len(names) == rules.players[1] + rules.neutrals:
            names = names[: rules.players[1]]  # a record or save lists the neutral seats too
        self.rules.check_player_count(len(names))
        # Neutral armies (2-player RISK) sit in the seats after the players and never take a turn.
        self.humans = len(names)
        neutral_names = (
            ["Neutral"] if rules.neutrals == 1 else [f"Neutral {i + 1}" for i in range(rules.neutrals)]
        )
        names += neutral_names
        if len(set(names)) != len(names):
            raise RulesError(f"player names must be different: {names}")
        if any(not name.strip() or any(ch in name for ch in ',\n"') for name in names):
            raise RulesError(f"player names must be non-empty without commas or quotes: {names}")
        self.players: tuple[str, ...] = tuple(names)
        self.neutral: list[bool] = [i >= self.humans for i in range(len(names))]
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self._script = _script
        # Whether every chance outcome so far is the one the generator gave (False once an outcome is
        # given instead: dice passed to apply_with_dice, or a replayed record that differs from its
        # seed); with _verify, a replayed outcome that differs is refused (ChanceMismatch).
        self._verify = _verify
        self.chance_from_seed = True
        n, t = len(names), len(self.board)
        self.owner: list[int] = [-1] * t
        self.armies: list[int] = [0] * t
        self.territory_count: list[int] = [0] * n
        self.alive: list[bool] = [True] * n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.sets_traded = 0
        self.setup_armies: list[int] = [
            rules.neutral_armies if self.neutral[i] else rules.starting_armies_for(self.humans)
            for i in range(n)
        ]
        self.pending = 0
        self.turn = 0
        self.winner: int | None = None
        self.conquered_this_turn = False
        self.placed_this_turn = False
        self.territory_bonus_used = False
        self.last_battle: Battle | None = None
        self._attack: tuple[int, int, int] | None = None  # source, target, dice awaiting the defence
        # source, target, minimum to move in, whether the conquest eliminated the defender
        self._occupy: tuple[int, int, int, bool] | None = None
        # History: ("action", player, Action) and ("chance", kind, value) entries, in order.
        self.history: list[tuple[str, Any, Any]] = []
        # Team RISK (2003): "two alternating teams", so seat % 2; each territory's units by seat (a
        # teammate may move in); the controller is whoever has the most there, nobody on a tie.
        self.team: list[int] | None = None
        self.units: list[list[int]] | None = None
        if rules.game == "team":
            if n not in (4, 6):
                raise RulesError(f"Team RISK is for 4 or 6 players in two teams, not {n}")
            self.team = [seat % 2 for seat in range(n)]
            self.units = [[0] * n for _ in range(t)]
            # "Territory cards are shared by the team": teammates hold the same hand.
            self.hands = [self.hands[seat % 2] for seat in range(n)]
        self.missions: list[Mission | None] = [None] * n
        # Mission RISK: each player's unclaimed and claimed mission cards (keys), and the turn's steps
        # that decide when a card may be claimed.
        self.mission_cards: list[list[str]] = [[] for _ in range(n)]
        self.missions_claimed: list[list[str]] = [[] for _ in range(n)]
        self.claimed_mission_this_turn = False
        self.conquests_this_turn = 0
        self.attacked_this_turn = False
        self.traded_this_turn = False
        # 2-player RISK with active neutrals (2003): each neutral's ally (-1: uninvolved), and this
        # turn's bribes, ally reinforcements and fortifications; the invasion under way (target, the
        # neutral seat invaded or -1, the allied seats that attacked) whose end rolls the status dice.
        self._active = rules.neutral_mode == "active" and rules.neutrals > 0
        self.ally: list[int] = [-1] * n
        self.bribed: list[int] = [0] * n
        self.ally_reinforced: list[bool] = [False] * n
        self.fortified: list[bool] = [False] * n
        self._invasion: tuple[int, int, tuple[int, ...]] | None = None
        # 1993 experts: a roll that the attacker may still change, and the once-a-turn commander.
        self._rolled: tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool] | None = None
        self.commander_used = False
        self.capitals: list[int] = [-1] * n  # Capital RISK headquarters, by seat
        self._check_goals = rules.game in ("secret-mission", "capital")
        # 2-player setup: the order of placements, as (player placing, seat whose army it is).
        self._setup_queue: deque[tuple[int, int]] | None = None

        if rules.game == "secret-mission":
            self._deal_missions()
        elif rules.game == "mission":
            self._deal_mission_cards()
        self.first_player = self._chance_player("first", list(range(self.humans)))
        self.current = self.placing_for = self.first_player
        # The player who must act now: the current player, or the defender choosing its dice
        # (-1 once the game is over). Kept as a field because every action reads it.
        self.to_act = self.first_player
        if self.rules.setup == "deal":
            self._deal_territories()
            self.phase = Phase.SETUP_PLACE
            if rules.neutrals:
                self._setup_queue = self._two_player_placements()
            self._next_setup_placer(self.first_player)
        else:
            self.phase = Phase.CLAIM

    # ------------------------------------------------------------------------------------------
    # chance: every outcome comes from the generator, or from a record's script when replaying
    # ------------------------------------------------------------------------------------------
    def _draw_card(self, player: int) -> None:
        if not self.deck:
            if not self.discard:
                return  # every card is in someone's hand: nothing to draw
            self.deck, self.discard = self.discard, []
            self._rng.shuffle(self.deck)
        card = self.deck.pop()
        if self._script is not None:
            wanted = self._scripted("draw")
            if wanted != card:
                if wanted not in self.deck:
                    raise IllegalActionError(
                        f"the record draws card {self.board.card_name(wanted)}, which is not in the draw pile"
                    )
                self._check_chance("draw", wanted, card)
                self.deck.remove(wanted)
                self.deck.append(card)
                card = wanted
        self.hands[player].append(card)
        self.history.append(("chance", "draw", card))

    def _deal_territories(self) -> None:
        order = list(range(len(self.board)))
        self._rng.shuffle(order)
        if self._script is not None:
            generated, order = tuple(order), list(self._scripted("deal"))
            if sorted(order) != list(range(len(self.board))):
                raise IllegalActionError("the record's deal does not list every territory once")
            self._check_chance("deal", tuple(order), generated)
        self.history.append(("chance", "deal", tuple(order)))
        n = len(self.players)
        quota = self._deal_quotas()
        seat = self.first_player
        for territory in order:
            while quota[seat] == 0:
                seat = (seat + 1) % n
            quota[seat] -= 1
            self._take(territory, seat, 1)
            self.setup_armies[seat] -= 1
            seat = (seat + 1) % n

    def _deal_quotas(self) -> list[int]:
        """Territories dealt to each seat: as even as can be, the first seats dealt one more
        (2008: "two players will each receive one extra card"); 2003's four neutrals get 6 each."""
        n, t = len(self.players), len(self.board)
        if self.rules.neutrals > 1:
            # 2003: "Deal out 9 Territory cards to each player and 6 to each neutral."
            per_neutral = min(6, t // n)
            per_human = (t - per_neutral * self.rules.neutrals) // self.humans
            quota = [per_neutral if self.neutral[i] else per_human for i in range(n)]
        else:
            quota = [t // n] * n
        extra = t - sum(quota)
        for i in range(extra):
            quota[(self.first_player + i) % n] += 1
        return quota

    def _two_player_placements(self) -> deque[tuple[int, int]]:
        """Who places which army, in order, in the 2-player setup.

        1993: "2 of yours on your territories, then 1 neutral"; 2003: "3 of his/her units ... and then
        1 unit for each neutral"; 2008: own armies two at a time until gone, "Then, take turns
        placing one neutral troop".
        """
        left = self.setup_armies[:]
        humans = [(self.first_player + i) % self.humans for i in range(self.humans)]
        neutrals = [i for i in range(len(self.players)) if self.neutral[i]]
        batch = self.rules.setup_batch
        steps: deque[tuple[int, int]] = deque()

        def own(player: int) -> None:
            for _ in range(batch):
                if left[player] > 0:
                    steps.append((player, player))
                    left[player] -= 1

        def neutral_round(player: int) -> None:
            for seat in neutrals:
                if left[seat] > 0:
                    steps.append((player, seat))
                    left[seat] -= 1

        if self.rules.neutral_placement == "interleaved":
            while any(left):
                for player in humans:
                    own(player)
                    neutral_round(player)
        else:
            while any(left[p] for p in humans):
                for player in humans:
                    own(player)
            while any(left[s] for s in neutrals):
                for player in humans:
                    for seat in neutrals:
                        if left[seat] > 0:
                            steps.append((player, seat))
                            left[seat] -= 1
                            break
        return steps

    def _deal_mission_cards(self) -> None:
        """Mission RISK: "Each player draws one Mission card from each pile" (General ... Captain)."""
        hands: list[list[str]] = [[] for _ in range(self.humans)]
        for rank in RANKS:
            pile = [m.key for m in RANKED_MISSIONS if m.rank == rank]
            self._rng.shuffle(pile)
            for seat in range(self.humans):
                hands[seat].append(pile[seat % len(pile)])
        dealt = generated = tuple("+".join(h) for h in hands)
        if self._script is not None:
            dealt = tuple(self._scripted("mission-cards"))
            if len(dealt) != self.humans:
                raise IllegalActionError("the record's mission cards are not four for each player")
        for seat, cards in enumerate(dealt):
            keys = cards.split("+")
            try:
                ranks = [ranked_mission(k).rank for k in keys]
            except ValueError as error:
                raise IllegalActionError(str(error)) from None
            if sorted(ranks) != sorted(RANKS):
                raise IllegalActionError(f"mission cards {cards!r} are not one of each rank")
            self.mission_cards[seat] = keys
        if self._script is not None:
            self._check_chance("mission-cards", dealt, generated)
        self.history.append(("chance", "mission-cards", dealt))

    def mission_window(self) -> str | None:
        """Mission RISK: which claim time it is now for the current player, if any."""
        if self.rules.game != "mission" or self.claimed_mission_this_turn:
            return None
        phase = self.phase
        if phase == Phase.REINFORCE and not self.placed_this_turn and not self.traded_this_turn:
            return "start"  # "at the very start of your turn, before you receive reinforcements"
        if phase == Phase.ATTACK and not self.attacked_this_turn and self.pending == 0:
            return "reinforced"  # "after you have received your reinforcements"
        if phase == Phase.TURN_END:
            return "end"  # "as the last thing you do on your turn, after drawing a Territory card"
        return None

    def claimable_missions(self) -> list[str]:
        """The mission cards the current player may claim now (Mission RISK)."""
        window = self.mission_window()
        if window is None:
            return []
        p = self.current
        return [
            key
            for key in self.mission_cards[p]
            if ranked_mission(key).timing == window and ranked_mission(key).is_complete(self, p)
        ]

    def _deal_missions(self) -> None:
        """Secret Mission RISK: one mission card each from the deck for the colours in play."""
        deck = mission_deck(self.humans)
        order = list(range(len(deck)))
        self._rng.shuffle(order)
        keys = tuple(deck[i].key for i in order[: self.humans])
        generated = keys
        if self._script is not None:
            keys = tuple(self._scripted("missions"))
            if len(keys) != self.humans or len(set(keys)) != len(keys):
                raise IllegalActionError("the record's missions are not one different mission per player")
        self.history.append(("chance", "missions", keys))
        for seat, key in enumerate(keys):
            try:
                self.missions[seat] = effective_mission(mission_by_key(key, self.humans), seat)
            except ValueError as error:
                raise IllegalActionError(str(error)) from None
        if self._script is not None:
            self._check_chance("missions", keys, generated)

    def _shuffle_deck(self) -> None:
        self.deck = list(range(self.board.card_count))
        self._rng.shuffle(self.deck)

    # ------------------------------------------------------------------------------------------
    # queries
    # ------------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == _GAME_OVER

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        if (resigned := self._resignation_outcome()) is not None:
            return resigned
        w = self.winner
        game = self.rules.game
        if self.team is not None:
            losers = [p for p in range(self.humans) if self.team[p] != self.team[w]]
            out = [self.players[p] for p in losers if not self.alive[p]]
            names = [self.players[p] for p in range(self.humans) if self.team[p] == self.team[w]]
            mates = ", ".join(names[:-1]) + " and " + names[-1]
            gone = out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]
            reason = f"the team of {mates}: {gone} {'was' if len(out) == 1 else 'were'} eliminated"
        elif sum(self.alive[: self.humans]) == 1:
            reason = "the last player standing" if game != "two-player" else "eliminated the opponent"
        elif game == "secret-mission" and self.missions[w] is not None:
            reason = f"completed the secret mission: {self.missions[w].text}"  # type: ignore[union-attr]
        elif game == "capital":
            held = sum(1 for p, c in enumerate(self.capitals) if p != w and c >= 0 and self.owner[c] == w)
            reason = f"holds its headquarters and {held} opposing headquarters"
        elif game == "mission":
            reason = "completed all four missions"
        else:
            reason = "world domination"
        if self.team is not None:
            return Outcome(w, reason, tuple(p for p in range(self.humans) if self.team[p] == self.team[w]))
        return Outcome(w, reason, (w,))

    @property
    def pending_attack(self) -> tuple[int, int, int] | None:
        """(source, target, attacker dice) of the attack awaiting the defender's dice."""
        return self._attack

    @property
    def pending_roll(self) -> tuple[int, int, tuple[int, ...], tuple[int, ...], bool] | None:
        """1993 experts: (source, target, attacker dice, defender dice, re-rolled yet) of a roll the
        attacker may still change."""
        if self._rolled is None:
            return None
        source, target, _, attack, defence, rerolled = self._rolled
        return source, target, attack, defence, rerolled

    @property
    def pending_occupation(self) -> tuple[int, int, int] | None:
        """(source, target, minimum armies) of the conquest awaiting the move-in."""
        return None if self._occupy is None else self._occupy[:3]

    def mission_complete(self, player: int) -> bool:
        mission = self.missions[player]
        return mission is not None and mission.is_complete(self, player)

    def capitals_needed(self) -> int:
        """Capital RISK: how many opposing headquarters a player must hold (with its own) to win."""
        # A player who resigned before choosing a headquarters has none to take.
        gone = sum(1 for p in range(self.humans) if self.capitals[p] < 0 and not self.alive[p])
        others = self.humans - 1 - gone
        if self.rules.capitals_to_win == "short" and self.humans >= 4:
            return min(2 if self.humans == 4 else 3, others)
        return others

    def territories_of(self, player: int) -> list[int]:
        return [t for t, o in enumerate(self.owner) if o == player]

    def continents_of(self, player: int) -> list[int]:
        owner = self.owner
        return [c.index for c in self.board.continents if all(owner[t] == player for t in c.territories)]

    def may_reinforce(self, territory: int, player: int) -> bool:
        """Whether ``player`` may place reinforcements on ``territory``: one it controls ("place ALL of
        them into territories that you control"). Team RISK, our reading where the book is silent: a
        player who controls no territory at all places them where it has armies ("You must place ALL
        of these reinforcements")."""
        if self.owner[territory] == player:
            return True
        units = self.units
        return units is not None and self.territory_count[player] == 0 and units[territory][player] > 0

    def reinforcement_for(self, player: int) -> int:
        """Armies for territories (at least 3) and whole continents, before any card trade."""
        bonus = sum(self.board.continents[c].bonus for c in self.continents_of(player))
        return max(3, self.territory_count[player] // 3) + bonus

    def set_value(self, cards: tuple[int, ...] | list[int], sets_traded: int | None = None) -> int:
        """The armies a set is worth now (or after ``sets_traded`` sets) under these rules."""
        k = self.sets_traded if sets_traded is None else sets_traded
        mode = self.rules.card_values
        if mode == "fixed":
            return fixed_set_value([self.board.card_symbols[c] for c in cards])
        if mode == "plus-one":
            return 4 + k
        if k < len(ESCALATING_VALUES):
            return ESCALATING_VALUES[k]
        return ESCALATING_VALUES[-1] + 5 * (k - len(ESCALATING_VALUES) + 1)

    def next_set_value(self) -> int | None:
        """The value of the next set under escalating rules (``None`` for the fixed chart)."""
        return None if self.rules.card_values == "fixed" else self.set_value(())

    def must_trade(self, player: int | None = None) -> bool:
        """Whether the player to act must trade a set before doing anything else."""
        p = self.current if player is None else player
        if self.phase == _REINFORCE:
            return len(self.hands[p]) >= self.rules.forced_trade_at
        if self.phase == _ELIMINATION_TRADE:
            return len(self.hands[p]) > 4
        return False

    def occupy_range(self) -> tuple[int, int]:
        assert self._occupy is not None
        source, _, minimum, _ = self._occupy
        # The minimum has already moved in; the source must keep one army.
        mover = self.current if self.units is not None else self.owner[source]
        return minimum, minimum + min(self.force(source, mover) - 1, self.room(self._occupy[1]))

    def room(self, territory: int) -> int:
        """How many more armies ``territory`` may take (the expert 12-army cap; else no limit)."""
        cap = self.rules.army_cap
        return cap - self.armies[territory] if cap else 1 << 30

    def fortify_targets(self, source: int) -> list[int]:
        """Own territories the armies in ``source`` may move to under the fortify rule."""
        if self.team is not None:
            # Team RISK: any territory with units of the team, through such territories.
            team = self.team[self.current]
            seen = {source}
            stack = [source]
            while stack:
                for n in self.board.neighbours[stack.pop()]:
                    if n not in seen and self.team_at(n) == team:
                        seen.add(n)
                        stack.append(n)
            seen.discard(source)
            return sorted(seen)
        player = self.owner[source]
        owner = self.owner
        if self.rules.fortify == "adjacent":
            return [n for n in self.board.neighbours[source] if owner[n] == player]
        seen = {source}
        stack = [source]
        neighbours = self.board.neighbours
        while stack:
            for n in neighbours[stack.pop()]:
                if n not in seen and owner[n] == player:
                    seen.add(n)
                    stack.append(n)
        seen.discard(source)
        return sorted(seen)

    def _connected(self, source: int, target: int) -> bool:
        """Whether ``target`` is among :meth:`fortify_targets` of ``source`` (world games): the
        search stops as soon as it reaches ``target``."""
        owner = self.owner
        player = owner[source]
        neighbours = self.board.neighbours
        if target == source or owner[target] != player:
            return False
        if self.rules.fortify == "adjacent":
            return target in self.board.adjacent[source]
        seen = {source}
        stack = [source]
        while stack:
            for n in neighbours[stack.pop()]:
                if n not in seen and owner[n] == player:
                    if n == target:
                        return True
                    seen.add(n)
                    stack.append(n)
        return False

    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to act: a lazy collection (iterate, ``len``, ``in``)."""
        return LegalActions(self)

    def parse(self, text: str) -> Action:
        return parse_action(text, self.board)

    def action_text(self, action: Action) -> str:
        return action.text(self.board)

    # ------------------------------------------------------------------------------------------
    # applying actions
    # ------------------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Check and apply an action of the player to act (an :data:`Action` or its text).

        Raises :class:`NotationError` for text that is not an action, :class:`IllegalActionError`
        for an action the rules refuse now; in both cases the game is unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action, self.board)
        self.check(action)
        self._apply(action)

    def apply_with_dice(
        self, action: Action | str, attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...]
    ) -> None:
        """Apply the action that rolls a battle (``attack`` or ``defend``) with the dice given.

        Chance as an explicit step, for search and for the rulebook examples; the generator is
        still advanced as if it had rolled, so a game stays in step with its seed's other events.
        """
        if isinstance(action, str):
            action = parse_action(action, self.board)
        self.check(action)
        outcome = (tuple(sorted(attacker_dice, reverse=True)), tuple(sorted(defender_dice, reverse=True)))
        if not all(1 <= d <= 6 for d in outcome[0] + outcome[1]):
            raise IllegalActionError(f"dice show 1 to 6, not {attacker_dice} and {defender_dice}")
        saved, self._script = self._script, deque([("dice", outcome)])
        try:
            before = len(self.history)
            snapshot = self.copy()
            try:
                self._apply(action)
            except IllegalActionError:
                _restore(self, snapshot)
                raise
            if self._script:
                _restore(self, snapshot)
                raise IllegalActionError(f"{self._describe(action)} does not roll the dice now")
            assert len(self.history) > before
        finally:
            self._script = saved

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (from :meth:`legal_actions`): the fast path for search."""
        self._apply(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now; else return."""
        phase = self.phase
        if phase == _GAME_OVER:
            raise GameOverError(f"{self._describe(action)}: the game is over")
        name = self.players[self.to_act]
        fail = self._refusal(action, name)
        if fail:
            raise IllegalActionError(
                f"{self._describe(action)}: {fail} ({name} to act, phase {PHASE_NAMES[phase]})"
            )

    def _describe(self, action: Action) -> str:
        try:
            return repr(action.text(self.board))
        except (IndexError, AttributeError, TypeError, ValueError):
            return repr(action)

    def _territory_ok(self, *territories: Any) -> str:
        for t in territories:
            if not isinstance(t, int) or not 0 <= t < len(self.board):
                return f"{t!r} is not a territory of the {self.board.name} board"
        return ""

    def _refusal(self, action: Action, name: str) -> str:
        """The reason ``action`` is refused, or ``""`` when it is legal."""
        phase = self.phase
        player = self.to_act
        owner, armies, board = self.owner, self.armies, self.board

        kind = type(action)
        # The common, legal case is checked first with plain comparisons; names are looked up only
        # to say why an action is refused.
        if kind is Attack:
            if phase != _ATTACK:
                return "attacks are only made in the attack phase"
            s, t = action.source, action.target
            valid = type(s) is int and type(t) is int and 0 <= s < len(owner) and 0 <= t < len(owner)
            if not valid and (bad := self._territory_ok(s, t)):
                return bad
            attacker, defender = owner[s], owner[t]
            if attacker != self.current and not self.commands(attacker):
                return f"{board.name_of(s)} is not held by {name}" + (" or an ally" if self._active else "")
            if self.team is not None and self.team_at(t) == self.team[player]:
                return (
                    f"{board.name_of(t)} is held by {name}'s team: "
                    "'You may not attack another player on your team'"
                )
            if defender in (player, attacker):
                return f"{board.name_of(t)} is held by {self.players[defender]}: attack an enemy territory"
            if self._invasion is not None and self._invasion[0] != t and self.invasion_needs_call_off():
                invaded = board.name_of(self._invasion[0])
                return f"call off the invasion of {invaded} first ('calloff'): the neutrals' dice come first"
            if t not in board.adjacent[s]:
                return f"{board.name_of(t)} is not adjacent to {board.name_of(s)}"
            force = armies[s] if self.units is None else self.units[s][attacker]
            if force < 2:
                whose = f" of {name}'s" if self.units is not None else ""
                noun = "army" if force == 1 and not whose else "armies"
                return f"{board.name_of(s)} has only {force}{whose} {noun}: it takes at least 2 to attack"
            most = min(3, force - 1)
            if not 1 <= action.dice <= most:
                return f"{board.name_of(s)} has {force} armies, so it may roll 1 to {most} dice"
            return ""

        if kind is Defend:
            if phase != _DEFEND:
                return "there is no attack to defend against"
            assert self._attack is not None
            target = self._attack[1]
            most = min(2, armies[target])
            if not 1 <= action.dice <= most:
                return f"{board.name_of(target)} has {armies[target]} armies, so it may roll 1 to {most} dice"
            return ""

        if kind is Occupy:
            if phase != _OCCUPY:
                return "there is no conquered territory to move into"
            low, high = self.occupy_range()
            if not low <= action.armies <= high:
                return f"move in {low} to {high} armies, not {action.armies}"
            return ""

        if kind is Place:
            where = action.territory
            if not (type(where) is int and 0 <= where < len(owner)) and (bad := self._territory_ok(where)):
                return bad
            if phase == _SETUP_PLACE:
                if action.armies != 1:
                    return "setup armies are placed one at a time"
                if owner[where] != self.placing_for:
                    return (
                        f"{board.name_of(where)} is not held by {self.players[self.placing_for]}, "
                        "whose army is being placed"
                    )
                return ""
            elif phase == _ALLY_PLACE:
                if not 1 <= action.armies <= self.pending:
                    ally = self.players[self.placing_for]
                    return f"{self.pending} armies to place for {ally}, not {action.armies}"
                if owner[where] != self.placing_for:
                    return f"{board.name_of(where)} is not held by {self.players[self.placing_for]}"
                return ""
            elif phase in (_REINFORCE, _ELIMINATION_TRADE):
                if self.must_trade(player):
                    return f"{name} holds {len(self.hands[player])} cards and must trade a set first"
                if not 1 <= action.armies <= self.pending:
                    return f"{name} has {self.pending} armies to place, not {action.armies}"
                if self.rules.army_cap and action.armies > self.room(where):
                    return f"{board.name_of(where)} may hold at most {self.rules.army_cap} armies (army-cap)"
            else:
                return "there are no armies to place now"
            if self.units is not None:
                return self._team_place_refusal(where, player, name)
            if owner[where] != player:
                return f"{board.name_of(where)} is not held by {name}"
            return ""

        if kind is EndAttack:
            return "" if phase == _ATTACK else "the attack phase is not under way"

        if kind is Fortify:
            if phase != Phase.FORTIFY:
                return (
                    "fortifying is only after attacking"
                    if phase == Phase.ATTACK
                    else "fortifying is only at the end of the turn, after attacking"
                )
            s, t = action.source, action.target
            valid = type(s) is int and type(t) is int and 0 <= s < len(owner) and 0 <= t < len(owner)
            if not valid and (bad := self._territory_ok(s, t)):
                return bad
            if self.team is not None:
                return self._team_fortify_refusal(action, player, name)
            seat = owner[s]
            if not self.commands(seat):
                return f"{board.name_of(s)} is not held by {name}" + (" or an ally" if self._active else "")
            if owner[t] != seat:
                return f"{board.name_of(t)} is not held by {self.players[seat]}"
            if self._active and self.fortified[seat]:
                return f"{self.players[seat]} has made its free move this turn"
            if s == t:
                return "the armies must move to another territory"
            if not 1 <= action.armies <= armies[s] - 1:
                return f"{board.name_of(s)} can move 1 to {armies[s] - 1} armies (one stays behind)"
            if self.rules.army_cap and action.armies > self.room(t):
                return f"{board.name_of(t)} may hold at most {self.rules.army_cap} armies (army-cap)"
            if not self._connected(s, t):
                if self.rules.fortify == "adjacent":
                    return f"{board.name_of(t)} is not adjacent to {board.name_of(s)} (fortify=adjacent)"
                return (
                    f"{board.name_of(t)} is not connected to {board.name_of(s)} through territories held by "
                    f"{name}"
                )
            return ""

        if kind is EndTurn:
            if phase == Phase.FORTIFY or phase == Phase.TURN_END:
                return ""
            return (
                "the turn ends after attacking: 'endattack' first"
                if phase == Phase.ATTACK
                else "the turn cannot end in this phase"
            )
        if kind is Trade:
            return self._trade_refusal(action, player, name)

        if kind is Bribe or kind is ReinforceAlly or kind is CallOff:
            if not self._active:
                return "only active neutrals (2-player RISK, neutral-mode=active) are bribed or allied"
            if kind is CallOff:
                return (
                    "" if phase == Phase.ATTACK and self._invasion is not None else "no invasion is under way"
                )
            seat = self.neutral_seat(action.neutral)
            if seat < 0 or not self.alive[seat]:
                return f"there is no neutral-{action.neutral} in the game"
            neutral_name = self.players[seat]
            if kind is ReinforceAlly:
                if phase != Phase.ATTACK or self.attacked_this_turn:
                    return "allies are reinforced after your own reinforcements, before combat"
                if self.ally[seat] != player:
                    return f"{neutral_name} is not allied with {name}"
                if self.ally_reinforced[seat]:
                    return f"{neutral_name} has been reinforced this turn"
                return ""
            if phase != Phase.REINFORCE or self.placed_this_turn or self.traded_this_turn:
                return "bribes are given at the start of the turn, before reinforcements"
            if action.card not in self.hands[player]:
                return f"{name} does not hold the card {self._card_label(action.card)}"
            if len(self.hands[seat]) >= 5:
                return f"{neutral_name} already has 5 cards and can no longer be bribed"
            if self.bribed[seat] >= 2:
                return f"{neutral_name} has had two cards this turn"
            return ""

        if kind is Reroll or kind is Commander or kind is AcceptDice:
            if phase != Phase.ADJUST_DICE or self._rolled is None:
                return "there are no dice to change now"
            source, target, _, attack, defence, rerolled = self._rolled
            if kind is AcceptDice:
                return ""
            if kind is Commander:
                if self.rules.commanders != "on":
                    return "commanders are an expert option (commanders=on)"
                if self.commander_used:
                    return "the commander acts once a turn"
                if not 1 <= action.die <= len(attack):
                    return f"the attacker rolled {len(attack)} dice, so die 1 to {len(attack)}"
                if attack[action.die - 1] == 6:
                    return f"die {action.die} already shows 6"
                return ""
            if self.rules.attack_advantage != "on":
                return "re-rolls are an expert option (attack-advantage=on)"
            if rerolled:
                return "one re-roll per battle"
            if source not in self.hands[player] and target not in self.hands[player]:
                return f"{name} holds the card of neither {board.name_of(source)} nor {board.name_of(target)}"
            dice = attack if action.side == "attacker" else defence
            if action.side not in ("attacker", "defender") or not 1 <= action.die <= len(dice):
                return f"the {action.side} rolled {len(dice)} dice, so die 1 to {len(dice)}"
            return ""

        if kind is ClaimMission:
            if self.rules.game != "mission":
                return "mission cards are claimed in Mission RISK"
            if action.key not in self.mission_cards[player]:
                return f"{name} holds no unclaimed mission card {action.key!r}"
            if self.claimed_mission_this_turn:
                return "one mission a turn: 'you cannot claim more than one mission on a turn'"
            mission = ranked_mission(action.key)
            window = self.mission_window()
            if window != mission.timing:
                return f"{action.key!r} is claimed {TIMING_NAMES[mission.timing]}, not now"
            if not mission.is_complete(self, player):
                return f"{action.key!r} is not complete: {mission.text}"
            return ""

        if kind is Capital:
            if phase != Phase.CHOOSE_CAPITAL:
                return "headquarters are chosen in Capital RISK, after deployment"
            if bad := self._territory_ok(action.territory):
                return bad
            if owner[action.territory] != player:
                return f"{board.name_of(action.territory)} is not held by {name}"
            return ""

        if kind is Claim:
            if phase != Phase.CLAIM:
                return "claiming is only during setup, while territories are empty"
            if bad := self._territory_ok(action.territory):
                return bad
            if owner[action.territory] != -1:
                return f"{board.name_of(action.territory)} is already claimed"
            return ""

        if kind is Resign:
            return self._resign_refusal(action)  # type: ignore[arg-type]

        return f"{action!r} is not an action"

    def _team_place_refusal(self, territory: int, player: int, name: str) -> str:
        """Team RISK: "place ALL of them into territories that you control", where "If two players tie
        for the most, then NO ONE controls that territory"."""
        where = self.board.name_of(territory)
        if self.may_reinforce(territory, player):
            return ""
        if self.territory_count[player] == 0:
            return f"{name} has no armies in {where}"
        controller = self.owner[territory]
        why = (
            f"{self.players[controller]} has the most armies there"
            if controller >= 0
            else "a tie for the most armies: 'NO ONE controls that territory'"
        )
        return (
            f"{where} is not controlled by {name} ({why}): "
            "reinforcements go 'into territories that you control'"
        )

    def _team_fortify_refusal(self, action: Fortify, player: int, name: str) -> str:
        """Team RISK: "You may fortify from one territory where you have units to any other territory
        where you or other team members have units", through teammates' territories."""
        board = self.board
        source, target = board.name_of(action.source), board.name_of(action.target)
        mine = self.force(action.source, player)
        if mine == 0:
            return f"{name} has no armies in {source}"
        if action.source == action.target:
            return "the armies must move to another territory"
        if action.target not in self.fortify_targets(action.source):
            return f"{target} is not connected to {source} through territories of {name}'s team"
        # Only your own units move, and the territory is never left empty.
        most = min(mine, self.armies[action.source] - 1)
        if not 1 <= action.armies <= most:
            return f"{name} can move 1 to {most} armies out of {source} (a territory is never empty)"
        return ""

    def _trade_refusal(self, action: Trade, player: int, name: str) -> str:
        phase = self.phase
        if phase == Phase.REINFORCE:
            if self.placed_this_turn:
                return "sets are traded at the start of the turn, before placing armies"
        elif phase == Phase.ELIMINATION_TRADE:
            if len(self.hands[player]) <= 4:
                return f"{name} holds 4 or fewer cards: no more trades until the next turn"
        else:
            return "sets are traded at the start of the turn"
        cards = action.cards
        if not isinstance(cards, tuple) or len(cards) != 3:
            return "a trade is exactly three cards"
        hand = self.hands[player]
        if len(set(cards)) != 3:
            return "a trade is three different cards"
        for c in cards:
            if not isinstance(c, int) or c not in hand:
                return f"{name} does not hold the card {self._card_label(c)}"
        if not is_set([self.board.card_symbols[c] for c in cards]):
            return "those cards are not a set (three alike, one of each, or two and a wild)"
        return ""

    def _card_label(self, card: Any) -> str:
        if isinstance(card, int) and 0 <= card < self.board.card_count:
            return self.board.card_name(card)
        return repr(card)

    # -- effects -------------------------------------------------------------------------------
    def _take(self, territory: int, player: int, count: int) -> None:
        previous = self.owner[territory]
        if previous >= 0:
            self.territory_count[previous] -= 1
        self.owner[territory] = player
        self.territory_count[player] += 1
        self.armies[territory] = count
        if self.units is not None:
            stack = self.units[territory]
            stack[:] = [0] * len(stack)
            stack[player] = count

    # -- armies by seat: one stack per territory, or per seat and territory in Team RISK -------------
    def force(self, territory: int, seat: int) -> int:
        """The armies of ``seat`` in ``territory``."""
        if self.units is None:
            return self.armies[territory] if self.owner[territory] == seat else 0
        return self.units[territory][seat]

    def _add(self, territory: int, seat: int, count: int) -> None:
        """Add (or, negative, remove) armies of ``seat``; in Team RISK control may change hands."""
        self.armies[territory] += count
        if self.units is not None:
            self.units[territory][seat] += count
            self._recontrol(territory)

    def _recontrol(self, territory: int) -> None:
        """Team RISK: "The player that has the most units in a territory controls that territory. If
        two players tie for the most, then NO ONE controls that territory." (TIED, -2)"""
        assert self.units is not None
        stack = self.units[territory]
        most = max(stack)
        holders = [p for p, c in enumerate(stack) if c == most]
        controller = holders[0] if len(holders) == 1 and most > 0 else TIED
        previous = self.owner[territory]
        if controller != previous:
            if previous >= 0:
                self.territory_count[previous] -= 1
            if controller >= 0:
                self.territory_count[controller] += 1
            self.owner[territory] = controller

    def team_at(self, territory: int) -> int:
        """Team RISK: the team whose units hold ``territory`` (a territory never holds both teams)."""
        assert self.units is not None and self.team is not None
        for seat, count in enumerate(self.units[territory]):
            if count:
                return self.team[seat]
        return -1

    def defending_seat(self, territory: int) -> int:
        """Who defends a territory: its owner; in Team RISK the seat with the most units there (on a
        tie, the first in seat order) rolls, and loses units first (our reading: the book is silent)."""
        if self.units is None:
            return self.owner[territory]
        stack = self.units[territory]
        return stack.index(max(stack))

    def _lose_defenders(self, territory: int, count: int) -> None:
        if self.units is None:
            self.armies[territory] -= count
            return
        for _ in range(count):
            self._add(territory, self.defending_seat(territory), -1)

    def _apply(self, action: Action) -> None:
        if type(action) is Resign:
            self._resign(action)  # out of turn too: the history names the player who resigns
            return
        self.history.append(("action", self.to_act, action))
        kind = type(action)
        if kind is Attack:
            self._do_attack(action)  # type: ignore[arg-type]
        elif kind is Defend:
            self._resolve_battle(action.dice)  # type: ignore[union-attr]
        elif kind is Place:
            self._do_place(action)  # type: ignore[arg-type]
        elif kind is Occupy:
            self._do_occupy(action.armies)  # type: ignore[union-attr]
        elif kind is EndAttack:
            self._end_attack()
        elif kind is Fortify:
            mover = self.current if self.units is not None else self.owner[action.source]  # type: ignore[union-attr]
            self._add(action.source, mover, -action.armies)  # type: ignore[union-attr]
            self._add(action.target, mover, action.armies)  # type: ignore[union-attr]
            if self._active:
                self.fortified[self.owner[action.source]] = True  # "one free move for each of your allies"
            elif self.rules.fortify != "extended":  # 1993 experts: "one or more territories"
                self._end_turn()
        elif kind is EndTurn:
            if self.phase == Phase.TURN_END:
                self._next_turn()
            else:
                self._end_turn()
        elif kind is Trade:
            self._do_trade(action)  # type: ignore[arg-type]
        elif kind is Claim:
            self._do_claim(action.territory)  # type: ignore[union-attr]
        elif kind is Capital:
            self._do_capital(action.territory)  # type: ignore[union-attr]
        elif kind is ClaimMission:
            self._do_claim_mission(action.key)  # type: ignore[union-attr]
        elif kind is Reroll or kind is Commander or kind is AcceptDice:
            self._adjust(action)  # type: ignore[arg-type]
        elif kind is Bribe:
            seat = self.neutral_seat(action.neutral)  # type: ignore[union-attr]
            self.hands[self.current].remove(action.card)  # type: ignore[union-attr]
            self.hands[seat].append(action.card)  # type: ignore[union-attr]
            self.bribed[seat] += 1
            self._shift(seat, toward=True)
        elif kind is ReinforceAlly:
            seat = self.neutral_seat(action.neutral)  # type: ignore[union-attr]
            self.ally_reinforced[seat] = True
            self.pending = self._roll_die()  # "roll 1 die, and place that many units"
            self.placing_for = seat
            self.phase = Phase.ALLY_PLACE
        elif kind is CallOff:
            self._end_invasion()
        else:
            raise IllegalActionError(f"{action!r} is not an action")
        if self._check_goals and self.turn > 0 and self.phase != _GAME_OVER:
            self._goals()

    def _do_claim(self, territory: int) -> None:
        player = self.current
        self._take(territory, player, 1)
        self.setup_armies[player] -= 1
        if sum(self.territory_count) == len(self.board):
            self.phase = Phase.SETUP_PLACE
        self._next_setup_placer(player + 1)

    def _next_setup_placer(self, start: int) -> None:
        """Pass the setup turn to the next player, from ``start``, who still has armies to place."""
        if self._setup_queue is not None:
            if self._setup_queue:
                player, seat = self._setup_queue.popleft()
                self.current = self.to_act = player
                self.placing_for = seat
                return
            self._finish_setup()
            return
        n = len(self.players)
        for i in range(n):
            p = (start + i) % n
            if self.setup_armies[p] > 0:
                self.current = self.to_act = self.placing_for = p
                return
        self._finish_setup()

    def _finish_setup(self) -> None:
        if self.phase != Phase.CHOOSE_CAPITAL:  # else it was shuffled before the headquarters were chosen
            self._shuffle_deck()
        if self.rules.game == "capital" and self.phase != Phase.CHOOSE_CAPITAL:
            # "After deploying your troops ... select one of the territories you've claimed and make it
            # your Headquarters (but don't tell anybody)."
            self.phase = Phase.CHOOSE_CAPITAL
            self.current = self.to_act = self._in_game_from(self.first_player)
            return
        if self.rules.first_turn == "roll":
            first = self._chance_player("first-turn", list(range(self.humans)))
        else:
            first = self.first_player
        self._start_turn(first)

    def _do_claim_mission(self, key: str) -> None:
        p = self.current
        self.mission_cards[p].remove(key)
        self.missions_claimed[p].append(key)
        self.claimed_mission_this_turn = True
        if not self.mission_cards[p]:
            self._end_game(p)  # "The first player to complete all 4 missions, wins."
        elif self.phase == Phase.TURN_END:
            self._next_turn()

    def _do_capital(self, territory: int) -> None:
        self.capitals[self.current] = territory
        waiting = [p for p in range(self.humans) if self.capitals[p] < 0 and self.alive[p]]
        if waiting:
            nxt = min(waiting, key=lambda p: (p - self.current) % self.humans)
            self.current = self.to_act = nxt
            return
        # All reveal together; the headquarters cards leave the deck ("You may not use a
        # Headquarters card as part of a matched set").
        self.deck = [c for c in self.deck if c not in self.capitals]
        self._finish_setup()

    def _do_place(self, action: Place) -> None:
        seat = self.placing_for if self.phase in (_SETUP_PLACE, _ALLY_PLACE) else self.current
        self._add(action.territory, seat, action.armies)
        if self.phase == _SETUP_PLACE:
            self.setup_armies[self.placing_for] -= 1
            self._next_setup_placer(self.current + 1)
            return
        if self.phase == _ALLY_PLACE:
            self.pending -= action.armies
            if self.pending == 0:
                self.phase = Phase.ATTACK
            return
        self.placed_this_turn = True
        self.pending -= action.armies
        if self.pending == 0:
            self.phase = _ATTACK
        elif self.rules.army_cap:
            self._spill()

    def _spill(self) -> None:
        """1993 experts: 'Excess armies are lost' once every own territory holds the cap."""
        p = self.current
        if (
            self.pending
            and not self.must_trade(p)
            and all(self.room(t) <= 0 for t in range(len(self.owner)) if self.may_reinforce(t, p))
        ):
            self.pending = 0
            self.phase = Phase.ATTACK

    def _do_trade(self, action: Trade) -> None:
        player = self.current
        hand = self.hands[player]
        value = self.set_value(action.cards)
        for c in action.cards:
            hand.remove(c)
        self.discard.extend(action.cards)
        self.sets_traded += 1
        self.traded_this_turn = True
        self.pending += value
        bonus_rule = self.rules.territory_card_bonus
        if bonus_rule != "none" and not (bonus_rule == "once-per-turn" and self.territory_bonus_used):
            for c in action.cards:
                if c < len(self.board) and self.owner[c] == player:
                    self._add(c, player, min(2, max(0, self.room(c))))
                    self.territory_bonus_used = True
                    break
        if self.rules.army_cap:
            self._spill()

    def _start_turn(self, player: int) -> None:
        if not self.alive[player]:
            player = self._in_game_from(player)  # a player who resigned during the setup
        self.current = self.to_act = player
        self.turn += 1
        self.conquered_this_turn = False
        self.placed_this_turn = False
        self.territory_bonus_used = False
        self.claimed_mission_this_turn = self.attacked_this_turn = self.traded_this_turn = False
        self.commander_used = False
        if self._active:
            n = len(self.players)
            self.bribed, self.ally_reinforced, self.fortified = [0] * n, [False] * n, [False] * n
            self._invasion = None
        self.conquests_this_turn = 0
        self.pending = self.reinforcement_for(player)
        self.phase = Phase.REINFORCE
        if self.rules.army_cap:
            self._spill()

    def _do_attack(self, action: Attack) -> None:
        self._attack = (action.source, action.target, action.dice)
        self.attacked_this_turn = True
        if self._active:
            inv = self._invasion
            if inv is None or inv[0] != action.target:
                defender = self.owner[action.target]
                inv = (action.target, defender if self.neutral[defender] else -1, ())
            attacker = self.owner[action.source]
            if attacker != self.current and attacker not in inv[2]:
                inv = (inv[0], inv[1], (*inv[2], attacker))
            self._invasion = inv
        if self.armies[action.target] >= 2:
            defender = self.defending_seat(action.target)
            if not self.alive[defender]:
                self._resolve_battle(2)  # a player who resigned: its armies roll the most dice they may
                return
            self.phase = _DEFEND  # the defender chooses 1 or 2 dice
            # 2-player RISK: "Your opponent rolls defense for neutral territories."
            self.to_act = self._opponent() if self.neutral[defender] else defender
        else:
            self._resolve_battle(1)

    def _resolve_battle(self, defender_dice: int) -> None:
        assert self._attack is not None
        source, target, attacker_dice = self._attack
        self._attack = None
        self.to_act = self.current
        attack, defence = self._roll(attacker_dice, defender_dice)
        if self._can_adjust(source, target, attack, rerolled=False):
            self._rolled = (source, target, attacker_dice, attack, defence, False)
            self.phase = Phase.ADJUST_DICE
            return
        self._settle_battle(source, target, attacker_dice, attack, defence)

    def _can_adjust(self, source: int, target: int, attack: tuple[int, ...], rerolled: bool) -> bool:
        rules = self.rules
        if rules.commanders == "on" and not self.commander_used and min(attack) < 6:
            return True
        if rules.attack_advantage == "on" and not rerolled:
            # "If you hold a RISK card showing the territory you're attacking from OR attacking"
            hand = self.hands[self.current]
            return source in hand or target in hand
        return False

    def _adjust(self, action: Reroll | Commander | AcceptDice) -> None:
        assert self._rolled is not None
        source, target, attacker_dice, attack, defence, rerolled = self._rolled
        if type(action) is Reroll:
            side = list(attack if action.side == "attacker" else defence)
            side[action.die - 1] = self._roll_die()
            side.sort(reverse=True)
            if action.side == "attacker":
                attack = tuple(side)
            else:
                defence = tuple(side)
            rerolled = True
        elif type(action) is Commander:
            dice = list(attack)
            dice[action.die - 1] = 6
            attack = tuple(sorted(dice, reverse=True))
            self.commander_used = True
        if type(action) is not AcceptDice and self._can_adjust(source, target, attack, rerolled):
            self._rolled = (source, target, attacker_dice, attack, defence, rerolled)
            return
        self._rolled = None
        self._settle_battle(source, target, attacker_dice, attack, defence)

    def _settle_battle(
        self, source: int, target: int, attacker_dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> None:
        losses = LOSSES.get((attack, defence))
        attacker_losses, defender_losses = battle_losses(attack, defence) if losses is None else losses
        armies = self.armies
        if self.units is None:  # one stack per territory: the common case, without the seat bookkeeping
            mover, defender = self.owner[source], self.owner[target]
            armies[source] -= attacker_losses
            armies[target] -= defender_losses
        else:
            mover = self.current
            defender = self.defending_seat(target)
            self._add(source, mover, -attacker_losses)
            self._lose_defenders(target, defender_losses)
        conquered = armies[target] == 0
        self.last_battle = Battle(
            source, target, attack, defence, attacker_losses, defender_losses, conquered
        )
        if not conquered:
            self.phase = _ATTACK
            if self.units is not None and defender_losses:
                for seat in range(self.humans):  # the losses may have fallen on any defender there,
                    self._team_elimination(seat)  # and may have taken the last armies of more than one
            return
        # Conquest: the territory changes hands; the defender may be eliminated.
        player = self.current
        attacker = mover  # the current player, or an ally it commands
        if attacker == player:
            # 2003: "You get no card for using an ally to conquer a territory."
            self.conquered_this_turn = True
        self.conquests_this_turn += 1
        # A conquering roll never costs the attacker an army, so "at least as many armies as dice
        # rolled" (1993) and "the units used to win the battle" (2003, 2008) are the same minimum.
        minimum = attacker_dice
        # The armies that fought move in at once (2003: "Take the units used to win the battle and
        # move them"), so no territory is ever empty; the OCCUPY choice adds more from the source.
        self._take(target, attacker, minimum)
        self._add(source, attacker, -minimum)
        if self.units is not None:
            self._occupy = (source, target, minimum, False)
            self.phase = Phase.OCCUPY
            out = [
                seat
                for seat in range(self.humans)
                if self.alive[seat] and not any(u[seat] for u in self.units)
            ]
            if self.force(source, attacker) == 1 or out:
                self._do_occupy(minimum)  # nothing more can move, or the game is about to end
                for seat in out:  # a shared territory: teammates may go out together
                    self._team_elimination(seat)
            return
        eliminated = self.territory_count[defender] == 0
        if eliminated:
            self.alive[defender] = False
            self.hands[player].extend(self.hands[defender])
            self.hands[defender] = []
        self._occupy = (source, target, minimum, eliminated)
        self.phase = _OCCUPY
        if eliminated and sum(self.alive[: self.humans]) == 1:
            # The last opponent is gone (2-player RISK: "You do NOT need to eliminate neutral armies").
            self._do_occupy(minimum)
            self._end_game(player)
            return
        if armies[source] == 1:
            self._do_occupy(minimum)  # nothing more can move: no question to ask

    def _do_occupy(self, count: int) -> None:
        assert self._occupy is not None
        source, target, minimum, eliminated = self._occupy
        self._occupy = None
        mover = self.current if self.units is not None else self.owner[target]
        self._add(source, mover, -(count - minimum))
        self._add(target, mover, count - minimum)
        if self.phase == _GAME_OVER:
            return
        if self._active:
            self._end_invasion()  # the invasion ends with the conquest: the status dice follow
        player = self.current
        if eliminated and len(self.hands[player]) >= self.rules.elimination_trade_at:
            self.phase = Phase.ELIMINATION_TRADE
            self.pending = 0
        else:
            self.phase = _ATTACK

    def _opponent(self) -> int:
        """The other player still in the game (2-player RISK)."""
        for i in range(1, self.humans):
            p = (self.current + i) % self.humans
            if self.alive[p]:
                return p
        return self.current

    def commands(self, seat: int) -> bool:
        """Whether the current player moves this seat's armies: its own, or an active neutral ally's."""
        return seat == self.current or (self._active and seat >= 0 and self.ally[seat] == self.current)

    def neutral_seat(self, number: int) -> int:
        """The seat of neutral number ``number`` (1-based), or -1."""
        seat = self.humans + number - 1
        return seat if number >= 1 and seat < len(self.players) and self.neutral[seat] else -1

    def invasion_needs_call_off(self) -> bool:
        """Active neutrals: an invasion is under way whose end rolls a neutral's status die."""
        inv = self._invasion
        return inv is not None and (inv[1] >= 0 or bool(inv[2]))

    @property
    def open_invasion(self) -> int | None:
        """The target of the invasion under way (active neutrals), if any."""
        return None if self._invasion is None else self._invasion[0]

    def _shift(self, seat: int, toward: bool) -> None:
        """Move a neutral's cannon one position toward (or away from) the current player."""
        me, other = self.current, self._opponent()
        if not toward:
            me, other = other, me
        if self.ally[seat] == other:
            self.ally[seat] = -1
        elif self.ally[seat] == -1:
            self.ally[seat] = me

    def _end_invasion(self) -> None:
        """2003: "After you finish an invasion into a neutral's territory ... and/or after you finish an
        invasion using an allied army, roll 1 die. On a roll of 1-4, move that neutral's cannon one
        position away from you." One roll per neutral, one at a time."""
        invasion, self._invasion = self._invasion, None
        if invasion is None:
            return
        _, invaded, allies_used = invasion
        seats = ([invaded] if invaded >= 0 else []) + [a for a in allies_used if a != invaded]
        for seat in seats:
            if self.alive[seat] and self._roll_die() <= 4:
                self._shift(seat, toward=False)

    def _team_elimination(self, seat: int) -> bool:
        """Team RISK: "The game is over when ONE player on a team is eliminated. The other team wins."
        A player is out when no unit of theirs is left on the board."""
        assert self.units is not None
        if not self.alive[seat] or any(stack[seat] for stack in self.units):
            return False
        self.alive[seat] = False
        self._end_game(self.current)
        return True

    def _end_game(self, winner: int) -> None:
        self.winner = winner
        self.phase = Phase.GAME_OVER
        self.to_act = -1
        self._occupy = None
        self._attack = None

    def _goals(self) -> None:
        """Secret Mission and Capital RISK: has anyone reached their goal?"""
        if self.rules.game == "capital":
            p = self.current
            home = self.capitals[p]
            if home < 0 or self.owner[home] != p:
                return
            held = sum(1 for q, c in enumerate(self.capitals) if q != p and c >= 0 and self.owner[c] == p)
            if held >= self.capitals_needed():
                self._end_game(p)
            return
        for i in range(self.humans):
            p = (self.current + i) % self.humans
            if self.alive[p] and self.mission_complete(p):
                self._end_game(p)
                return

    def _end_attack(self) -> None:
        if self._invasion is not None:
            self._end_invasion()
        if self.rules.card_draw == "before-fortify" and self.conquered_this_turn:
            self._draw_card(self.current)
            self.conquered_this_turn = False  # the card for this turn has been drawn
        self.phase = Phase.FORTIFY

    def _end_turn(self) -> None:
        player = self.current
        if self.conquered_this_turn:
            self._draw_card(player)
            self.conquered_this_turn = False
        if self.rules.game == "mission" and not self.claimed_mission_this_turn:
            # The player may show an end-of-turn mission card. Always asked, so that the question
            # itself tells no one whether the player holds such a card.
            self.phase = Phase.TURN_END
            return
        self._next_turn()

    def _next_turn(self) -> None:
        player = self.current
        n = self.humans
        for i in range(1, n + 1):
            p = (player + i) % n
            if self.alive[p]:
                self._start_turn(p)
                return

    # ------------------------------------------------------------------------------------------
    # copying and serialising
    # ------------------------------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy, generator state included: cheap enough for search."""
        other = Game.__new__(Game)
        for name in _SHARED_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in _LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        for name, copy in _OTHER_FIELDS:
            setattr(other, name, copy(getattr(self, name)))
        return other

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, secrets and generator included: for saving, not players."""
        data: dict[str, Any] = {"format": "risk-state 1"}
        for name, kept in _FIELDS:
            if kept.save is not None:
                data[saved_key(name, kept)] = kept.save(getattr(self, name), self)
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Game:
        """Restore a game saved with :meth:`to_dict`."""
        try:
            if data.get("format") != "risk-state 1":
                raise RulesError("not a risk-state 1 snapshot")
            game = Game.__new__(Game)
            for name in ("rules", "board", "players"):
                setattr(game, name, _KEPT[name].load(data[name], game))
            game.humans = len(game.players) - game.rules.neutrals
            game.neutral = [i >= game.humans for i in range(len(game.players))]
            for name, kept in _FIELDS:
                key = saved_key(name, kept)
                if kept.save is None or name in ("rules", "board", "players"):
                    continue
                if kept.optional and key not in data:
                    setattr(game, name, kept.absent(len(game.players)) if kept.absent else None)
                else:
                    setattr(game, name, kept.load(data[key], game))
            game._script, game._verify = None, False
            game.team = None if game.units is None else [seat % 2 for seat in range(len(game.players))]
            if game.team is not None:
                game.hands = [game.hands[seat % 2] for seat in range(len(game.players))]
            game._check_goals = game.rules.game in ("secret-mission", "capital")
            game._active = game.rules.neutral_mode == "active" and game.rules.neutrals > 0
        except (KeyError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, RulesError):
                raise
            raise RulesError(f"malformed game snapshot: {error!r}") from None
        return game

    # ------------------------------------------------------------------------------------------
    # resigning (docs/rules.md, "Resigning"): a player leaves, at any time, even out of turn
    # ------------------------------------------------------------------------------------------
    def resigned_players(self) -> list[int]:
        """The players who resigned, in the order they did (read from the history)."""
        return [who for kind, who, value in self.history if kind == "action" and type(value) is Resign]

    def _in_game_from(self, seat: int) -> int:
        """The first player still in the game from ``seat`` on, in seat order."""
        for i in range(self.humans):
            p = (seat + i) % self.humans
            if self.alive[p]:
                return p
        return seat

    def _resign_refusal(self, action: Resign) -> str:
        seat = self.to_act if action.player is None else action.player
        if not isinstance(seat, int) or not 0 <= seat < len(self.players):
            return f"there is no player {seat!r}: players are numbered 0 to {len(self.players) - 1}"
        if self.neutral[seat]:
            return f"{self.players[seat]} is neutral armies, not a player"
        if not self.alive[seat]:
            return f"{self.players[seat]} is already out of the game"
        return ""

    def _resign(self, action: Resign) -> None:
        """The player is out; its armies stay where they are as neutral armies (they never move, and
        roll the most dice they may when attacked) and its cards stay with them, for whoever takes
        its last territory. Whatever it was doing is dropped, and the game goes on without it."""
        seat = self.to_act if action.player is None else action.player
        self.history.append(("action", seat, Resign(seat)))
        was_to_act, phase = self.to_act == seat, self.phase
        self.alive[seat] = False
        if self.team is not None:
            # 2003 Team RISK: "The game is over when ONE player on a team is eliminated. The other
            # team wins." A player who resigns is out all the same.
            later = [(seat + i) % self.humans for i in range(1, self.humans)]
            self._end_game(next(p for p in later if self.team[p] != self.team[seat]))
            return
        left = [p for p in range(self.humans) if self.alive[p]]
        if len(left) == 1:
            self._end_game(left[0])  # the last player in the game wins (2-player RISK: the opponent)
            return
        if phase in (Phase.CLAIM, Phase.SETUP_PLACE):
            self.setup_armies[seat] = 0  # its armies not yet on the board stay off it
            if was_to_act:
                self._next_setup_placer(seat + 1)
        elif phase == Phase.CHOOSE_CAPITAL:
            waiting = [p for p in range(self.humans) if self.capitals[p] < 0 and self.alive[p]]
            if was_to_act and waiting:
                self.current = self.to_act = min(waiting, key=lambda p: (p - seat) % self.humans)
            elif was_to_act:
                self.deck = [c for c in self.deck if c not in self.capitals]
                self._finish_setup()
        elif self.current == seat:
            # Its turn: the attack, move or roll under way is dropped, armies not placed are lost,
            # and no card is drawn. The next player in the game starts a turn.
            self._attack = self._occupy = self._rolled = self._invasion = None
            self.conquered_this_turn = False
            self.pending = 0
            self._next_turn()
        elif was_to_act:
            assert self._attack is not None  # it was choosing its defence dice: the most are rolled
            self._resolve_battle(min(2, self.armies[self._attack[1]]))
        if self._check_goals and self.turn > 0 and self.phase != Phase.GAME_OVER:
            self._goals()

    def _resignation_outcome(self) -> Outcome | None:
        """How the game ended, if a resignation ended it (the last action is a resignation)."""
        last = next((value for kind, _, value in reversed(self.history) if kind == "action"), None)
        if type(last) is not Resign or self.winner is None:
            return None
        w, gone = self.winner, self.players[last.player]  # type: ignore[index]
        if self.team is not None:
            mates = [self.players[p] for p in range(self.humans) if self.team[p] == self.team[w]]
            winners = tuple(p for p in range(self.humans) if self.team[p] == self.team[w])
            team = f"{', '.join(mates[:-1])} and {mates[-1]}"
            return Outcome(w, f"the team of {team}: {gone} resigned", winners)
        if self.rules.game == "two-player":
            return Outcome(w, f"the opponent resigned ({gone})", (w,))
        return Outcome(w, f"the last player in the game: {gone} resigned", (w,))


def _restore(game: Game, snapshot: Game) -> None:
    """Put ``game`` back to ``snapshot`` (a copy taken before a refused step)."""
    for name, _ in _FIELDS:
        if name not in ("_script", "_verify"):
            setattr(game, name, getattr(snapshot, name))


_FIELDS: list[tuple[str, Kept]] = state_fields(Game)
_KEPT = dict(_FIELDS)
# Copying by kind: most fields are shared (immutable) or flat lists.
_SHARED_FIELDS = tuple(name for name, kept in _FIELDS if kept.copy is same)
_LIST_FIELDS = tuple(name for name, kept in _FIELDS if kept.copy is copy_list)
_OTHER_FIELDS = tuple((name, kept.copy) for name, kept in _FIELDS if kept.copy not in (same, copy_list))


TIMING_NAMES = {
    "start": "at the start of the turn",
    "reinforced": "after the reinforcements are placed, before attacking",
    "end": "at the end of the turn",
}

class LegalActions:
    """The legal actions of a position, generated lazily (like python-chess's ``legal_moves``)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __iter__(self) -> Iterator[Action]:
        return generate_actions(self._game)

    def __len__(self) -> int:
        return count_actions(self._game)

    def count(self) -> int:
        return count_actions(self._game)

    def __contains__(self, action: object) -> bool:
        """An action, or its text as :meth:`Game.apply` takes it; text that is no action is not in it."""
        if isinstance(action, str):
            try:
                action = parse_action(action, self._game.board)
            except RiskError:
                return False
        try:
            return self._game.is_legal(action)  # type: ignore[arg-type]
        except (TypeError, AttributeError):
            return False

    def __bool__(self) -> bool:
        return self._game.phase != Phase.GAME_OVER

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} actions>"


def trade_options(game: Game, player: int) -> list[Trade]:
    """Every set the player may trade, one action per distinct bonus territory it could earn."""
    hand = sorted(game.hands[player])
    symbols = game.board.card_symbols
    owner = game.owner
    bonus_possible = game.rules.territory_card_bonus != "none" and not (
        game.rules.territory_card_bonus == "once-per-turn" and game.territory_bonus_used
    )
    options: list[Trade] = []
    for combo in combinations(hand, 3):
        if not is_set([symbols[c] for c in combo]):
            continue
        held = [c for c in combo if c < len(game.board) and owner[c] == player] if bonus_possible else []
        if len(held) <= 1:
            options.append(Trade(combo))
        else:
            for first in held:  # the bonus goes to the first held territory listed
                rest = tuple(c for c in combo if c != first)
                options.append(Trade((first, *rest)))
    return options


def generate_actions(game: Game) -> Iterator[Action]:
    phase = game.phase
    player = game.to_act
    owner, armies = game.owner, game.armies
    if phase == Phase.CLAIM:
        yield from (Claim(t) for t in range(len(owner)) if owner[t] == -1)
    elif phase == Phase.SETUP_PLACE:
        seat = game.placing_for
        yield from (Place(t, 1) for t in range(len(owner)) if owner[t] == seat and game.room(t) >= 1)
    elif phase == Phase.CHOOSE_CAPITAL:
        yield from (Capital(t) for t in range(len(owner)) if owner[t] == player)
    elif phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        can_trade = (phase == Phase.REINFORCE and not game.placed_this_turn) or (
            phase == Phase.ELIMINATION_TRADE and len(game.hands[player]) > 4
        )
        yield from (ClaimMission(k) for k in game.claimable_missions())
        if (
            game._active
            and phase == Phase.REINFORCE
            and not game.placed_this_turn
            and not game.traded_this_turn
        ):
            for seat in range(game.humans, len(game.players)):
                if game.alive[seat] and len(game.hands[seat]) < 5 and game.bribed[seat] < 2:
                    yield from (Bribe(seat - game.humans + 1, c) for c in sorted(set(game.hands[player])))
        if can_trade:
            yield from trade_options(game, player)
        if not game.must_trade(player):
            for t in range(len(owner)):
                if owner[t] == player or (game.units is not None and game.may_reinforce(t, player)):
                    for n in range(1, min(game.pending, game.room(t)) + 1):
                        yield Place(t, n)
    elif phase == Phase.ATTACK:
        adjacent = game.board.neighbours
        active = game._active
        locked = game.open_invasion if active and game.invasion_needs_call_off() else None
        team = game.team
        for s in range(len(owner)):
            seat = owner[s]
            if (seat == player or (active and game.ally[seat] == player)) and armies[s] >= 2:
                most = min(3, game.force(s, seat) - 1)
                for t in adjacent[s]:
                    if owner[t] == player or owner[t] == seat or (locked is not None and t != locked):
                        continue
                    if team is not None and game.team_at(t) == team[player]:
                        continue  # no attacks on teammates
                    for d in range(1, most + 1):
                        yield Attack(s, t, d)
        if active:
            if game._invasion is not None:
                yield CALL_OFF
            if not game.attacked_this_turn:
                for seat in range(game.humans, len(game.players)):
                    if game.alive[seat] and game.ally[seat] == player and not game.ally_reinforced[seat]:
                        yield ReinforceAlly(seat - game.humans + 1)
        yield from (ClaimMission(k) for k in game.claimable_missions())
        yield END_ATTACK
    elif phase == Phase.DEFEND:
        assert game.pending_attack is not None
        for d in range(1, min(2, armies[game.pending_attack[1]]) + 1):
            yield Defend(d)
    elif phase == Phase.OCCUPY:
        low, high = game.occupy_range()
        yield from (Occupy(n) for n in range(low, high + 1))
    elif phase == Phase.ALLY_PLACE:
        seat = game.placing_for
        for t in range(len(owner)):
            if owner[t] == seat:
                yield from (Place(t, n) for n in range(1, game.pending + 1))
    elif phase == Phase.FORTIFY and game.team is not None:
        for s in range(len(owner)):
            most = min(game.force(s, player), armies[s] - 1)
            if most >= 1:
                for t in game.fortify_targets(s):
                    yield from (Fortify(s, t, n) for n in range(1, most + 1))
        yield END_TURN
    elif phase == Phase.FORTIFY:
        for s in range(len(owner)):
            seat = owner[s]
            if game._active and (not game.commands(seat) or game.fortified[seat]):
                continue
            if (seat == player or game._active) and armies[s] >= 2:
                for t in game.fortify_targets(s):
                    for n in range(1, min(armies[s] - 1, game.room(t)) + 1):
                        yield Fortify(s, t, n)
        yield END_TURN
    elif phase == Phase.ADJUST_DICE:
        rolled = game.pending_roll
        assert rolled is not None
        source, target, attack, defence, rerolled = rolled
        if game.rules.commanders == "on" and not game.commander_used:
            yield from (Commander(i + 1) for i, d in enumerate(attack) if d < 6)
        if game.rules.attack_advantage == "on" and not rerolled:
            hand = game.hands[player]
            if source in hand or target in hand:
                yield from (Reroll("attacker", i + 1) for i in range(len(attack)))
                yield from (Reroll("defender", i + 1) for i in range(len(defence)))
        yield ACCEPT_DICE
    elif phase == Phase.TURN_END:
        yield from (ClaimMission(k) for k in game.claimable_missions())
        yield END_TURN


def count_actions(game: Game) -> int:
    """The number of legal actions, counted without building them where that is easy."""
    phase = game.phase
    player = game.to_act
    owner, armies = game.owner, game.armies
    if phase == Phase.REINFORCE or phase == Phase.ELIMINATION_TRADE:
        total = 0
        if (phase == Phase.REINFORCE and not game.placed_this_turn) or (
            phase == Phase.ELIMINATION_TRADE and len(game.hands[player]) > 4
        ):
            total += len(trade_options(game, player))
        total += len(game.claimable_missions())
        if game._active:
            total += sum(1 for a in generate_actions(game) if type(a) is Bribe)
        if not game.must_trade(player):
            if game.rules.army_cap:
                total += sum(
                    max(0, min(game.pending, game.room(t)))
                    for t in range(len(owner))
                    if game.may_reinforce(t, player)
                )
            else:
                placeable = game.territory_count[player]
                if placeable == 0 and game.units is not None:  # Team RISK: controls no territory
                    placeable = sum(1 for stack in game.units if stack[player])
                total += placeable * game.pending
        return total
    if phase == Phase.FORTIFY and not game.rules.army_cap and not game._active and game.team is None:
        return 1 + sum(
            len(game.fortify_targets(s)) * (armies[s] - 1)
            for s in range(len(owner))
            if owner[s] == player and armies[s] >= 2
        )
    if phase == Phase.GAME_OVER:
        return 0
    return sum(1 for _ in generate_actions(game))


# The names the rest of the package imports from here (some now live in state.py).
__all__ = [
    "PHASE_NAMES",
    "TIED",
    "Battle",
    "ChanceMismatch",
    "Game",
    "LegalActions",
    "Outcome",
    "Phase",
    "battle_losses",
    "fixed_set_value",
    "is_set",
    "trade_options",
]
