"""The warlord: a strong fast heuristic (no search) that plays like a strong player.

Built on :class:`~risk.bots.heuristic.HeuristicBot`'s reading of the board (the survey, the exact odds,
the game-aware parts: :mod:`risk.bots.aims`, :mod:`risk.bots.neutrals`, :mod:`risk.bots.teams`, the
expert dice), with its own policy:

* **Claims** in small continents first (size, not bonus), next to its own territories.
* **The blitz** (3 players or fewer alive, no goal but the world): every reinforcement on the stack
  that expects the longest run through the opponents (expected conquests of a path, by
  :func:`risk.odds.chain`), attacks on at good odds, everything moved in after each conquest.
* **Eliminations planned whole.** For every opponent with few territories left, a plan of chains of
  attacks that reaches all of them (each chain one stack conquering a path of the victim's
  territories, its odds from :func:`risk.odds.chain`); the plan's odds are the product of its chains'.
  The bot goes for it when those odds hold for what the victim's cards are worth, re-plans after
  every roll and stops as soon as the odds of the rest of the plan no longer hold. Reinforcements go
  to the plan's first stack, and a set is traded early when its armies make the plan hold.
* **A card every turn.** Until the turn's first conquest, any attack worth something is made at
  even odds (continental waits for 60%).
* **Cards timed.** Sets are held (their value grows as others trade) unless a trade is forced, the
  set's armies enable an elimination, or the bot is in danger of losing its cards with its last
  territories.
* **Continents broken before they pay.** A conquest that breaks an opponent's held continent counts
  that owner's next bonus more, and is made at lower odds.
* **No feeding the leader** (4 players or more): when one player is far ahead, its territories are
  worth more, and weakening the players that stand between it and the others is worth less.
"""

from __future__ import annotations

from functools import lru_cache

from mypy_extensions import mypyc_attr

from risk.bots import neutrals
from risk.bots.base import ELIMINATION_TRADE, REINFORCE
from risk.bots.battle_odds import ODDS_CAP, win_probability
from risk.bots.heuristic import ContinentalBot, HeuristicBot, Style, Survey
from risk.odds_float import chain_odds as float_chain_odds
from risk.rules.actions import END_ATTACK, Action, Attack, Claim, Occupy, Place, Trade
from risk.view import View

