"""The environments' one fixed action space and its mapping onto the engine's actions, both ways.

An action index names one action in blocks (their order and sizes are :attr:`ActionCodec.blocks`;
``T`` territories, ``E`` directed links of the board, ``C`` cards, ``N`` neutral seats, ``H`` hand
slots, ``R`` Mission RISK cards, ``K = len(COUNT_CHOICES)``):

=============  ==========  ==============================================================
block          size        index within the block
=============  ==========  ==============================================================
claim          T           territory
capital        T           territory (Capital RISK headquarters)
place          T * K       territory * K + count choice (reinforcements, an ally's armies)
trade          C(H,3) * 3  hand-slot triple * 3 + which of the three is listed first
attack         E * 3       link * 3 + dice - 1
defend         3           dice - 1
occupy         K           count choice (armies moved into the conquered territory)
endattack      1
fortify        M * K       move * K + count choice; the moves: with ``fortify=adjacent`` (1993)
                           or in the compact space (``actions="compact"``) the E links
                           (``M = E``; a move along a chain is then not in the space), else
                           every ordered pair of two territories (``M = T * (T - 1)``),
                           source by source
endturn        1
mission        R           Mission RISK card, in the order of the board's cards
                           (:attr:`ActionCodec.mission_keys`: ``risk.rules.missions.ranked_missions``;
                           on the classic board :data:`MISSION_KEYS`, 27 cards)
reroll         6           side * 3 + die - 1 (side 0 attacker, 1 defender; 1993 experts)
commander      3           die - 1 (1993 experts)
accept         1           let the dice stand (1993 experts)
bribe          N * C       (neutral - 1) * C + card (2003 active neutrals)
reinforce      N           neutral - 1 (2003 active neutrals)
calloff        1           (2003 active neutrals)
=============  ==========  ==============================================================

Counts. Where the rules force a count (a setup placement is one army, a move-in whose fewest and
most are equal), the one legal count is choice 0. Otherwise the legal counts form a range
``low..high`` and the agent picks one of :data:`COUNT_CHOICES`: ``min`` (``low``), ``half``
(``ceil(high / 2)``, at least ``low``), ``all-but-one`` (``high - 1``, at least ``low``) and
``all`` (``high``). Choices that land on the same count are merged: only the first of them is
legal, so every legal index names a different action and every action it names is legal.

Trades. The hand is sorted by card number; slot ``i`` is the ``i``-th card. A trade names three
slots ``i < j < k`` (their triples in :func:`itertools.combinations` order) and which of the three
cards is listed first: the card whose territory gets the +2 bonus where the rules give one. A hand
larger than ``H`` slots (``max_hand``, 12 by default) cannot name trades of its later cards; it
always has a set among its first five, so a forced trade is always possible.

Resigning is not in the space (no bot resigns; the engine never lists it among the legal actions).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from risk.errors import IllegalActionError
from risk.maps import Board
from risk.rules.actions import (
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
    Trade,
)
from risk.rules.game import Phase
from risk.rules.hooks import Hooks
from risk.rules.missions import RANKED_MISSIONS, ranked_missions
from risk.rules.options import Rules
from risk.rules.variants import hooks_for
from risk.view import View

COUNT_CHOICES: Final = ("min", "half", "all-but-one", "all")
MAX_DICE = 3
DEFAULT_MAX_HAND = 12
SIDES: Final = ("attacker", "defender")
MISSION_KEYS: Final = tuple(m.key for m in RANKED_MISSIONS)  # the classic board's; any board: mission_keys
_REINFORCE, _ELIMINATION_TRADE = Phase.REINFORCE, Phase.ELIMINATION_TRADE


def choice_counts(low: int, high: int) -> list[int]:
    """The count each of :data:`COUNT_CHOICES` stands for in the range ``low..high``."""
    return [low, max(low, (high + 1) // 2), max(low, high - 1), high]


@dataclass(frozen=True, slots=True)
class Block:
    name: str
    start: int
    size: int


@dataclass(slots=True)
class LegalMap:
    """The legal actions of one position in the fixed space. ``plain`` maps the indices whose engine
    actions were at hand (from the engine's list) to them; ``made`` maps every other legal index to
    the count it stands for (0 where it has none): its action is made from the index when asked for
    (:meth:`ActionCodec.make`), as most are never chosen."""

    plain: dict[int, Action]
    made: dict[int, int]
    codec: ActionCodec

    def indices(self) -> list[int]:
        """The legal indices (not in order)."""
        return [*self.plain, *self.made]

    def get(self, index: int) -> Action | None:
        """The engine's action for ``index``, or ``None`` when the index is not legal now."""
        action = self.plain.get(index)
        if action is not None:
            return action
        count = self.made.get(index)
        return None if count is None else self.codec.make(index, count)

    @property
    def actions(self) -> dict[int, Action]:
        """Every legal index and its action, in index order."""
        every = dict(self.plain)
        every.update((index, self.codec.make(index, count)) for index, count in self.made.items())
        return dict(sorted(every.items()))

    def __len__(self) -> int:
        return len(self.plain) + len(self.made)


class ActionCodec:
    """The fixed :class:`~gymnasium.spaces.Discrete` action space of one board and number of neutral
    seats, and its documented mapping to the engine's actions (see the module's text).

    :meth:`legal` maps a position's legal actions into the space; :meth:`decode` and :meth:`encode`
    go one way and the other; :meth:`describe` says what an index means on any position.
    """

    def __init__(
        self, board: Board, neutrals: int, max_hand: int = DEFAULT_MAX_HAND, adjacent_fortify: bool = False
    ) -> None:
        if max_hand < 5:
            raise ValueError(f"max_hand must be at least 5 (five cards always hold a set), not {max_hand}")
        self.board = board
        self.territories = t = len(board)
        self.cards = board.card_count
        self.neutrals = neutrals
        self.max_hand = max_hand
        # The board's own Mission RISK cards (made from it on a board other than the classic one).
        self.mission_keys: tuple[str, ...] = tuple(m.key for m in ranked_missions(board))
        self._mission_index = {key: i for i, key in enumerate(self.mission_keys)}
        self.edges: tuple[tuple[int, int], ...] = tuple((s, d) for s in range(t) for d in board.neighbours[s])
        self.edge_of: dict[tuple[int, int], int] = {edge: i for i, edge in enumerate(self.edges)}
        # attack_of[source][target] + dice: an attack's offset in its block (a table: no tuple to hash).
        self.attack_of: list[list[int]] = [[0] * t for _ in range(t)]
        for i, (a, b) in enumerate(self.edges):
            self.attack_of[a][b] = i * MAX_DICE - 1
        # The free moves the space names: along a link, or between any two territories (a chain).
        self.moves: tuple[tuple[int, int], ...] = (
            self.edges if adjacent_fortify else tuple((a, b) for a in range(t) for b in range(t) if a != b)
        )
        self.move_of: list[list[int]] = [[-1] * t for _ in range(t)]
        for i, (a, b) in enumerate(self.moves):
            self.move_of[a][b] = i
        self.triples: tuple[tuple[int, int, int], ...] = tuple(combinations(range(max_hand), 3))
        self.triple_of = {triple: i for i, triple in enumerate(self.triples)}
        k = len(COUNT_CHOICES)
        sizes = (
            ("claim", t),
            ("capital", t),
            ("place", t * k),
            ("trade", len(self.triples) * 3),
            ("attack", len(self.edges) * MAX_DICE),
            ("defend", MAX_DICE),
            ("occupy", k),
            ("endattack", 1),
            ("fortify", len(self.moves) * k),
            ("endturn", 1),
            ("mission", len(self.mission_keys)),
            ("reroll", len(SIDES) * MAX_DICE),
            ("commander", MAX_DICE),
            ("accept", 1),
            ("bribe", neutrals * self.cards),
            ("reinforce", neutrals),
            ("calloff", 1),
        )
        blocks: dict[str, Block] = {}
        start = 0
        for name, size in sizes:
            blocks[name] = Block(name, start, size)
            start += size
        self.blocks: Final = blocks
        self.size: Final = start
        self._start = {name: block.start for name, block in blocks.items()}
        self._block_list = list(blocks.values())
        self._block_starts = [block.start for block in self._block_list]
        self._range = range(t)
        # The phases read from the View (see legal()), for the rules last seen.
        self._rules_seen: Rules | None = None
        self._plain_phases: dict[Phase, Callable[[View], LegalMap]] = {}

    # -- the legal actions of a position ---------------------------------------------------------
    def legal(self, view: View) -> LegalMap:
        """The legal actions of ``view``'s player now (none when another is to act), by index.

        The phases whose actions the engine lists with its core generator, unchanged by the game's
        variants (the claims; the setup placements; the reinforcements and trades, the attacks and
        the free moves of a game without a variant's rule for them; the defender's dice; the move-in),
        are read from the View by the same rules, straight to indices, with no action made (the engine
        makes one object per action, and one per count of every placement and move); any other phase,
        and any game whose variants change those, maps the engine's own list."""
        if view.player != view.to_act:
            return LegalMap({}, {}, self)
        rules = view.rules
        if rules is not self._rules_seen:
            self._rules_seen, self._plain_phases = rules, self._phases_read(hooks_for(rules))
        fast = self._plain_phases.get(view.phase)
        if fast is not None:
            return fast(view)
        return self._listed(view)

    def _phases_read(self, hooks: Hooks) -> dict[Phase, Callable[[View], LegalMap]]:
        """The phases whose legal actions :meth:`legal` reads from the View in a game with ``hooks``:
        those whose engine generator is the core's, unchanged by the game's variants."""
        room = hooks.room is not None
        phases: dict[Phase, Callable[[View], LegalMap]] = {
            Phase.CLAIM: self._claims,
            Phase.SETUP_PLACE: self._setup_places_with_room if room else self._setup_places,
            Phase.DEFEND: self._defences,
            Phase.OCCUPY: self._occupations,
        }
        if not hooks.start_actions and not room and hooks.may_reinforce is None:
            phases[Phase.REINFORCE] = phases[Phase.ELIMINATION_TRADE] = self._reinforcements
        if hooks.attack_actions is None and not hooks.attack_extras and not hooks.closing_actions:
            phases[Phase.ATTACK] = self._attacks
        if hooks.fortify_actions is None and not room:
            phases[Phase.FORTIFY] = self._fortifications
        return phases

    def _listed(self, view: View) -> LegalMap:
        """The engine's list of legal actions mapped one by one."""
        start = self._start
        k = len(COUNT_CHOICES)
        actions: dict[int, Action] = {}
        # Counted actions come in runs of one head (a fortify's pair, a place's territory) with the
        # counts going up: a run is kept as head -> [low, high]; its counts follow.
        ranges: dict[int, list[int]] = {}
        run: list[int] = [-1, 0, 0]
        hand: list[int] | None = None
        start_fortify, start_place, start_occupy = start["fortify"], start["place"], start["occupy"]
        start_claim, start_defend = start["claim"], start["defend"] - 1
        move_of = self.move_of
        start_attack, attack_of = start["attack"], self.attack_of
        # The classes by how often they come (an attack phase lists dozens of attacks, a claim phase
        # every free territory), each mapped inline: no call per action.
        for action in view.legal_actions():
            kind = type(action)
            if kind is Attack:
                index = start_attack + attack_of[action.source][action.target] + action.dice  # type: ignore[union-attr]
                actions[index] = action
                continue
            if kind is Place:
                head = start_place + action.territory * k  # type: ignore[union-attr]
            elif kind is Claim:
                actions[start_claim + action.territory] = action  # type: ignore[union-attr]
                continue
            elif kind is Defend:
                actions[start_defend + action.dice] = action  # type: ignore[union-attr]
                continue
            elif kind is Fortify:
                move = move_of[action.source][action.target]  # type: ignore[union-attr]
                if move < 0:  # a move along a chain, which a space of moves along links leaves out
                    continue
                head = start_fortify + move * k
            elif kind is Occupy:
                head = start_occupy
            elif kind is Trade:
                if hand is None:
                    hand = sorted(view.hand)
                index = self._trade_index(action, hand)  # type: ignore[arg-type]
                if index is not None:  # None: a card past the hand slots, not in the space (documented)
                    actions[index] = action
                continue
            else:
                actions[self._plain_index(action)] = action
                continue
            count: int = action.armies  # type: ignore[union-attr]
            if head == run[0]:
                if count > run[2]:
                    run[2] = count
                elif count < run[1]:
                    run[1] = count
                continue
            run = ranges.setdefault(head, [head, count, count])
            if count > run[2]:  # a head seen before (never in the engine's order, but exact anyway)
                run[2] = count
            elif count < run[1]:
                run[1] = count
        made: dict[int, int] = {}
        for head, low, high in ranges.values():
            _add_choices(made, head, low, high)
        return LegalMap(actions, made, self)

    # The phases read from the View. Each follows the engine's core generator of its phase
    # (risk.rules.setup.claims, risk.rules.reinforce.setup_places and reinforce_actions,
    # risk.rules.battle.attacks, defences and occupations, risk.rules.fortify.fortifications):
    # tests/test_env.py checks that the legal indices are the engine's list, position by position.
    def _claims(self, view: View) -> LegalMap:
        start = self._start["claim"]
        owner = view.owner
        return LegalMap({}, {start + t: 0 for t in self._range if owner[t] == -1}, self)

    def _setup_places(self, view: View) -> LegalMap:
        start, k = self._start["place"], len(COUNT_CHOICES)
        seat, owner = view.placing_for, view.owner
        return LegalMap({}, {start + t * k: 1 for t in self._range if owner[t] == seat}, self)

    def _setup_places_with_room(self, view: View) -> LegalMap:
        """Setup placements under the expert army cap: a territory with room for one more."""
        start, k = self._start["place"], len(COUNT_CHOICES)
        seat, owner, room = view.placing_for, view.owner, view.room
        made = {start + t * k: 1 for t in self._range if owner[t] == seat and room(t) >= 1}
        return LegalMap({}, made, self)

    def _reinforcements(self, view: View) -> LegalMap:
        """Reinforce and elimination-trade phases without a variant's start actions or placement rule."""
        player, phase = view.player, view.phase
        plain: dict[int, Action] = {}
        if (phase is _REINFORCE and not view.placed_this_turn) or (
            phase is _ELIMINATION_TRADE and view.hand_size(player) > 4
        ):
            hand = sorted(view.hand)
            for trade in view.trade_options():
                index = self._trade_index(trade, hand)
                if index is not None:  # None: a card past the hand slots, not in the space (documented)
                    plain[index] = trade
        made: dict[int, int] = {}
        pending = view.pending
        if pending >= 1 and not view.must_trade(player):
            start, k, owner = self._start["place"], len(COUNT_CHOICES), view.owner
            for t in self._range:
                if owner[t] == player:
                    _add_choices(made, start + t * k, 1, pending)
        return LegalMap(plain, made, self)

    def _attacks(self, view: View) -> LegalMap:
        """The attack phase of a game without a variant's attacks, extras or closing actions."""
        player, owner, armies, neighbours = view.player, view.owner, view.armies, self.board.neighbours
        start, attack_of = self._start["attack"], self.attack_of
        made = {self._start["endattack"]: 0}
        for s in self._range:
            if owner[s] == player and armies[s] >= 2:
                dice = range(1, min(3, armies[s] - 1) + 1)
                row = attack_of[s]
                for t in neighbours[s]:
                    if owner[t] != player:
                        first = start + row[t]
                        for d in dice:
                            made[first + d] = 0
        return LegalMap({}, made, self)

    def _defences(self, view: View) -> LegalMap:
        attack = view.pending_attack
        assert attack is not None
        start = self._start["defend"]
        return LegalMap({}, {start + d - 1: 0 for d in range(1, min(2, view.armies[attack[1]]) + 1)}, self)

    def _occupations(self, view: View) -> LegalMap:
        low, high = view.occupy_range()
        made: dict[int, int] = {}
        if low <= high:
            _add_choices(made, self._start["occupy"], low, high)
        return LegalMap({}, made, self)

    def _fortifications(self, view: View) -> LegalMap:
        """The fortify phase of a game whose free move has no variant's rule (no army cap, no
        allies' moves): the engine's own generator lists every count of every move, thousands; the
        same moves by their ranges."""
        k, start = len(COUNT_CHOICES), self._start["fortify"]
        me, owner, armies, move_of = view.player, view.owner, view.armies, self.move_of
        made: dict[int, int] = {self._start["endturn"]: 0}
        for source in self._range:
            if owner[source] == me and armies[source] >= 2:
                row = move_of[source]
                for target in view.fortify_targets(source):
                    move = row[target]
                    if move >= 0:  # -1: a move along a chain, left out of a space of moves along links
                        _add_choices(made, start + move * k, 1, armies[source] - 1)
        return LegalMap({}, made, self)

    def make(self, index: int, count: int = 0) -> Action:
        """The action of a claim, capital, place, attack, defend, occupy, fortify, end-attack or
        end-turn index (``count``: the armies of a place, occupy or fortify)."""
        block = self._block_list[bisect_right(self._block_starts, index) - 1]
        offset, name, k = index - block.start, block.name, len(COUNT_CHOICES)
        if name == "attack":
            source, target = self.edges[offset // MAX_DICE]
            return Attack(source, target, offset % MAX_DICE + 1)
        if name == "defend":
            return Defend(offset + 1)
        if name == "place":
            return Place(offset // k, count)
        if name == "occupy":
            return Occupy(count)
        if name == "fortify":
            source, target = self.moves[offset // k]
            return Fortify(source, target, count)
        if name == "claim":
            return Claim(offset)
        if name == "capital":
            return Capital(offset)
        if name == "endattack":
            return END_ATTACK
        if name == "endturn":
            return END_TURN
        raise ValueError(f"{self.describe(index)}: a {name} index is made from the engine's list only")

    # -- both ways -------------------------------------------------------------------------------
    def decode(self, index: int, view: View, legal: LegalMap | None = None) -> Action:
        """The engine's action for ``index`` now; :class:`~risk.errors.IllegalActionError` saying
        what the index means and that it is not legal now, when it is not."""
        if legal is None:
            legal = self.legal(view)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < self.size:
            raise IllegalActionError(f"action {index!r} is not in the action space 0..{self.size - 1}")
        action = legal.get(index)
        if action is None:
            who = view.players[view.player] if view.player >= 0 else "a spectator"
            legal_count = len(legal)
            raise IllegalActionError(
                f"action {index} ({self.describe(index)}) is not legal now for {who} "
                f"(phase {view.phase.name.lower().replace('_', '-')}; {legal_count} legal actions, "
                "see the observation's action_mask)"
            )
        return action

    def encode(self, action: Action, view: View) -> int | None:
        """The index of a legal ``action`` now, or ``None`` when the space has no index for it (a
        count that is none of the choices, a trade of a card past the hand slots)."""
        legal = self.legal(view)
        for index, candidate in legal.actions.items():
            if candidate == action:
                return index
        return None

    def describe(self, index: int) -> str:
        """What ``index`` stands for, in words (the same on every position)."""
        board, k = self.board, len(COUNT_CHOICES)
        for block in self.blocks.values():
            if block.start <= index < block.start + block.size:
                offset = index - block.start
                break
        else:
            return f"no action ({index} is outside 0..{self.size - 1})"
        name = block.name
        if name in ("claim", "capital"):
            return f"{name} {board.slug_of(offset)}"
        if name == "place":
            return f"place {board.slug_of(offset // k)} ({COUNT_CHOICES[offset % k]})"
        if name == "trade":
            triple = self.triples[offset // 3]
            return f"trade hand slots {triple[0]} {triple[1]} {triple[2]}, slot {triple[offset % 3]} first"
        if name == "attack":
            source, target = self.edges[offset // MAX_DICE]
            return f"attack {board.slug_of(source)} {board.slug_of(target)} {offset % MAX_DICE + 1}"
        if name == "defend":
            return f"defend {offset + 1}"
        if name == "occupy":
            return f"move ({COUNT_CHOICES[offset]})"
        if name == "fortify":
            move, choice = divmod(offset, k)
            source, target = self.moves[move]
            return f"fortify {board.slug_of(source)} {board.slug_of(target)} ({COUNT_CHOICES[choice]})"
        if name == "mission":
            return f"mission {self.mission_keys[offset]}"
        if name == "reroll":
            return f"reroll {SIDES[offset // MAX_DICE]} {offset % MAX_DICE + 1}"
        if name == "commander":
            return f"commander {offset + 1}"
        if name == "bribe":
            neutral, card = divmod(offset, self.cards)
            return f"bribe neutral-{neutral + 1} {board.card_name(card)}"
        if name == "reinforce":
            return f"reinforce neutral-{offset + 1}"
        return name  # endattack, endturn, accept, calloff

    # -- the index of one action that has no count choice ---------------------------------------
    def _plain_index(self, action: Action) -> int:
        start = self._start
        if isinstance(action, Attack):
            return start["attack"] + self.edge_of[(action.source, action.target)] * MAX_DICE + action.dice - 1
        if isinstance(action, Claim):
            return start["claim"] + action.territory
        if isinstance(action, EndAttack):
            return start["endattack"]
        if isinstance(action, EndTurn):
            return start["endturn"]
        if isinstance(action, Defend):
            return start["defend"] + action.dice - 1
        if isinstance(action, Capital):
            return start["capital"] + action.territory
        if isinstance(action, ClaimMission):
            return start["mission"] + self._mission_index[action.key]
        if isinstance(action, Reroll):
            return start["reroll"] + SIDES.index(action.side) * MAX_DICE + action.die - 1
        if isinstance(action, Commander):
            return start["commander"] + action.die - 1
        if isinstance(action, AcceptDice):
            return start["accept"]
        if isinstance(action, Bribe):
            return start["bribe"] + (action.neutral - 1) * self.cards + action.card
        if isinstance(action, ReinforceAlly):
            return start["reinforce"] + action.neutral - 1
        if isinstance(action, CallOff):
            return start["calloff"]
        raise IllegalActionError(f"the action space has no {type(action).__name__} actions")

    def _trade_index(self, action: Trade, hand: list[int]) -> int | None:
        slot_of = {card: slot for slot, card in enumerate(hand)}
        slots = sorted(slot_of[c] for c in action.cards)
        triple = self.triple_of.get((slots[0], slots[1], slots[2]))
        if triple is None:
            return None
        return self._start["trade"] + triple * 3 + slots.index(slot_of[action.cards[0]])


def _add_choices(made: dict[int, int], head: int, low: int, high: int) -> None:
    """The count choices of one counted action whose legal counts are ``low..high``: choice 0 alone
    where the rules force the count; else each choice whose count no earlier choice has."""
    if low == high:
        made[head] = low
        return
    # choice_counts(low, high), inline: the merged choices are the ones equal to an earlier count.
    half = max(low, (high + 1) // 2)
    most_but_one = max(low, high - 1)
    made[head] = low
    if half != low:
        made[head + 1] = half
    if most_but_one != half:  # the counts never go down: equal to an earlier one means equal to half
        made[head + 2] = most_but_one
    if high != most_but_one:
        made[head + 3] = high
