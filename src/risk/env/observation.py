"""What an agent observes: a dict of fixed-size NumPy arrays, built from its :class:`~risk.view.View` only.

Seats are relative to the observer: seat ``0`` is the observer, ``1`` the next seat in turn order,
and so on round the table (neutral seats included, last). ``T`` territories, ``P`` seats (players
and neutrals), ``C`` cards, ``K`` continents, ``E`` directed links, ``A`` actions, ``R`` Mission
RISK cards. Every array is ``int32`` except ``action_mask`` (``int8``); "none" codes are the first
value past the real ones (a seat ``P``, a territory ``T``).

====================  =========  ===================================================================
field                 shape      meaning
====================  =========  ===================================================================
action_mask           (A,)       1 where the action index is legal now (all 0 when another acts)
owner                 (T,)       relative seat holding each territory; P: unclaimed; P+1: tied
                                 (Team RISK, no one controls it); under fog, the one last seen
                                 (P: never seen)
armies                (T,)       armies on each territory (under fog, last seen; 0: never seen)
visible               (T,)       1 where the territory is in sight now: everywhere without fog of war
seen_age              (T,)       turns since the territory was last seen: 0 in sight (and everywhere
                                 without fog); ``turn + 1`` where it was never seen
units                 (T, P)     armies of each relative seat on each territory (Team RISK: teammates
                                 share territories; other games: the owner's armies)
continent             (T,)       each territory's continent (fixed)
edge_index            (2, E)     the board's links as a graph: source and target territory of each
                                 directed link (fixed; both directions of each link)
hand                  (C,)       1 for each card in the observer's hand (Team RISK: the team's hand)
discard               (C,)       1 for each card traded in (face up: everyone sees them)
seats                 (P, 10)    per relative seat, the columns of SEAT_FIELDS (below)
game                  (16,)      the position, GAME_FIELDS (below)
battle                (25,)      the battle under way and the last one rolled, BATTLE_FIELDS (below)
mission               (1,)       Secret Mission RISK: the observer's own mission, an index into
                                 ``secret_mission_names(P, board)`` (0: none); other missions are
                                 hidden
mission_cards         (P, R)     Mission RISK, each seat's cards: 0 not held or not shown,
                                 1 held and shown (the observer's own; another's once it has
                                 claimed three), 2 claimed (shown to all); the columns are the
                                 board's cards, ``ActionCodec.mission_keys``
====================  =========  ===================================================================

``SEAT_FIELDS``: ``alive``, ``neutral``, ``teammate`` (1 for the observer and its Team RISK
teammates), ``territories`` held, ``armies`` on the board, ``cards`` held (a count: everyone may
count them), ``setup_armies`` left to place, ``capital``: the headquarters' territory (Capital RISK;
``T`` none, ``T + 1`` hidden: chosen in secret and not yet revealed), ``ally``: active neutrals,
the relative seat the neutral is allied with (``P``: none), ``hidden_mission_cards``: Mission RISK,
unclaimed cards of that seat the observer may not see.

``GAME_FIELDS``: ``phase`` (:class:`~risk.rules.game.Phase` value), ``turn``, ``current`` and
``to_act`` (relative seats), ``pending`` armies to place, ``deck_size``, ``sets_traded``,
``next_set_value`` (0: no escalating value), ``conquered_this_turn``, ``placed_this_turn``,
``traded_this_turn``, ``attacked_this_turn``, ``conquests_this_turn``, ``must_trade`` (the observer),
``placing_for`` (relative seat whose army is placed in setup or for an ally), ``open_invasion``
(active neutrals: the territory invaded, ``T`` none).

``BATTLE_FIELDS``: the attack awaiting the defender's dice (``attack_source``, ``attack_target``,
``attack_dice``), the conquest awaiting the move-in (``occupy_source``, ``occupy_target``,
``occupy_min``, ``occupy_max``), the 1993 experts' roll that may still change (``roll_source``,
``roll_target``, ``roll_attacker_1..3``, ``roll_defender_1..2``, ``roll_rerolled``) and the last
battle rolled (``last_source``, ``last_target``, ``last_attacker_1..3``, ``last_defender_1..2``,
``last_attacker_losses``, ``last_defender_losses``, ``last_conquered``). Territories are ``T`` where
there is none, dice ``0``.

Nothing here is read from the game itself: only from the observer's ``View``, which shows no other
hand, mission, draw pile or generator (tests/test_env.py checks that games differing only in those
give the same observations).

Fog of war (the ``fog`` rule option): while the game runs, ``owner``, ``armies``, ``units`` and the
seats' ``territories`` and ``armies`` are what the observer last saw (the View's memory), ``visible``
and ``seen_age`` say how old each territory's entry is, the battle row shows only battles it saw,
``pending`` is 0 during another's turn, and ``conquered_this_turn``, ``attacked_this_turn``,
``placed_this_turn`` and ``conquests_this_turn`` are 0 during another's turn (its battles may be
out of sight; the View hides them). Games
differing only in the board out of sight give the same observations (tests/test_env.py).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from risk.maps import Board
from risk.rules.game import TIED, Battle, Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import base_missions, effective_mission, ranked_missions
from risk.view import View

SEAT_FIELDS: Final = (
    "alive",
    "neutral",
    "teammate",
    "territories",
    "armies",
    "cards",
    "setup_armies",
    "capital",
    "ally",
    "hidden_mission_cards",
)
GAME_FIELDS: Final = (
    "phase",
    "turn",
    "current",
    "to_act",
    "pending",
    "deck_size",
    "sets_traded",
    "next_set_value",
    "conquered_this_turn",
    "placed_this_turn",
    "traded_this_turn",
    "attacked_this_turn",
    "conquests_this_turn",
    "must_trade",
    "placing_for",
    "open_invasion",
)
BATTLE_FIELDS: Final = (
    "attack_source",
    "attack_target",
    "attack_dice",
    "occupy_source",
    "occupy_target",
    "occupy_min",
    "occupy_max",
    "roll_source",
    "roll_target",
    "roll_attacker_1",
    "roll_attacker_2",
    "roll_attacker_3",
    "roll_defender_1",
    "roll_defender_2",
    "roll_rerolled",
    "last_source",
    "last_target",
    "last_attacker_1",
    "last_attacker_2",
    "last_attacker_3",
    "last_defender_1",
    "last_defender_2",
    "last_attacker_losses",
    "last_defender_losses",
    "last_conquered",
)
# The fields of an information state (Observer.information_state), in order: what the player knows,
# without the legal actions (OpenSpiel asks for those apart).
INFORMATION_FIELDS: Final = (
    "owner",
    "armies",
    "visible",
    "seen_age",
    "units",
    "continent",
    "edge_index",
    "hand",
    "discard",
    "seats",
    "game",
    "battle",
    "mission",
    "mission_cards",
)
_OCCUPY, _DEFEND = Phase.OCCUPY, Phase.DEFEND
_REINFORCE, _ELIMINATION_TRADE = Phase.REINFORCE, Phase.ELIMINATION_TRADE
# Rows and parts of rows written into the kept int32 arrays at a byte offset, the values converted in
# one call (array("i", values) and a memoryview's slice took three times the instructions).
_GAME_ROW: Final = struct.Struct(f"{len(GAME_FIELDS)}i")
_ATTACK_PART: Final = struct.Struct("3i")  # the battle row's columns 0-2, 3-6, 7-14 and 15-24
_OCCUPATION_PART: Final = struct.Struct("4i")
_ROLL_PART: Final = struct.Struct("8i")
_LAST_PART: Final = struct.Struct("10i")
_NO_DICE: Final = (0, 0, 0)  # the dice columns of a side that rolled fewer (3 attacker's, 2 defender's)
FEW: Final = 24  # up to this many legal indices, the mask is set one by one
CARDS_EACH: Final = 4  # Mission RISK: four mission cards each, one of each rank
BIG: Final = 2**31 - 1  # the bound of a count (armies, turns)

Array = NDArray[Any]


def _seat_facts(view: View) -> tuple[Any, ...]:
    """The facts behind the seat columns alive, cards and setup_armies, the hand, the discard pile and
    the secret mission (read attribute by attribute: native calls in the compiled build)."""
    return (view.alive, view.setup_armies, view.hand_sizes, view.hand, view.discard, view.mission)


def _battle_facts(
    view: View,
) -> tuple[
    Phase,
    tuple[int, int, int] | None,
    tuple[int, int, int] | None,
    tuple[int, int, tuple[int, ...], tuple[int, ...], bool] | None,
    Battle | None,
]:
    """What the battle row shows."""
    return view.phase, view.pending_attack, view.pending_occupation, view.pending_roll, view.last_battle


def secret_mission_names(seats: int, board: Board | None = None) -> tuple[str, ...]:
    """The names behind the ``mission`` field: ``none``, the board's base missions (made from it on
    a board other than the classic one: ``risk.rules.missions.base_missions``), then
    ``destroy-seat-R`` for each relative seat ``R`` (a destroy card naming the observer is the
    board's "occupy" mission by the rules: "occupy 24" on the classic board)."""
    base = base_missions(board)
    return ("none", *(m.key for m in base), *(f"destroy-seat-{r}" for r in range(1, seats)))


class Observer:
    """Builds the observations of one board and seating (see the module's text for the fields).

    :meth:`observe` keeps, for each observing seat, the arrays of its last observation and the public
    facts they were built from, and updates only what changed since: the territories whose owner or
    armies changed (and the seats' territories and armies by the difference), the seat columns, the
    hand, the discard pile and each part of the battle row when what they show changed; the game row
    is built anew. A new :class:`View` (a new game) starts from :meth:`build`, which builds
    everything from the View alone: the incremental observation always equals it (tests/test_env.py
    checks every step of whole games of every game type). Every observation returned is arrays of its
    own (copies, never the kept ones): a caller may keep it, or change it, without touching another.
    """

    def __init__(self, view: View, action_count: int, edges: tuple[tuple[int, int], ...]) -> None:
        board = view.board
        self._made_from = (view, edges)  # for fresh(): a compiled class has no copy.copy
        self.territories = t = len(board)
        self.seats = p = len(view.players)
        self.cards = c = board.card_count
        self.action_count = action_count
        self._continent = np.array(board.continent_of, dtype=np.int32)
        self._edge_index = np.array(edges, dtype=np.int32).reshape(-1, 2).T.copy()
        self._board = board
        base = base_missions(board)  # the board's own missions (the classic board: the book's)
        self._mission_index = {m.key: i + 1 for i, m in enumerate(base)}
        self._base_missions = len(base)
        self._ranked = {m.key: i for i, m in enumerate(ranked_missions(board))}
        self._rows = np.arange(t)
        self._range = range(t)
        self._kept: dict[int, _Kept] = {}  # observing seat -> its arrays and what they were built from
        self._all_visible = np.ones(t, dtype=np.int32)  # the fog channels of a view without fog
        self._no_age = np.zeros(t, dtype=np.int32)
        self.space = spaces.Dict(
            {
                "action_mask": spaces.Box(0, 1, (action_count,), np.int8),
                "owner": spaces.Box(0, p + 1, (t,), np.int32),
                "armies": spaces.Box(0, BIG, (t,), np.int32),
                "visible": spaces.Box(0, 1, (t,), np.int32),
                "seen_age": spaces.Box(0, BIG, (t,), np.int32),
                "units": spaces.Box(0, BIG, (t, p), np.int32),
                "continent": spaces.Box(0, max(len(board.continents) - 1, 0), (t,), np.int32),
                "edge_index": spaces.Box(0, t - 1, self._edge_index.shape, np.int32),
                "hand": spaces.Box(0, 1, (c,), np.int32),
                "discard": spaces.Box(0, 1, (c,), np.int32),
                "seats": spaces.Box(0, BIG, (p, len(SEAT_FIELDS)), np.int32),
                "game": spaces.Box(0, BIG, (len(GAME_FIELDS),), np.int32),
                "battle": spaces.Box(0, BIG, (len(BATTLE_FIELDS),), np.int32),
                "mission": spaces.Box(0, len(secret_mission_names(p, board)) - 1, (1,), np.int32),
                "mission_cards": spaces.Box(0, 2, (p, len(self._ranked)), np.int32),
            }
        )

    def fresh(self) -> Observer:
        """An observer of the same board and seating that keeps no observation yet (for a clone of an
        environment: its kept arrays are its own)."""
        view, edges = self._made_from
        return Observer(view, self.action_count, edges)

    def forget(self) -> None:
        """Drop the kept observations: the next of each seat is built anew."""
        self._kept = {}

    def observe(self, view: View, legal: list[int] | None) -> dict[str, Array]:
        """The observation of ``view``'s player; ``legal``: the legal action indices (None: none).
        Updated from this seat's last observation through the same ``view``; else built anew."""
        kept = self._kept.get(view.player)
        if kept is None or kept.view is not view:
            kept = self._kept[view.player] = _Kept(view, self.build(view, None))
        else:
            self._update(kept, view)
        mask = np.zeros(self.action_count, np.int8)
        if legal:
            if len(legal) > FEW:
                mask[legal] = 1
            else:  # a few: one by one through a memoryview, cheaper than NumPy's indexing
                bits = mask.data
                for index in legal:
                    bits[index] = 1
        rel = kept.rel
        # Mission RISK's cards: built anew (a rare game); elsewhere all 0 for good.
        mission_cards = (
            self._mission_cards(view, rel) if kept.mission_card_game else kept.mission_cards.copy()
        )
        if view.fogged:
            visible, age = self._fog(view)
        else:
            visible, age = self._all_visible.copy(), self._no_age.copy()
        # The game row: rewritten in the kept array when it changed, then copied (one NumPy call
        # where np.array of the row made one from 16 Python ints).
        row = self._game_row(view, rel)
        if row != kept.seen_game:
            kept.seen_game = row
            _GAME_ROW.pack_into(kept.game_bits, 0, *row)
        return {
            "action_mask": mask,
            "owner": kept.owner.copy(),
            "armies": kept.armies.copy(),
            "visible": visible,
            "seen_age": age,
            "units": kept.units.copy(),
            "continent": self._continent.copy(),
            "edge_index": self._edge_index.copy(),
            "hand": kept.hand.copy(),
            "discard": kept.discard.copy(),
            "seats": kept.seats.copy(),
            "game": kept.game.copy(),
            "battle": self._kept_battle(kept, view),
            "mission": kept.mission.copy(),
            "mission_cards": mission_cards,
        }

    def build(self, view: View, legal: list[int] | None) -> dict[str, Array]:
        """The observation of ``view``'s player built from scratch (what :meth:`observe` returns too)."""
        t, p = self.territories, self.seats
        me = view.player
        none_seat, tied_seat = p, p + 1
        rel = [(seat - me) % p for seat in range(p)]
        seats = np.array(view.owner, dtype=np.int32)
        # Relative seats; the codes past them for unclaimed (-1) and tied (TIED) territories.
        owner = np.where(seats >= 0, (seats - me) % p, np.where(seats == TIED, tied_seat, none_seat))
        owner = owner.astype(np.int32, copy=False)
        armies = np.array(view.armies, dtype=np.int32)
        units_by_seat = view.units
        if units_by_seat is None:
            units = np.zeros((t, p), dtype=np.int32)
            # An unclaimed territory has no armies: writing its 0 in any column changes nothing.
            units[self._rows, np.minimum(owner, p - 1)] = armies
        else:
            units = np.array(units_by_seat, dtype=np.int32)[:, [(me + r) % p for r in range(p)]]
        hand = np.zeros(self.cards, dtype=np.int32)
        hand[list(view.hand)] = 1
        discard = np.zeros(self.cards, dtype=np.int32)
        discard[list(view.discard)] = 1
        mask = np.zeros(self.action_count, dtype=np.int8)
        if legal:
            mask[legal] = 1
        visible, age = self._fog(view)
        return {
            "action_mask": mask,
            "owner": owner,
            "armies": armies,
            "visible": visible,
            "seen_age": age,
            "units": units,
            "continent": self._continent.copy(),
            "edge_index": self._edge_index.copy(),
            "hand": hand,
            "discard": discard,
            "seats": self._seats(view, rel, units),
            "game": self._game(view, rel),
            "battle": self._battle(view),
            "mission": np.array([self._mission(view, rel)], dtype=np.int32),
            "mission_cards": self._mission_cards(view, rel),
        }

    def information_state(self, observation: dict[str, Array]) -> Array:
        """``observation`` (of :meth:`observe` or :meth:`build`) as one flat ``float32`` vector: every
        field but ``action_mask``, in :data:`INFORMATION_FIELDS` order, raveled (for search and game
        theory: OpenSpiel's information-state tensor). Everything in it comes from the player's View."""
        return np.concatenate([observation[field].ravel() for field in INFORMATION_FIELDS]).astype(np.float32)

    def information_state_size(self) -> int:
        """The length of :meth:`information_state`'s vector on this board and seating."""
        size = 0
        for field in INFORMATION_FIELDS:
            shape = self.space[field].shape
            assert shape is not None  # (every field is a Box)
            size += int(np.prod(shape))
        return size

    def _fog(self, view: View) -> tuple[Array, Array]:
        """The ``visible`` and ``seen_age`` channels (built anew: a fogged view's change every turn)."""
        if not view.fogged:
            return self._all_visible.copy(), self._no_age.copy()
        territories, turn = self._range, view.turn
        count = self.territories
        visible = np.fromiter((view.visible(t) for t in territories), dtype=np.int32, count=count)
        # Never seen (seen_turn -1): turn + 1, older than anything seen.
        age = np.fromiter((turn - view.seen_turn(t) for t in territories), dtype=np.int32, count=count)
        age[visible == 1] = 0
        return visible, age

    # -- the incremental update ----------------------------------------------------------------------
    def _update(self, kept: _Kept, view: View) -> None:
        """Bring ``kept``'s arrays up to date with ``view``, touching only what changed."""
        owner, armies = view.owner, view.armies
        if owner != kept.seen_owner or armies != kept.seen_armies:
            if kept.team_game:
                self._team_territories(kept, view)
            else:  # the seats' territories and armies follow the territories that changed
                self._territories(kept, owner, armies)
        # The other facts read in one call and compared in one: most often none has changed.
        facts = _seat_facts(view)
        if facts != kept.seen_facts:
            self._facts(kept, view, facts)
        if kept.team_game:
            count = view.territory_count
            if count != kept.seen_count:
                kept.seen_count = list(count)
                kept.set_column(3, count)
        seats = kept.seats
        if kept.headquarters_game:
            capitals = (view.capitals, view.phase == Phase.CHOOSE_CAPITAL)
            if capitals != kept.seen_capitals:
                kept.seen_capitals = capitals
                seats[:, 7] = self._seats(view, kept.rel, kept.units)[:, 7]
        if kept.ally_game:
            ally = view.ally
            if ally != kept.seen_ally:
                kept.seen_ally = list(ally)
                seats[:, 8] = self._seats(view, kept.rel, kept.units)[:, 8]
        if kept.mission_card_game:  # a rare game: the column from scratch
            seats[:, 9] = self._seats(view, kept.rel, kept.units)[:, 9]

    def _facts(self, kept: _Kept, view: View, facts: tuple[Any, ...]) -> None:
        """Rewrite what changed among the facts of ``_seat_facts`` (copies kept: the View's are live)."""
        alive, setup, sizes, hand, discard, mission = facts
        seen_alive, seen_setup, seen_sizes, seen_hand, seen_discard, seen_mission = kept.seen_facts
        if alive != seen_alive:
            kept.set_column(0, alive)
        if sizes != seen_sizes:
            kept.set_column(5, sizes)
        if setup != seen_setup:
            kept.set_column(6, setup)
        if hand != seen_hand:
            kept.hand[:] = 0
            kept.hand[list(hand)] = 1
        if discard != seen_discard:
            kept.discard[:] = 0
            kept.discard[list(discard)] = 1
        if mission is not seen_mission:
            kept.mission[0] = self._mission(view, kept.rel)
        kept.seen_facts = (list(alive), list(setup), sizes, hand, list(discard), mission)

    def _territories(self, kept: _Kept, owner: list[int], armies: list[int]) -> None:
        """Games without shared territories: each territory whose owner or armies changed, its row of
        ``units`` and the seats' territories and armies by the difference (a seat's territories are
        those it holds: ``territory_count`` is not read)."""
        seen_owner, seen_armies = kept.seen_owner, kept.seen_armies
        # The territories that differ: a loop over typed lists, native code in the compiled build.
        changed = [
            t for t in range(self.territories) if armies[t] != seen_armies[t] or owner[t] != seen_owner[t]
        ]
        code, p, width = kept.code, self.seats, len(SEAT_FIELDS)
        # Through memoryviews of the kept arrays: a scalar written at half NumPy's cost.
        owner_now, armies_now = kept.owner_bits, kept.armies_bits
        units, seats = kept.units_bits, kept.seats_bits
        for t in changed:
            seat, count = owner[t], armies[t]
            before, after, lost = code[seen_owner[t]], code[seat], seen_armies[t]
            if before == after:
                # The same holder, other armies: the most frequent change (a battle, a placement).
                if after < p:
                    units[t * p + after] = count
                    seats[after * width + 4] += count - lost
            else:
                if before < p:
                    units[t * p + before] = 0
                    seats[before * width + 3] -= 1
                    seats[before * width + 4] -= lost
                if after < p:
                    units[t * p + after] = count
                    seats[after * width + 3] += 1
                    seats[after * width + 4] += count
                owner_now[t] = after
                seen_owner[t] = seat
            armies_now[t] = count
            seen_armies[t] = count

    def _team_territories(self, kept: _Kept, view: View) -> None:
        """Team RISK (teammates share territories, a tie is no one's): the changed rows anew."""
        units_by_seat = view.units
        assert units_by_seat is not None
        owner, armies, me, code = view.owner, view.armies, kept.me, kept.code
        seen_units = kept.seen_units
        for t in self._range:
            row = units_by_seat[t]
            if row != seen_units[t] or owner[t] != kept.seen_owner[t] or armies[t] != kept.seen_armies[t]:
                seen_units[t] = list(row)
                kept.units[t] = [*row[me:], *row[:me]]
                kept.owner[t] = code[owner[t]]
                kept.armies[t] = armies[t]
        kept.seen_owner = list(owner)
        kept.seen_armies = list(armies)
        kept.seats[:, 4] = kept.units.sum(axis=0)

    def _seats(self, view: View, rel: list[int], units: Array) -> Array:
        p, t, me = self.seats, self.territories, view.player
        team = view.team
        capitals = view.capitals
        choosing = view.phase == Phase.CHOOSE_CAPITAL
        ally = view.ally
        alive, count, setup, neutral = view.alive, view.territory_count, view.setup_armies, view.neutral
        hand_sizes = view.hand_sizes
        mission_cards = view.goal.kind is GoalKind.MISSION_CARDS
        shown = view.mission_cards if mission_cards else ()
        claimed = view.missions_claimed if mission_cards else ()
        armies = units.sum(axis=0).tolist()
        rows = []
        for r in range(p):
            seat = (me + r) % p
            capital = capitals[seat] if seat < len(capitals) else -1
            rows.append(
                (
                    alive[seat],
                    neutral[seat],
                    seat == me or (team is not None and team[seat] == team[me]),
                    count[seat],
                    armies[r],
                    hand_sizes[seat],
                    setup[seat],
                    capital if capital >= 0 else (t + 1 if choosing and seat != me else t),
                    rel[ally[seat]] if seat < len(ally) and ally[seat] >= 0 else p,
                    CARDS_EACH - len(claimed[seat]) if seat < len(shown) and shown[seat] is None else 0,
                )
            )
        return np.array(rows, dtype=np.int32)

    def _game(self, view: View, rel: list[int]) -> Array:
        return np.array(self._game_row(view, rel), dtype=np.int32)

    def _game_row(self, view: View, rel: list[int]) -> tuple[int, ...]:
        phase = view.phase
        next_value = view.next_set_value()
        invasion = view.open_invasion if view.active_neutrals else None
        return (  # GAME_FIELDS (the counts of this turn fogged by the View)
            phase,
            view.turn,
            rel[view.current],
            rel[view.to_act],
            view.pending,
            view.deck_size,
            view.sets_traded,
            0 if next_value is None else next_value,
            view.conquered_this_turn,
            view.placed_this_turn,
            view.traded_this_turn,
            view.attacked_this_turn,
            view.conquests_this_turn,
            (phase is _REINFORCE or phase is _ELIMINATION_TRADE) and view.must_trade(view.player),
            rel[view.placing_for],
            self.territories if invasion is None else invasion,
        )

    def _kept_battle(self, kept: _Kept, view: View) -> Array:
        """The battle row: each of its four parts rewritten only when what it shows changed (a
        move-in's range: whenever one is shown)."""
        phase, attack, occupation, roll, battle = _battle_facts(view)
        bits = kept.battle_bits
        if battle is not kept.seen_last:
            kept.seen_last = battle
            _LAST_PART.pack_into(bits, 15 * 4, *self._last_part(battle))
        if attack is not kept.seen_attack or (phase is _DEFEND) != kept.attack_shown:
            kept.seen_attack, kept.attack_shown = attack, phase is _DEFEND
            _ATTACK_PART.pack_into(bits, 0, *self._attack_part(attack, phase))
        if roll is not kept.seen_roll:
            kept.seen_roll = roll
            _ROLL_PART.pack_into(bits, 7 * 4, *self._roll_part(roll))
        if phase is _OCCUPY or kept.occupation_shown:
            kept.occupation_shown = phase is _OCCUPY
            _OCCUPATION_PART.pack_into(bits, 3 * 4, *self._occupation_part(view, occupation, phase))
        return kept.battle.copy()

    def _battle(self, view: View) -> Array:
        phase, attack, occupation, roll, battle = _battle_facts(view)
        return np.array(
            (
                *self._attack_part(attack, phase),
                *self._occupation_part(view, occupation, phase),
                *self._roll_part(roll),
                *self._last_part(battle),
            ),
            dtype=np.int32,
        )

    def _attack_part(self, attack: tuple[int, int, int] | None, phase: Phase) -> tuple[int, ...]:
        t = self.territories
        return (t, t, 0) if attack is None or phase is not _DEFEND else attack

    def _occupation_part(
        self, view: View, occupation: tuple[int, int, int] | None, phase: Phase
    ) -> tuple[int, ...]:
        t = self.territories
        if occupation is None or phase is not _OCCUPY:
            return (t, t, 0, 0)
        return (occupation[0], occupation[1], *view.occupy_range())

    def _roll_part(
        self, roll: tuple[int, int, tuple[int, ...], tuple[int, ...], bool] | None
    ) -> tuple[int, ...]:
        t = self.territories
        if roll is None:
            return (t, t, 0, 0, 0, 0, 0, 0)
        source, target, attacker, defender, rerolled = roll
        dice = (*attacker, *_NO_DICE[len(attacker) :], *defender, *_NO_DICE[len(defender) + 1 :])
        return (source, target, *dice, rerolled)

    def _last_part(self, battle: Battle | None) -> tuple[int, ...]:
        t = self.territories
        if battle is None:
            return (t, t, 0, 0, 0, 0, 0, 0, 0, 0)
        attacker, defender = battle.attacker_dice, battle.defender_dice
        return (
            battle.source,
            battle.target,
            *attacker,
            *_NO_DICE[len(attacker) :],
            *defender,
            *_NO_DICE[len(defender) + 1 :],
            battle.attacker_losses,
            battle.defender_losses,
            battle.conquered,
        )

    def _mission(self, view: View, rel: list[int]) -> int:
        mission = view.mission
        if mission is None:
            return 0
        mission = effective_mission(mission, view.player, self._board)
        if mission.destroy is not None:
            return self._base_missions + rel[mission.destroy]
        return self._mission_index[mission.key]

    def _mission_cards(self, view: View, rel: list[int]) -> Array:
        cards = np.zeros((self.seats, len(self._ranked)), dtype=np.int32)
        if view.goal.kind is not GoalKind.MISSION_CARDS:
            return cards
        ranked = self._ranked
        for seat, (claimed, shown) in enumerate(zip(view.missions_claimed, view.mission_cards, strict=False)):
            row = cards[rel[seat]]
            for key in shown or ():
                row[ranked[key]] = 1
            for key in claimed:
                row[ranked[key]] = 2
        return cards


class _Kept:
    """One observing seat's arrays (in its relative seats) and the public facts they were built from,
    read through ``view``: what :meth:`Observer._update` compares to see what changed."""

    __slots__ = (
        "ally_game",
        "armies",
        "armies_bits",
        "attack_shown",
        "battle",
        "battle_bits",
        "code",
        "discard",
        "game",
        "game_bits",
        "hand",
        "headquarters_game",
        "me",
        "mission",
        "mission_card_game",
        "mission_cards",
        "occupation_shown",
        "owner",
        "owner_bits",
        "rel",
        "seats",
        "seats_bits",
        "seen_ally",
        "seen_armies",
        "seen_attack",
        "seen_capitals",
        "seen_count",
        "seen_facts",
        "seen_game",
        "seen_last",
        "seen_owner",
        "seen_roll",
        "seen_units",
        "team_game",
        "units",
        "units_bits",
        "view",
    )

    def __init__(self, view: View, built: dict[str, Array]) -> None:
        self.view = view
        self.me = me = view.player
        p = len(view.players)
        self.rel = [(seat - me) % p for seat in range(p)]
        # An owner's code by absolute seat; -1 (unclaimed) and -2 (tied) index from the end.
        self.code = [*self.rel, p + 1, p]
        self.owner, self.armies, self.hand, self.discard = (
            built["owner"],
            built["armies"],
            built["hand"],
            built["discard"],
        )
        # Contiguous, to be written through flat memoryviews (a fancy index may leave units in F order).
        self.units, self.seats = np.ascontiguousarray(built["units"]), np.ascontiguousarray(built["seats"])
        self.mission, self.mission_cards = built["mission"], built["mission_cards"]
        self.owner_bits, self.armies_bits = self.owner.data, self.armies.data
        self.units_bits, self.seats_bits = _flat(self.units), _flat(self.seats)
        self.headquarters_game = view.goal.kind is GoalKind.HEADQUARTERS
        self.ally_game = view.active_neutrals
        self.mission_card_game = view.goal.kind is GoalKind.MISSION_CARDS
        self.team_game = view.units is not None  # teammates share territories: Team RISK
        self.seen_owner = list(view.owner)
        self.seen_armies = list(view.armies)
        units = view.units
        self.seen_units = [] if units is None else [list(row) for row in units]
        self.seen_count = list(view.territory_count)
        alive, setup, sizes, hand, discard, mission = _seat_facts(view)
        self.seen_facts = (list(alive), list(setup), sizes, hand, list(discard), mission)
        self.seen_capitals = (view.capitals, view.phase == Phase.CHOOSE_CAPITAL)
        self.seen_ally = list(view.ally)
        # The game row and the values it was last written from (none yet: written at the first observe).
        self.game = built["game"]
        self.game_bits = _flat(self.game)
        self.seen_game: tuple[int, ...] = ()
        # The battle row and what its parts show (see Observer._kept_battle).
        self.battle = built["battle"]
        self.battle_bits = _flat(self.battle)
        phase, self.seen_attack, _, self.seen_roll, self.seen_last = _battle_facts(view)
        self.attack_shown, self.occupation_shown = phase is _DEFEND, phase is _OCCUPY

    def set_column(self, column: int, by_seat: Sequence[int]) -> None:
        """Write one column of ``seats`` from a fact listed by absolute seat (rotated to relative)."""
        me, bits, width = self.me, self.seats_bits, len(SEAT_FIELDS)
        for r, value in enumerate([*by_seat[me:], *by_seat[:me]]):
            bits[r * width + column] = value


def _flat(array: Array) -> memoryview:
    """A writable flat memoryview of a C-contiguous int32 array."""
    return array.data.cast("B").cast("i")