# Opponents with at most this many territories are considered for an elimination plan.
PREY_TERRITORIES = 9
# The least odds of the whole plan to go for an elimination, by what it pays (see plan_odds_needed).
PLAN_ODDS_LOW = 0.35
PLAN_ODDS_HIGH = 0.75
# Before the turn's first conquest (the card) every attack is worth making at these odds.
CARD_ODDS = 0.5
# A conquest that breaks an opponent's continent is made at these odds.
BREAK_ODDS = 0.45
# A full table: this many players alive or more. There, once the turn's card is earned, the warlord
# attacks on only to break a continent or by an elimination plan (issue 42, 1993: against five of the
# warlord before it 22.5%, a fair share 16.7%; against five continental 79.7%, was 65.0%).
FULL_TABLE = 4
# 2-player RISK: continental's thresholds, every reinforcement on the attack (the neutrals shield
# the borders), measured best of the styles tried (docs/bots.md, "The warlord").
DUEL_STYLE = Style(
    attack_odds_target=0.55,
    attack_odds_other=0.8,
    card_odds=0.6,
    defence_share=0.0,
    border_ratio=0.8,
    continent_focus=3.0,
)
# The blitz (3 players or fewer alive): a stack rolls through at most BLITZ_DEPTH of the opponents'
# territories, is reinforced when it expects BLITZ_CONQUESTS conquests, attacks on at BLITZ_ODDS, and
# moves all in after each conquest (2-player RISK: leaving half the threat behind measured 71%, all
# in 79%).
BLITZ_DEPTH = 6
BLITZ_CONQUESTS = 1.0
BLITZ_ODDS = 0.6
# The blitz is on while at most this many players are alive: two, the duel's endgame. At three, a
# strong rival eats the stack that rolled through the weak seat (issue 42: with `expert` and
# `continental`, 1993, 100 games: 13% for the warlord blitzing at three, 20% blitzing at two; with
# two `continental` 99.3% and 98.7%). The warlord before issue 42 blitzed at three (WarlordV1).
# With one player more alive (blitz_strongest) the blitz rolls through the strongest opponent only,
# chosen at the turn's first decision: it weakens the rival instead of feeding on the weak seat
# (against two `quick`, 2008, 300 games: 77.7% where no blitz at three had 59.3%; docs/bots.md).
BLITZ_PLAYERS = 2
BLITZ_PLAYERS_V1 = 3
# Setup placement (WarlordBot.setup_worth): what each enemy next to a border is worth, by what armies
# there would do: conquer a territory of the target continent, guard a continent held or aimed at, or
# face an enemy elsewhere; and per army of the largest enemy stack next to a guarded border.
SETUP_ATTACK_WORTH = 2.0
SETUP_GUARD_WORTH = 1.0
SETUP_OTHER_WORTH = 0.25
SETUP_THREAT_WORTH = 0.1
# No territory takes more than this share of the seat's extra setup armies (the rest go elsewhere).
SETUP_MOST_SHARE = 0.5
# 2-player RISK: armies by worth to this power, so more on the best borders (the blitz's stack; the
# neutrals shield the rest): proportional measured 42.8% against the pile, cubed 48.7% (even is 50%).
SETUP_DUEL_POWER = 3
# A player is a runaway leader when its strength is this many times the average of the others.
LEADER_RATIO = 1.5


@lru_cache(maxsize=65536)
def chain_odds(attackers: int, path: tuple[int, ...]) -> float:
    """P(``attackers`` fighting armies conquer every territory of ``path`` in turn), clamped like
    :func:`win_probability` for huge stacks."""
    if attackers <= 0:
        return 0.0
    if len(path) == 1:
        return win_probability(attackers, path[0])
    if attackers > ODDS_CAP:
        total = attackers + sum(path)
        if total > 3 * ODDS_CAP:
            scale = 3 * ODDS_CAP / total
            attackers = max(1, round(attackers * scale))
            path = tuple(max(1, round(d * scale)) for d in path)
    return float_chain_odds(attackers, path)[0]


@lru_cache(maxsize=65536)
def chain_expected(attackers: int, path: tuple[int, ...]) -> float:
    """The territories of ``path`` that ``attackers`` fighting armies are expected to conquer."""
    if attackers <= 0:
        return 0.0
    attackers = min(attackers, 3 * ODDS_CAP)
    return float_chain_odds(attackers, path)[1]


def first_conquest_bound(attackers: int, defenders: int) -> float:
    """At least :func:`chain_odds` of any path whose first territory ``defenders`` hold: the odds of
    that first conquest (with room for the floats' rounding), 1 where the odds are clamped."""
    if attackers > ODDS_CAP or defenders > ODDS_CAP:
        return 1.0
    return win_probability(attackers, defenders) + 1e-9


# No path yet (typed as any path: assigned a literal (), mypy would narrow the field to the empty tuple,
# and the compiled build would check that type after the search changed it).
NO_PATH: tuple[int, ...] = ()


