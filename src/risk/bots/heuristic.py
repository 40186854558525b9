"""Heuristic bots: rule-based players that use the exact battle odds to decide when to attack and stop.

One engine, :class:`HeuristicBot`, parameterised by a :class:`Style`; the ladder has two styles:

* ``continental``: picks the continent it can take most cheaply, masses its armies on the way in,
  takes it and then holds its borders;
* ``fortress``: keeps every border at least as strong as the enemy stacks next to it, attacks only
  at long odds, but always tries to take one territory a turn for the card.

Both read the game through the view (:class:`risk.view.View`: live, read-only sequences, no copies),
so only public facts and their own hand: the board, army counts, card counts, the face-up discard pile.

Phases they do not know (rulebook variants added later) are played by :func:`fallback_action`, a
safe choice among the legal actions, so the bots play any game the engine offers.

In Secret Mission, Capital and Mission RISK they also play for the game's goal: :mod:`risk.bots.aims`
reads it from the view for each decision (extra conquest values, target continents, territories to
guard, the game's own decisions), and the scores here add it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from mypy_extensions import mypyc_attr

from risk.bots import expert_dice, neutrals, teams
from risk.bots.aims import FINISHING_ODDS, Aim, aim_for, aim_placement, special_action
from risk.bots.base import (
    ADJUST_DICE,
    ATTACK,
    CLAIM,
    DEFEND,
    ELIMINATION_TRADE,
    FORTIFY,
    OCCUPY,
    REINFORCE,
    SETUP_PLACE,
    Bot,
)
from risk.bots.battle_odds import win_probability
from risk.rules.actions import (
    END_ATTACK,
    END_TURN,
    Action,
    Attack,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    Trade,
)
from risk.rules.game import Phase
from risk.rules.pickling import picklable
from risk.view import View

if TYPE_CHECKING:
    from risk.maps import Board


def fallback_action(view: View, rng: random.Random) -> Action:
    """A safe legal action for a phase a bot does not know: end the phase if it can, else pick one."""
    actions = view.legal_actions()
    if not actions:
        raise ValueError(f"{view.players[view.player]} has no legal action (phase {view.phase.name})")
    for action in actions:
        if isinstance(action, EndAttack | EndTurn):
            return action
    # Prefer placing everything at once over one-army steps; otherwise any action.
    places = [a for a in actions if isinstance(a, Place)]
    if places:
        return max(places, key=lambda a: (a.armies, -a.territory))
    return actions[int(rng.random() * len(actions))]


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs that make a heuristic bot's character."""

    # Least win probability to start an invasion of a territory of the target continent / elsewhere.
    attack_odds_target: float
    attack_odds_other: float
    # Least win probability for the one conquest a turn that earns a card.
    card_odds: float
    # Share of the reinforcements spent on threatened borders before the attack front.
    defence_share: float
    # Armies a border should keep, as a multiple of the largest enemy stack next to it.
    border_ratio: float
    # Weight of the target continent when scoring attacks.
    continent_focus: float