class PathSearch:
    """The plan's depth-first search (:meth:`WarlordBot.plan`) of the longest paths through one set
    of targets, searched depth first (victims hold few territories): the best path from each first
    territory, found once and shared by every source next to it (a class of its own, not a closure:
    compiled, its calls and fields are native)."""

    __slots__ = ("armies", "best", "best_cost", "count", "found", "neighbours", "open")

    def __init__(self, targets: set[int], neighbours: tuple[tuple[int, ...], ...], armies: list[int]) -> None:
        self.neighbours, self.armies = neighbours, armies
        # A target not on the path being extended (a flag per territory: no set or list look-ups).
        self.open = [False] * len(armies)
        for t in targets:
            self.open[t] = True
        self.count = len(targets)
        self.found: dict[int, tuple[tuple[int, ...], int]] = {}
        self.best = NO_PATH
        self.best_cost = 0

    def longest_from(self, source: int) -> tuple[int, ...]:
        """The longest path through the targets starting next to ``source`` (fewest defenders on a
        tie; the first found of equals, the first territories in the order of the source's
        neighbours): the best of the paths from each first territory, as one search over them all
        would find it (it stops at the first path through every target)."""
        best, best_cost = NO_PATH, 0
        for t in self.neighbours[source]:
            if not self.open[t]:
                continue
            path, cost = self.from_first(t)
            if len(path) > len(best) or (len(path) == len(best) and cost < best_cost):
                best, best_cost = path, cost
            if len(best) == self.count:
                break
        return best

    def from_first(self, first: int) -> tuple[tuple[int, ...], int]:
        """The best path whose first territory is ``first``, and its defenders."""
        known = self.found.get(first)
        if known is None:
            self.best, self.best_cost = NO_PATH, 0
            self.open[first] = False
            self.extend([first], self.armies[first])
            self.open[first] = True
            known = (self.best, self.best_cost)
            self.found[first] = known
        return known

    def extend(self, path: list[int], cost: int) -> None:
        if len(path) > len(self.best) or (len(path) == len(self.best) and cost < self.best_cost):
            self.best, self.best_cost = tuple(path), cost
        if len(self.best) == self.count:
            return
        open_ = self.open
        for n in self.neighbours[path[-1]]:
            if open_[n]:
                open_[n] = False
                path.append(n)
                self.extend(path, cost + self.armies[n])
                path.pop()
                open_[n] = True


class Plan:
    """Chains of attacks that take every territory of ``victim``: (source, path) each, and their odds."""

    __slots__ = ("chains", "odds", "victim")

    def __init__(self, victim: int, chains: list[tuple[int, tuple[int, ...]]], odds: float) -> None:
        self.victim, self.chains, self.odds = victim, chains, odds

    @property
    def first(self) -> tuple[int, int]:
        source, path = self.chains[0]
        return source, path[0]