picklable(Style)  # a bot is copied with its style (RiskEnv.clone), also compiled


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class HeuristicBot(Bot):
    """Rule-based play tuned by a :class:`Style`. Subclasses set ``name``, ``description`` and ``style``."""

    style: Style = Style(0.6, 0.75, 0.5, 0.3, 1.0, 2.0)
    # The goal of the game being played, beyond world domination (Secret Mission, Capital and
    # Mission RISK; see risk.bots.aims), read afresh for each decision.
    aim: Aim | None = None

    def choose(self, view: View) -> Action:
        self.aim = aim_for(view)
        action = self.decide(view)
        # Rule variants (neutral placements, teammates, ...) can refuse a world-domination idea.
        if not view.is_legal(action):
            return self.variant_action(view)
        return action

    def variant_action(self, view: View) -> Action:
        """A legal action where the world-domination plan does not fit: placing a neutral's army
        next to as many opponents as possible, otherwise :func:`fallback_action`."""
        me = view.player
        actions = view.legal_actions()
        places = [a for a in actions if isinstance(a, Place) and view.owner[a.territory] != me]
        if view.phase == SETUP_PLACE and places:
            owner, neighbours = view.owner, view.board.neighbours

            def blocking(place: Place) -> tuple[int, int]:
                holder = owner[place.territory]
                rivals = sum(1 for n in neighbours[place.territory] if owner[n] not in (me, holder))
                return rivals, -place.territory

            return max(places, key=blocking)
        return fallback_action(view, self.rng)

    def decide(self, view: View) -> Action:
        """The world-domination choice for this phase (checked for legality by :meth:`choose`)."""
        me = view.player
        phase = view.phase
        # The games beyond world domination: their own decisions first (None: the plan decides).
        special = special_action(view, self.aim)
        if special is None:
            special = self.variant_decision(view, me, phase)
        if special is not None:
            return special
        if phase == ATTACK:
            return self.attack(view, me)
        if phase == DEFEND:
            attack = view.pending_attack
            assert attack is not None
            return Defend(min(2, view.armies[attack[1]]))
        if phase == OCCUPY:
            return self.occupy(view, me)
        if phase in (REINFORCE, ELIMINATION_TRADE):
            trade = self.trade(view, me)
            if trade is not None:
                return trade
            placement = None if self.aim is None else aim_placement(view, self.aim)
            return placement or self.place(view, me)
        if phase == FORTIFY:
            return self.fortify(view, me)
        if phase == SETUP_PLACE:
            return Place(self.setup_target(view, me), 1)
        if phase == CLAIM:
            return self.claim(view, me)
        return fallback_action(view, self.rng)

    def variant_decision(self, view: View, me: int, phase: Phase) -> Action | None:
        """2-player RISK (neutrals, allies) and the expert dice: the decisions those games add in
        ``phase`` (the view's), or ``None`` where the world-domination plan decides (Team RISK adds
        none: its values do)."""
        if phase == ADJUST_DICE:
            return expert_dice.adjust(view, me)
        if neutrals.in_duel(view):
            return neutrals.duel_action(view, me)
        return None

    # -- shared assessments ----------------------------------------------------------------------
    # Each takes an optional Survey of the position; a decision makes one and passes it on, so the
    # board is read once per decision.
    @staticmethod
    def foe(view: View, me: int, territory: int) -> bool:
        """Held by an opponent: anyone else, or in Team RISK anyone of the other team."""
        if view.team is None:
            return view.owner[territory] != me
        return view.team_at(territory) != view.team[me]

    @classmethod
    def enemy_neighbours(cls, view: View, me: int, territory: int) -> list[int]:
        return [n for n in view.board.neighbours[territory] if cls.foe(view, me, n)]

    @classmethod
    def threat(cls, view: View, me: int, territory: int, survey: Survey | None = None) -> int:
        """The largest enemy stack that could attack ``territory`` (its fighting armies)."""
        armies = view.armies
        worst = 0
        if survey is None:  # a few neighbours: cheaper than surveying the board
            if neutrals.in_duel(view):
                survey = Survey(view, me)
            else:
                for n in view.board.neighbours[territory]:
                    if armies[n] - 1 > worst and cls.foe(view, me, n):
                        worst = armies[n] - 1
                return worst
        foe = survey.danger
        for n in view.board.neighbours[territory]:
            if armies[n] - 1 > worst and foe[n]:
                worst = armies[n] - 1
        return worst

    def survey(self, view: View, me: int) -> Survey:
        """A survey of the position, with the continents this game's goal weighs more."""
        return Survey(view, me, None if self.aim is None else self.aim.continent_weight)

    def target_continent(self, view: View, me: int, survey: Survey | None = None) -> int:
        """The continent that is cheapest to complete for its bonus (held ones score for keeping)."""
        return (survey or self.survey(view, me)).target_continent()

    def conquest_value(
        self, view: View, me: int, target: int, focus: int, survey: Survey | None = None
    ) -> float:
        """How much taking ``target`` is worth to ``me``: the territory, continents made or broken,
        a card for the first conquest, a player eliminated (and their cards). It depends only on the
        target's continent and holder."""
        survey = survey or self.survey(view, me)
        board, owner = view.board, survey.owner
        value = 1.0
        continent = board.continent_of[target]
        members = board.continents[continent].territories
        defender = owner[target]
        missing = len(members) - survey.mine_in[continent]
        if missing == 1:
            value += 2.0 * board.continents[continent].bonus
        elif continent == focus:
            value += self.style.continent_focus
        # 2-player RISK: a neutral has no bonus to break and its end wins nothing.
        rival = not view.neutral[defender]
        if rival and survey.held_by(continent, defender):
            value += 1.5 * board.continents[continent].bonus  # breaks the defender's bonus
        if not view.conquered_this_turn:
            value += 3.0  # the card
        if rival and view.team is None and view.territory_count[defender] == 1:
            aim = self.aim
            if aim is not None and aim.elimination_value is not None and defender != aim.destroy:
                value += aim.elimination_value  # it may complete someone else's mission
            else:
                value += 5.0 + 3.0 * view.hand_size(defender)
        if survey.duel:
            value += neutrals.value_change(view, me, target, survey.danger)
        return value

    def holder_value(self, view: View, me: int, target: int, focus: int, survey: Survey) -> float:
        """:meth:`conquest_value`, worked out once per continent and holder in a survey."""
        key = (view.board.continent_of[target], survey.owner[target], focus)
        value = survey.values.get(key)
        if value is None:
            value = survey.values[key] = self.conquest_value(view, me, target, focus, survey)
        # The goal's value of the territory itself (a mission's continent, a headquarters).
        if survey.team_values is not None:
            value += survey.team_values[target]
        return value if self.aim is None else value + self.aim.value[target]

    # -- the turn ------------------------------------------------------------------------------
    def trade(self, view: View, me: int) -> Trade | None:
        phase = view.phase
        may_trade = (phase == REINFORCE and not view.placed_this_turn) or (
            phase == ELIMINATION_TRADE and view.hand_size(me) > 4
        )
        if not may_trade:
            return None
        options = view.trade_options()
        if not options:
            return None
        # Best: a set whose bonus territory (listed first) is held and on a border.
        owner = view.owner
        size = len(view.board)

        def bonus_rank(trade: Trade) -> int:
            first = trade.cards[0]
            if first < size and owner[first] == me:
                return 2 if self.enemy_neighbours(view, me, first) else 1
            return 0

        return max(options, key=bonus_rank)

    def place(self, view: View, me: int) -> Place:
        pending = view.pending
        survey = self.survey(view, me)
        # First the weakest held-continent border, up to the defence share.
        weakest, deficit = self.weakest_border(view, me, survey)
        defence_budget = max(1, round(pending * self.style.defence_share)) if deficit > 0 else 0
        if self.aim is not None and weakest in self.aim.keep:
            defence_budget = deficit  # a headquarters (or a mission's stack) comes first
        if weakest >= 0 and defence_budget > 0 and pending > 1:
            return Place(weakest, min(pending, defence_budget, deficit))
        source = self.attack_source(view, me, survey.target_continent(), survey)
        return Place(source, pending)

    def weakest_border(self, view: View, me: int, survey: Survey | None = None) -> tuple[int, int]:
        """The border territory short of the most armies against its threat (continent borders count
        double), and that shortfall; (-1, 0) when every border is safe."""
        survey = survey or self.survey(view, me)
        owner, armies, board = survey.owner, survey.armies, view.board
        neighbours, continent_of = board.neighbours, board.continent_of
        held = survey.held_continents()
        ratio = self.style.border_ratio
        keep, guard = ({}, {}) if self.aim is None else (self.aim.keep, self.aim.guard_weight)
        best, best_deficit = -1, 0
        danger = survey.danger
        for t in range(len(owner)):
            if owner[t] != me:
                continue
            threat = 0
            for n in neighbours[t]:
                if armies[n] - 1 > threat and danger[n]:
                    threat = armies[n] - 1
            # What the game's goal keeps here (a headquarters), threatened or not.
            short = keep.get(t, 0) - armies[t] if keep else 0
            if threat == 0 and short <= 0:
                continue
            weight = 2.0 if continent_of[t] in held else 1.0
            if guard:
                weight = max(weight, guard.get(t, 0.0))
            deficit = max(round(weight * (ratio * threat + 1) - armies[t]) if threat else 0, short)
            if deficit > best_deficit:
                best, best_deficit = t, deficit
        return best, best_deficit

    def attack_source(self, view: View, me: int, focus: int, survey: Survey | None = None) -> int:
        """Where new armies make the best attack: next to the most valuable, weakest enemy territory."""
        survey = survey or self.survey(view, me)
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        foe = survey.foe
        values: list[float | None] = [None] * len(owner)  # by target
        best, best_score = -1, -1e9
        fallback = -1
        for s in range(len(owner)):
            if owner[s] != me:
                continue
            fallback = s
            stack = armies[s] + 1.0
            for t in neighbours[s]:
                if not foe[t]:
                    continue
                value = values[t]
                if value is None:
                    value = values[t] = self.holder_value(view, me, t, focus, survey)
                score = value * stack / (armies[t] + 1.0)
                if score > best_score:
                    best, best_score = s, score
        return best if best >= 0 else fallback

    def attack_options(self, view: View, me: int) -> list[tuple[float, float, Attack]]:
        """Every (score, win probability, attack with the most dice) open now, best first."""
        options = self.scored_attacks(view, me, self.survey(view, me))
        options.sort(key=_score, reverse=True)
        return [(score, p, Attack(source, target, dice)) for score, p, source, target, dice in options]

    def scored_attacks(
        self, view: View, me: int, survey: Survey, least_odds: float = 0.0
    ) -> list[tuple[float, float, int, int, int]]:
        """:meth:`attack_options` as plain (score, win probability, source, target, dice), unsorted;
        only those whose win probability is at least ``least_odds``."""
        owner, armies, neighbours = survey.owner, survey.armies, view.board.neighbours
        focus = -1  # the target continent, worked out when a first attack is worth scoring
        foe, units = survey.foe, view.units
        values: list[float | None] = [None] * len(owner)  # by target
        options: list[tuple[float, float, int, int, int]] = []
        append = options.append
        keep = {} if self.aim is None else self.aim.keep
        for s in range(len(owner)):
            if owner[s] != me or armies[s] < 2:
                continue
            # Team RISK: only this player's own armies there fight.
            fighting = (armies[s] if units is None else units[s][me]) - 1
            if keep and s in keep:
                fighting = min(fighting, armies[s] - keep[s])  # a headquarters keeps its guard
            if fighting < 1:
                continue
            exposure = -1.0  # worked out for the first target worth scoring
            dice = min(3, fighting)
            for t in neighbours[s]:
                if not foe[t]:
                    continue
                p = win_probability(fighting, armies[t])
                if p < least_odds:
                    continue
                if exposure < 0:
                    # An attack out of a territory that borders other enemies leaves it exposed.
                    exposure = 0.3 * (sum(map(survey.danger.__getitem__, neighbours[s])) - 1)
                value = values[t]
                if value is None:
                    if focus < 0:
                        focus = survey.target_continent()
                    value = values[t] = self.holder_value(view, me, t, focus, survey)
                append((p * value - (1 - p) * (1.0 + exposure), p, s, t, dice))
        return options

    def attack(self, view: View, me: int) -> Action:
        survey = self.survey(view, me)
        continent_of = view.board.continent_of
        style = self.style
        odds_target, odds_other = style.attack_odds_target, style.attack_odds_other
        if not view.conquered_this_turn:
            odds_target, odds_other = min(odds_target, style.card_odds), min(odds_other, style.card_odds)
        aim = self.aim
        # The goal within reach this turn: the territories it needs are worth lower odds.
        finishing = aim is not None and aim.finishing
        least = min(odds_target, odds_other, FINISHING_ODDS) if finishing else min(odds_target, odds_other)
        team_values = survey.team_values
        if team_values is not None:  # Team RISK: the opposing players' last units at lower odds
            least = min(least, teams.FOCUS_ODDS)
        # The attacks worth making at good enough odds, best first (ties in the order found).
        options = self.scored_attacks(view, me, survey, least)
        if not options:
            return END_ATTACK
        focus = survey.target_continent()

        def odds_needed(target: int) -> float:
            if finishing and aim is not None and (aim.value[target] > 0 or aim.conquests):
                return FINISHING_ODDS
            if team_values is not None and team_values[target] >= teams.FOCUS_FLOOR:
                return teams.FOCUS_ODDS
            return odds_target if continent_of[target] == focus else odds_other

        good = [option for option in options if option[0] > 0 and option[1] >= odds_needed(option[3])]
        good.sort(key=_score, reverse=True)
        for _, _, source, target, dice in good:
            action: Action = Attack(source, target, dice)
            if survey.duel:
                action = neutrals.call_off_first(view, action)
            # Variants can forbid some targets (teammates in Team RISK).
            if view.is_legal(action):
                return action
        if survey.duel:  # active neutrals: our allies' armies attack too
            allied = neutrals.ally_attack(view, me)
            if allied is not None:
                return neutrals.call_off_first(view, allied)
        return END_ATTACK

    def occupy(self, view: View, me: int) -> Occupy:
        low, high = view.occupy_range()
        if view.units is not None:  # Team RISK: a count that leaves no territory tied
            occupation = view.pending_occupation
            assert occupation is not None
            source, target, _ = occupation
            moved = self.occupy_count(view, me, low, high)
            return Occupy(low + teams.untied(view, me, source, target, moved - low, 0, high - low))
        return Occupy(self.occupy_count(view, me, low, high))

    def occupy_count(self, view: View, me: int, low: int, high: int) -> int:
        """The armies to move in after a conquest, between ``low`` and ``high``."""
        occupation = view.pending_occupation
        assert occupation is not None
        source, target, _ = occupation
        if self.aim is not None:
            moved = self.aim_occupation(view, source, target, low, high)
            if moved is not None:
                return moved
        source_threat = self.threat(view, me, source)
        if source_threat == 0:
            return high
        target_threat = self.threat(view, me, target)
        if target_threat == 0:
            return low
        # Keep enough behind to hold the source; push the rest forward.
        keep = round(self.style.border_ratio * source_threat * 0.5)
        return max(low, min(high, high - keep))

    def aim_occupation(self, view: View, source: int, target: int, low: int, high: int) -> int | None:
        """The armies to move in where the game's goal decides: a headquarters or a mission's stack
        keeps its guard, a conquered headquarters gets all the rest, "2 armies in each" leaves two."""
        aim = self.aim
        assert aim is not None
        keep = aim.keep.get(source, 0)
        most = max(low, min(high, high - (keep - 1))) if keep else high
        if target in aim.capitals_to_take:
            return most
        if keep:
            return min(most, max(low, (low + most) // 2))
        if aim.strongholds and max(low, 2) <= high - 1:
            return max(low, 2, min(high - 1, (low + high) // 2))  # two armies on both sides
        return None

    def fortify(self, view: View, me: int) -> Action:
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        survey = self.survey(view, me)
        foe = survey.foe
        keep = {} if self.aim is None else self.aim.keep
        best_source, best_armies = -1, 1
        for t in range(len(owner)):
            spare = armies[t] - keep[t] + 1 if t in keep else armies[t]  # a headquarters keeps its guard
            if owner[t] == me and spare > best_armies and not any(foe[n] for n in neighbours[t]):
                best_source, best_armies = t, spare
        if best_source < 0:
            return END_TURN
        targets = [t for t in view.fortify_targets(best_source) if any(foe[n] for n in neighbours[t])]
        if not targets:
            return END_TURN
        target = max(targets, key=lambda t: (self.threat(view, me, t, survey) - armies[t], -t))
        moved = min(view.force(best_source, me), best_armies - 1)
        # Team RISK: a count that leaves neither territory tied.
        return Fortify(best_source, target, teams.untied(view, me, best_source, target, moved, 1, moved))

    # -- setup -----------------------------------------------------------------------------------
    def claim(self, view: View, me: int) -> Claim:
        owner, board = view.owner, view.board
        index = _board_index(board)
        # Each continent's share: small continents fill up first; friends nearby help.
        shares = []
        for continent, held in zip(board.continents, index.members, strict=True):
            owners = held(owner)
            mine, size = owners.count(me), len(owners)
            theirs = size - mine - owners.count(-1)
            shares.append((mine + 1.0) / size - 0.8 * theirs / size + continent.bonus / 20.0)
        continent_of = board.continent_of
        best, best_score = -1, -1e9
        for t in range(len(owner)):
            if owner[t] != -1:
                continue
            score = shares[continent_of[t]]
            score += 0.1 * index.near[t](owner).count(me)
            score += 0.02 * self.rng.random()
            if score > best_score:
                best, best_score = t, score
        return Claim(best)

    def setup_target(self, view: View, me: int) -> int:
        survey = self.survey(view, me)
        weakest, deficit = self.weakest_border(view, me, survey)
        if weakest >= 0 and deficit > 0 and self.rng.random() < self.style.defence_share:
            return weakest
        return self.attack_source(view, me, survey.target_continent(), survey)


def _score(option: tuple[float, float, int, int, int]) -> float:
    return option[0]


class Survey:
    """What a heuristic bot reads of the board for one decision, read once: which territories are
    held by foes, each continent's territories held by the bot and the enemy armies in it, the
    target continent. Valid only while the position does not change."""

    __slots__ = (
        "_focus",
        "_holders",
        "_index",
        "_mine_in",
        "armies",
        "danger",
        "duel",
        "foe",
        "me",
        "owner",
        "team_values",
        "values",
        "view",
        "weights",
    )

    def __init__(self, view: View, me: int, weights: list[float] | None = None) -> None:
        self.view, self.me = view, me
        self.weights = weights  # per continent: how much more a goal makes it worth aiming at
        # The position, read once (the live sequences: valid while the position does not change).
        owner = self.owner = view.owner
        self.armies = view.armies
        if view.team is None:
            self.foe = [seat != me for seat in owner]
        else:
            my_team = view.team[me]
            self.foe = [view.team_at(t) != my_team for t in range(len(owner))]
        # Who can attack us: every foe, except in 2-player RISK the neutrals that never attack.
        self.duel = neutrals.in_duel(view)
        self.danger = neutrals.hostile(view, me) if self.duel else self.foe
        # Team RISK: the game ends with the first player out; what each conquest adds for that.
        self.team_values = None if view.team is None else teams.focus_values(view, me)
        self._index = _board_index(view.board)
        self._focus: int | None = None
        self._mine_in: list[int] | None = None
        self._holders: dict[int, int | None] = {}  # continent: the seat holding all of it, or None
        self.values: dict[tuple[int, int, int], float] = {}  # conquest values (HeuristicBot.holder_value)

    @property
    def mine_in(self) -> list[int]:
        """How many territories of each continent the bot holds."""
        if self._mine_in is None:
            owner, me = self.owner, self.me
            self._mine_in = [held(owner).count(me) for held in self._index.members]
        return self._mine_in

    def held_by(self, continent: int, seat: int) -> bool:
        """Whether ``seat`` holds every territory of ``continent``."""
        if continent not in self._holders:
            owners = self._index.members[continent](self.owner)
            first = owners[0]
            self._holders[continent] = first if owners.count(first) == len(owners) else None
        return self._holders[continent] == seat

    def held_continents(self) -> set[int]:
        continents = self.view.board.continents
        return {c for c, mine in enumerate(self.mine_in) if mine == len(continents[c].territories)}

    def target_continent(self) -> int:
        """The continent that is cheapest to complete for its bonus (held ones score for keeping)."""
        if self._focus is not None:
            return self._focus
        view, me = self.view, self.me
        owner, armies, continent_of = self.owner, self.armies, view.board.continent_of
        index = self._index
        # The bot's territories and the enemy armies in each continent, in one pass.
        mine_in = [0] * len(index.members)
        enemy_armies = [0] * len(index.members)
        for t, seat in enumerate(owner):
            if seat == me:
                mine_in[continent_of[t]] += 1
            else:
                enemy_armies[continent_of[t]] += armies[t]
        self._mine_in = mine_in
        best, best_score = -1, -1.0
        for continent in view.board.continents:
            c = continent.index
            members = continent.territories
            mine = mine_in[c]
            # Only continents we stand in or border are reachable.
            if mine == 0 and me not in index.reach[c](owner):
                continue
            score = (continent.bonus + 1.0) * (1.0 + mine / len(members)) / (1.0 + enemy_armies[c])
            if self.weights is not None:
                score *= self.weights[c]
            if mine == len(members):
                score = 0.0  # already held: defended by the border logic, not a target
            if score > best_score:
                best, best_score = c, score
        self._focus = best
        return best


class _BoardIndex(NamedTuple):
    """Per continent, functions that read a per-territory list (owners, armies) at its territories,
    and at the territories next to it (its own included), as tuples; per territory, at its neighbours."""

    members: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]
    reach: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]
    near: tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]  # per territory: at its neighbours


def _reader(indices: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function that reads ``values`` at ``indices``, as a tuple (an item getter where it can)."""
    if not indices:
        return lambda values: ()
    if len(indices) == 1:
        only = indices[0]
        return lambda values: (values[only],)
    return itemgetter(*indices)


@cache
def _board_index(board: Board) -> _BoardIndex:
    return _BoardIndex(
        members=tuple(_reader(continent.territories) for continent in board.continents),
        reach=tuple(
            _reader(sorted({n for t in continent.territories for n in board.neighbours[t]}))
            for continent in board.continents
        ),
        near=tuple(_reader(board.neighbours[t]) for t in range(len(board))),
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class ContinentalBot(HeuristicBot):
    name = "continental"
    description = (
        "continent-focused: masses armies on the cheapest continent to take, attacks at good exact odds"
    )
    style = Style(
        attack_odds_target=0.55,
        attack_odds_other=0.8,
        card_odds=0.6,
        defence_share=0.3,
        border_ratio=0.8,
        continent_focus=3.0,
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class FortressBot(HeuristicBot):
    name = "fortress"
    description = "border-defending: keeps its borders as strong as the threats, attacks only at long odds"
    style = Style(
        attack_odds_target=0.75,
        attack_odds_other=0.85,
        card_odds=0.65,
        defence_share=0.7,
        border_ratio=1.2,
        continent_focus=1.5,
    )