WARLORD_STYLE = Style(
    attack_odds_target=0.5,
    attack_odds_other=0.7,
    card_odds=CARD_ODDS,
    defence_share=0.3,
    border_ratio=1.0,
    continent_focus=3.0,
)


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class WarlordBot(HeuristicBot):
    name = "warlord"
    description = (
        "a strong player without search: rolls one stack through its opponents by exact chain odds, "
        "wipes out weak players for their cards, times its trades, breaks continents"
    )
    # Its style (WARLORD_STYLE) is set on each bot, not as a class attribute: on the compiled build
    # the heuristic reads the instance's own slot, which a Python class attribute would shadow.

    # The policy's parts, each a switch (measured one by one: docs/bots.md, "The warlord").
    plans = True
    hold_cards = True
    break_continents = True
    blitz = True
    blitz_players = BLITZ_PLAYERS  # the blitz while this many players or fewer are alive
    blitz_strongest = True  # with one player more alive, a blitz through the strongest opponent only
    full_table = True  # at FULL_TABLE players or more, no attack past the card but plans and breaks
    spread_setup = True  # setup armies spread over the borders by worth (False: the heuristic's pile)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # Secret Mission RISK: the warlord's own play measured worse than continental's there (26% of
        # 102 games against two, chance 33%, each of its parts switched off alike), so it plays as
        # continental does, for the mission (docs/bots.md, "The ladder by game and player count").
        self.for_missions = ContinentalBot(seed)
        self.style = WARLORD_STYLE
        self.victim = -1  # the player whose elimination the last attack pursued
        # This decision's game: 2-player RISK; the blitz on (3 players or fewer alive).
        self.duel = False
        self.blitzing = False
        self.blitz_through = -1  # the one opponent the blitz rolls through (-1: every opponent)
        self.through_turn = -1  # the game turn it was chosen in
        # The leader of the decision being made (leader() asks for it once per conquest valued): the
        # view and seat it was found for, kept only while decide() runs, when the game cannot change.
        self.deciding = False
        self.leader_of: tuple[View, int, int] | None = None

    # -- what a conquest is worth ---------------------------------------------------------------
    def conquest_value(
        self, view: View, me: int, target: int, focus: int, survey: Survey | None = None
    ) -> float:
        survey = survey or self.survey(view, me)
        value = super().conquest_value(view, me, target, focus, survey)
        defender = survey.owner[target]
        if view.neutral[defender] or view.team is not None:
            return value
        board = view.board
        continent = board.continent_of[target]
        if survey.held_by(continent, defender):
            value += board.continents[continent].bonus  # its owner's next bonus, gone
        leader = self.leader(view, me)
        if leader >= 0:
            if defender == leader:
                value += 1.5
            elif any(survey.owner[n] == leader for n in board.neighbours[target]):
                value -= 1.5  # a buffer against the leader: weakening it feeds the leader
        return value

    def leader(self, view: View, me: int) -> int:
        """With 4 players or more alive, the one far ahead of the others (not ``me``), or -1."""
        known = self.leader_of
        if known is not None and known[0] is view and known[1] == me:
            return known[2]
        found = self.find_leader(view, me)
        if self.deciding:
            self.leader_of = (view, me, found)
        return found

    def find_leader(self, view: View, me: int) -> int:
        alive = [p for p in range(len(view.players)) if view.alive[p] and not view.neutral[p]]
        if len(alive) < 4:
            return -1
        strength = self.strengths(view, alive)
        top = max(alive, key=lambda p: (strength[p], -p))
        others = [strength[p] for p in alive if p != top]
        if top == me or strength[top] < LEADER_RATIO * sum(others) / len(others):
            return -1
        return top

    @staticmethod
    def strengths(view: View, alive: list[int]) -> list[float]:
        """Each seat's armies plus 3 times its income (the players ``alive``; 0 for the others')."""
        strength = [0.0] * len(view.players)
        armies, owner = view.armies, view.owner
        for t, seat in enumerate(owner):
            if seat >= 0:
                strength[seat] += armies[t]
        for p in alive:
            strength[p] += 3.0 * view.reinforcement_for(p)
        return strength

    def strongest_opponent(self, view: View) -> int:
        me = view.player
        alive = [p for p in range(len(view.players)) if view.alive[p] and not view.neutral[p] and p != me]
        strength = self.strengths(view, alive)
        return max(alive, key=lambda p: (strength[p], -p))

    # -- setup ---------------------------------------------------------------------------------
    def claim(self, view: View, me: int) -> Claim:
        """Claim in the continent where we stand best for its size: small, easily held continents
        first (Australia, South America), never a race for the large ones; within it, next to our
        own territories."""
        owner, board = view.owner, view.board
        best, best_key = -1, None
        for continent in board.continents:
            members = continent.territories
            free = [t for t in members if owner[t] == -1]
            if not free:
                continue
            mine = sum(1 for t in members if owner[t] == me)
            theirs = len(members) - mine - len(free)
            score = (mine + 1 - theirs) / len(members)
            for t in free:
                friends = sum(1 for n in board.neighbours[t] if owner[n] == me)
                key = (score + 0.01 * friends + 0.02 * self.rng.random(), -t)
                if best_key is None or key > best_key:
                    best, best_key = t, key
        return Claim(best)

    def setup_target(self, view: View, me: int) -> int:
        """Where the next setup army goes: spread over the borders that face an enemy, each getting a
        share by what it is worth (:meth:`setup_worth`), most toward the continents the seat can hold,
        and none more than SETUP_MOST_SHARE of the seat's armies (no single pile). In Team RISK the
        heuristic's pile: there the spread measured worse (docs/bots.md, "The ladder by game and player
        count": the pile won 62.7% of 1,000 6-player games against the spread, 57.3% at 4 players)."""
        if not self.spread_setup or view.team is not None:
            return super().setup_target(view, me)
        survey = self.survey(view, me)
        armies, owner = survey.armies, survey.owner
        focus, held = survey.target_continent(), survey.held_continents()
        mine = [t for t in range(len(owner)) if owner[t] == me]
        extra = sum(armies[t] - 1 for t in mine) + view.setup_armies[me]
        most = max(1.0, SETUP_MOST_SHARE * extra)
        power = SETUP_DUEL_POWER if self.duel else 1
        best, best_key = mine[0], (False, 0.0)
        for t in mine:
            worth = self.setup_worth(t, focus, held, survey)
            if worth <= 0.0:
                continue  # an inner territory: no enemy next door
            # Armies in proportion to what a border is worth: each goes where the ratio is best.
            key = (armies[t] <= most, worth**power / armies[t])
            if key > best_key:
                best, best_key = t, key
        return best

    @staticmethod
    def setup_worth(territory: int, focus: int, held: set[int], survey: Survey) -> float:
        """What armies on ``territory`` are worth at the setup (0: an inner territory, none needed):
        each enemy next door in the target continent (a conquest to make), each enemy at the edge of a
        continent held or aimed at (a border to guard), a little for any other enemy, and the enemy
        stack next door to stand up to."""
        view = survey.view
        armies, danger = survey.armies, survey.danger
        continent_of = view.board.continent_of
        home = continent_of[territory]
        guarding = home == focus or home in held
        worth, threat = 0.0, 0
        for n in view.board.neighbours[territory]:
            if not danger[n]:
                continue
            threat = max(threat, armies[n] - 1)
            if continent_of[n] == focus:
                worth += SETUP_ATTACK_WORTH
            elif guarding:
                worth += SETUP_GUARD_WORTH
            else:
                worth += SETUP_OTHER_WORTH
        if worth and guarding:
            worth += SETUP_THREAT_WORTH * threat
        return worth

    # -- elimination plans ----------------------------------------------------------------------
    def card_worth(self, view: View) -> float:
        """Armies a card is worth: a third of the next set (the fixed chart: about 2)."""
        value = view.next_set_value()
        return 2.0 if value is None else max(1.5, value / 3.0)

    def plan_odds_needed(self, view: View, victim: int) -> float:
        """The plan's least odds: lower the more the victim's elimination pays (its cards; the game
        itself in a duel)."""
        alive = sum(1 for p in range(len(view.players)) if view.alive[p] and not view.neutral[p])
        if alive == 2:
            return PLAN_ODDS_LOW  # the win
        cards = view.hand_size(victim)
        if cards == 0:
            return PLAN_ODDS_HIGH
        payoff = cards * self.card_worth(view)
        return max(PLAN_ODDS_LOW, PLAN_ODDS_HIGH - 0.04 * payoff)

    def victims(self, view: View, me: int) -> list[int]:
        """The opponents worth planning an elimination of: few territories, not a teammate or a
        neutral; in Secret Mission only a target the mission allows."""
        if view.team is not None:
            return []
        aim = self.aim
        found = []
        for p in range(len(view.players)):
            if p == me or not view.alive[p] or view.neutral[p]:
                continue
            if view.territory_count[p] > PREY_TERRITORIES:
                continue
            if aim is not None and aim.elimination_value is not None and p != aim.destroy:
                continue
            found.append(p)
        return found

    def plan(self, view: View, me: int, victim: int, extra: int = 0) -> Plan | None:
        """The best chains of attacks taking every territory of ``victim``, with ``extra`` armies
        placed on the plan's first stack; None when some territory is out of reach."""
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        units = view.units
        targets = {t for t in range(len(owner)) if owner[t] == victim}
        if not targets:  # under fog of war, a player still in the game may hold nothing in memory
            return None
        used: set[int] = set()
        chains: list[tuple[int, tuple[int, ...]]] = []
        odds = 1.0
        while targets:
            candidates: list[tuple[int, int, int, tuple[int, ...]]] = []
            search = PathSearch(targets, neighbours, armies)
            for s in {n for t in targets for n in neighbours[t]}:
                if owner[s] != me or s in used:
                    continue
                fighting = (armies[s] if units is None else units[s][me]) - 1
                if extra and not chains:
                    fighting += extra
                if fighting < 1:
                    continue
                path = search.longest_from(s)
                candidates.append((len(path), fighting, s, path))
            # The best is the one best by (length x odds, armies, -source): the same whatever the
            # order. Longest first, a chain whose length x the odds of its first conquest (which
            # bound the chain's) falls short of the best so far is passed without its chain odds.
            candidates.sort(key=lambda candidate: -candidate[0])
            best: tuple[float, int, int, tuple[int, ...], float] | None = None
            for length, fighting, s, path in candidates:
                if best is not None and length * first_conquest_bound(fighting, armies[path[0]]) < best[0]:
                    continue
                p = chain_odds(fighting, tuple([armies[t] for t in path]))
                if best is None or (length * p, fighting, -s) > best[:3]:
                    best = (length * p, fighting, -s, path, p)
            if best is None:
                return None
            source, path = -best[2], best[3]
            used.add(source)
            targets.difference_update(path)
            odds *= best[4]
            chains.append((source, path))
            if odds < PLAN_ODDS_LOW:
                return Plan(victim, chains, odds)
        return Plan(victim, chains, odds)

    def best_plan(self, view: View, me: int, extra: int = 0) -> Plan | None:
        """The plan worth going for now (its odds hold for what it pays), the best odds first."""
        found: Plan | None = None
        for victim in self.victims(view, me):
            plan = self.plan(view, me, victim, extra)
            if plan is None or plan.odds < self.plan_odds_needed(view, victim):
                continue
            if found is None or plan.odds > found.odds:
                found = plan
        return found

    # -- the turn ------------------------------------------------------------------------------
    def choose(self, view: View) -> Action:
        if view.mission is not None:
            return self.for_missions.choose(view)
        return super().choose(view)

    def decide(self, view: View) -> Action:
        # 2-player RISK: the neutral buffers of risk.bots.neutrals with the duel's own style.
        self.duel = neutrals.in_duel(view)
        self.style = DUEL_STYLE if self.duel else WARLORD_STYLE
        players = sum(1 for p in range(len(view.players)) if view.alive[p] and not view.neutral[p])
        # Not where the game has its own goal: its aims (risk.bots.aims) place and attack for it.
        self.blitzing = (
            self.blitz
            and view.team is None
            and self.aim is None
            and (
                players <= self.blitz_players or (self.blitz_strongest and players == self.blitz_players + 1)
            )
        )
        if not self.blitzing or players <= self.blitz_players:
            self.blitz_through = -1
        elif self.through_turn != view.turn or self.blitz_through < 0 or not view.alive[self.blitz_through]:
            # Chosen at the turn's first decision and kept for the turn: the stack rolls one way.
            self.blitz_through, self.through_turn = self.strongest_opponent(view), view.turn
        self.deciding, self.leader_of = True, None
        try:
            return super().decide(view)
        finally:
            self.deciding, self.leader_of = False, None

    def attack(self, view: View, me: int) -> Action:
        action = self.planned_attack(view, me) if self.plans else None
        if action is None:
            action = self.heuristic_attack(view, me)
        if action is END_ATTACK and self.blitzing:
            action = self.blitz_attack(view, me) or END_ATTACK
        if self.duel and isinstance(action, Attack):
            action = neutrals.call_off_first(view, action)
        return action

    def planned_attack(self, view: View, me: int) -> Action | None:
        """The next attack of the elimination plan worth going for; None: the heuristic decides."""
        if view.pending_occupation is not None or view.pending_attack is not None:
            return None
        plan = self.best_plan(view, me) if self.plans else None
        if plan is not None:
            source, target = plan.first
            action = Attack(source, target, min(3, view.force(source, me) - 1))
            if view.is_legal(action):
                self.victim = plan.victim
                return action
        self.victim = -1
        return None

    def heuristic_attack(self, view: View, me: int) -> Action:
        action = END_ATTACK if self.holding_back(view) else super().attack(view, me)
        if action is not END_ATTACK or not self.break_continents:
            return action
        # Breaking an opponent's continent is worth lower odds.
        survey = self.survey(view, me)
        owner, continent_of = survey.owner, view.board.continent_of
        best = None
        for score, _, source, target, dice in self.scored_attacks(view, me, survey, BREAK_ODDS):
            defender = owner[target]
            if score <= 0 or view.neutral[defender] or not survey.held_by(continent_of[target], defender):
                continue
            if best is None or score > best[0]:
                best = (score, Attack(source, target, dice))
        if best is not None and view.is_legal(best[1]):
            return best[1]
        return END_ATTACK

    def holding_back(self, view: View) -> bool:
        """At a full table with the turn's card earned: the heuristic's attacks are over (what a
        strong player does there: one conquest for the card, the stacks kept; docs/bots.md)."""
        if not self.full_table or not view.conquered_this_turn:
            return False
        if view.team is not None or self.aim is not None:
            return False  # Team RISK and the games with a goal of their own play as before
        alive = sum(1 for p in range(len(view.players)) if view.alive[p] and not view.neutral[p])
        return alive >= FULL_TABLE

    def occupy(self, view: View, me: int) -> Occupy:
        occupation = view.pending_occupation
        assert occupation is not None
        _, target, _ = occupation
        victim = self.victim
        rolls_on = victim >= 0 and view.alive[victim] and view.units is None and self.aim is None
        if rolls_on and any(view.owner[n] == victim for n in view.board.neighbours[target]):
            return Occupy(view.occupy_range()[1])  # the chain rolls on
        if self.blitzing and view.units is None:
            rival = self.rival_seats(view, me)
            if any(rival[view.owner[n]] for n in view.board.neighbours[target]):
                return Occupy(view.occupy_range()[1])  # the blitz rolls on, all in
        return super().occupy(view, me)

    def trade(self, view: View, me: int) -> Trade | None:
        phase = view.phase
        if phase == ELIMINATION_TRADE or view.must_trade(me):
            return super().trade(view, me)
        if not self.hold_cards or self.duel:
            return super().trade(view, me)
        if phase != REINFORCE or view.placed_this_turn or not view.trade_options():
            return None
        # In danger of losing our cards with our last territories: trade now.
        if view.territory_count[me] <= 4:
            return super().trade(view, me)
        # A set whose armies make an elimination hold.
        if self.victims(view, me) and self.best_plan(view, me, view.pending) is None:
            value = view.next_set_value() or 6
            if self.best_plan(view, me, view.pending + value) is not None:
                return super().trade(view, me)
        # Fixed values do not grow: trade them when they come.
        if view.next_set_value() is None:
            return super().trade(view, me)
        return None

    def place(self, view: View, me: int) -> Place:
        if view.phase == REINFORCE and self.plans:
            plan = self.best_plan(view, me, view.pending)
            if plan is not None:
                return Place(plan.first[0], view.pending)
        if self.blitzing and view.phase == REINFORCE:
            source, expected = self.blitz_source(view, me, view.pending)
            if source >= 0 and expected >= BLITZ_CONQUESTS:
                return Place(source, view.pending)
        return super().place(view, me)

    # -- 2-player RISK: the blitz ------------------------------------------------------------------
    def blitz_path(self, view: View, me: int, source: int) -> tuple[int, ...]:
        """The opponent's territories a stack at ``source`` rolls through: each step the weakest
        next to the last one taken, at most BLITZ_DEPTH."""
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        rival = self.rival_seats(view, me)
        path: list[int] = []
        current = source
        for _ in range(BLITZ_DEPTH):
            steps = [n for n in neighbours[current] if rival[owner[n]] and n not in path]
            if not steps:
                break
            current = min(steps, key=lambda n: (armies[n], -n))
            path.append(current)
        return tuple(path)

    def rival_seats(self, view: View, me: int) -> list[bool]:
        """The seats the blitz rolls through (one more entry, False, for no owner)."""
        through = self.blitz_through
        if through >= 0:
            return [seat == through for seat in range(len(view.players))] + [False]
        return [seat != me and not view.neutral[seat] for seat in range(len(view.players))] + [False]

    def blitz_source(self, view: View, me: int, extra: int) -> tuple[int, float]:
        """Where ``extra`` armies make the longest expected run through the opponent's territories,
        and the conquests expected there."""
        owner, armies = view.owner, view.armies
        best, best_expected = -1, 0.0
        for s in range(len(owner)):
            if owner[s] != me:
                continue
            path = self.blitz_path(view, me, s)
            if not path:
                continue
            expected = chain_expected(armies[s] - 1 + extra, tuple(armies[t] for t in path))
            if expected > best_expected:
                best, best_expected = s, expected
        return best, best_expected

    def blitz_attack(self, view: View, me: int) -> Attack | None:
        """Rolling on through the opponent: the weakest of its territories next to our strongest
        stack, at BLITZ_ODDS or better."""
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        rival = self.rival_seats(view, me)
        best: tuple[float, int, int] | None = None
        for s in range(len(owner)):
            if owner[s] != me or armies[s] < 2:
                continue
            for t in neighbours[s]:
                if not rival[owner[t]]:
                    continue
                p = win_probability(armies[s] - 1, armies[t])
                if p >= BLITZ_ODDS and (best is None or p > best[0]):
                    best = (p, s, t)
        if best is None:
            return None
        _, s, t = best
        return Attack(s, t, min(3, armies[s] - 1))


# A committed plan (the expert's candidate) is followed while the rest of it holds this well.
COMMIT_ODDS = PLAN_ODDS_LOW


@mypyc_attr(allow_interpreted_subclasses=True)
class WarlordV1(WarlordBot):
    """The warlord as it was before issue 42 (the `hard` level until then), kept to measure against:
    it blitzes with three players alive, and at a full table attacks on past the card."""

    name = "warlord-v1"
    description = "the warlord before issue 42: blitzes at three players, attacks on past the card at six"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.full_table = False
        self.blitz_players = BLITZ_PLAYERS_V1
        self.blitz_strongest = False


class CommittedWarlord(WarlordV1):
    """The warlord, committed to eliminating ``committed_to`` this turn (the expert's candidate): it
    follows the plan against that victim while the rest of it holds at COMMIT_ODDS, whatever the
    victim's cards pay."""

    committed_to = -1

    def best_plan(self, view: View, me: int, extra: int = 0) -> Plan | None:
        victim = self.committed_to
        if victim >= 0 and view.alive[victim]:
            plan = self.plan(view, me, victim, extra)
            if plan is not None and plan.odds >= COMMIT_ODDS:
                return plan
        return super().best_plan(view, me, extra)


class CommittedHard(CommittedWarlord):
    """The committed warlord on today's warlord (the `hard` level): the expert's full-table rollouts."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.full_table = True
        self.blitz_players = BLITZ_PLAYERS
        self.blitz_strongest = True


__all__ = ["COMMIT_ODDS", "CommittedHard", "CommittedWarlord", "WarlordBot", "WarlordV1", "chain_odds"]
