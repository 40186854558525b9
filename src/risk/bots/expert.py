"""The expert bot: the search bot with a leaf evaluation and candidate moves that play like a strong
player, at 144 iterations a decision with 3 or 4 players (three times the search bot's: about a
tenth of a second on one core) and the search bot's 48 otherwise; ``expert:N`` sets N iterations,
and ``max_seconds`` caps a decision at 0.9 s.

What a strong player does that the plain search bot did not (seen in the records of games against
Domination's Hard AI, ``docs/bots.md`` "The top bot"): it conquers something nearly every turn for
the card, it takes territories from whichever player is weakest (cheap conquests, cards, and in the
end an elimination that hands over a whole hand of cards), and it values a hand of cards by what the
next set will pay, which grows through the game. So:

* **Evaluation** (:func:`expert_evaluate`): as :func:`risk.bots.search.evaluate`, each alive
  player's share of the strength on the table, but a card is worth a third of the next set's value
  (at least what the plain bot gave it), and a held continent counts its bonus again when no enemy
  stack next to its borders outnumbers the border (a bonus that will be collected next turn too).
* **Candidates** (:meth:`ExpertBot.candidates`): the search bot's, plus the surest conquest while no
  card is earned yet this turn, the best attack on the weakest opponent and an attack on any
  opponent we can finish off (their cards come to us); placements next to those targets.
* **Who plays how** (:meth:`ExpertBot.seat_policies`): the rollouts play an opponent whose recent
  reinforcements (public actions) were each one pile of everything with the quick bot, which is
  how such a player goes on (all-in blitzes from its largest stack), and every other seat with the
  continental bot. The continental rollouts never saw a quick player's turn-long blitzes coming.
  (The classic recipe; today's, :data:`RECIPE`, plays every seat with the warlord, and from five
  seats on :data:`FULL_TABLE_RECIPE` with today's warlord, the `hard` level.)
* **The warlord inside** (:class:`Recipe`): the warlord gives the default move and candidates and
  plays every seat in the rollouts; its elimination plans are candidates played whole for the rest
  of the turn (:class:`CommittedWarlord`); decisions at stake get more iterations, routine ones fewer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from risk.bots.base import Bot
from risk.bots.battle_odds import win_probability
from risk.bots.heuristic import ContinentalBot, HeuristicBot
from risk.bots.quick import QuickBot
from risk.bots.search import GOAL_WEIGHT, SearchBot, goal_blend, strength_share
from risk.bots.warlord import CommittedHard, CommittedWarlord, WarlordBot, WarlordV1
from risk.rules.actions import Action, Attack, Place, Trade
from risk.rules.game import Phase
from risk.rules.pickling import picklable
from risk.view import View

EXPERT_ITERATIONS = 144
# Outside 3 and 4 players the search bot's budget stays: 1-v-1 measured no better at 144 (36 of 40
# against 98 of 100 at 48) and 6-player decisions came near the 0.9 s cap.
OTHER_TABLE_ITERATIONS = 48
EXPERT_MAX_SECONDS = 0.9
EXPERT_CANDIDATES = 7
# A plain bot's card weight: the floor of what a card is worth.
CARD_FLOOR = 1.5
# A fixed-chart set (Mission and Team RISK) is worth about this much on average.
FIXED_SET_ESTIMATE = 7.0
# The focus: the share of the budget a decision at stake (an elimination or a continent in reach)
# gets, and a routine one (moves after a conquest, the free move).
HIGH_STAKES_SHARE = 1.5
ROUTINE_SHARE = 0.5
# A seat is modelled as an all-in player once this many of its recent reinforcements were one
# placement of everything (and every one of the last few was).
ALL_IN_TURNS = 2
ALL_IN_WINDOW = 4
# Only the recent public history is read (a few rounds): cheap, and a player's style now.
HISTORY_TAIL = 1500
# Plans offered as candidates: their odds at least this, the best few.
PLAN_CANDIDATE_ODDS = 0.25
PLAN_CANDIDATES = 2

# The bots a recipe names: "warlord" is the warlord of the expert's three-player measurements (the
# hard level before issue 42, WarlordV1), "hard" today's warlord (the hard level since).
POLICIES: dict[str, type[HeuristicBot]] = {
    "continental": ContinentalBot,
    "warlord": WarlordV1,
    "hard": WarlordBot,
}
# From this many seats on, the expert plays its full-table recipe (issue 42's item 3).
FULL_TABLE_SEATS = 5


@dataclass(frozen=True, slots=True)
class Recipe:
    """Which bot plays which part of the search, kept switchable so that each choice can be measured
    (``benchmarks/bench_expert_ab.py``; docs/bots.md, "The top bot").

    ``source``: the bot whose choice is the default move and whose runners-up are candidates;
    ``rollout``: the bot that plays our own seat in the rollouts; ``opponents``: the bot that plays the
    other seats; ``quick_model``: seats seen placing all-in are played by ``quick`` instead;
    ``plans``: elimination plans (the warlord's chains of attacks) as candidates, each played whole
    for the rest of the turn in its rollouts; ``focus``: more iterations where the decision is at
    stake (an elimination or a continent in reach), fewer on routine ones (moves, fortifying);
    ``neutrals``: the neutral seats that side with no one count in the strength share."""

    source: str = "continental"
    rollout: str = "continental"
    opponents: str = "continental"
    quick_model: bool = True
    plans: bool = False
    focus: bool = False
    neutrals: bool = True


picklable(Recipe)  # a bot is copied with its recipe (RiskEnv.clone), also compiled


def committed_warlord(recipe: Recipe, seed: int) -> CommittedWarlord:
    """The warlord that plays an elimination plan candidate whole in the rollouts: the version of the
    recipe's rollout bot."""
    return CommittedHard(seed) if recipe.rollout == "hard" else CommittedWarlord(seed)


# The expert of before issue 25's item 2.
CLASSIC = Recipe()
# Today's: the warlord everywhere (default move, candidates, rollouts, opponents), its plans as
# candidates, the budget focused on decisions at stake, and 2-player RISK's neutral left out of the
# strength share (measured: docs/bots.md, "The top bot").
RECIPE = Recipe(
    source="warlord",
    rollout="warlord",
    opponents="warlord",
    quick_model=False,
    plans=True,
    focus=True,
    neutrals=False,
)
# At five seats or more: today's warlord (the `hard` level) everywhere, which takes a card every turn
# and stops there unless a plan or a continent follows (a full table's game), and is what the
# expert meets there; the rest as RECIPE (measured: docs/bots.md, "The expert at a full table").
FULL_TABLE_RECIPE = dataclasses.replace(RECIPE, source="hard", rollout="hard", opponents="hard")


def reinforcements_all_in(history: Sequence[tuple[str, Any, Any]], seat: int) -> list[bool]:
    """For each of ``seat``'s reinforcement phases in ``history`` (oldest first): whether it put
    (nearly) every army it placed on one territory, as the quick bot does. Setup placements (one
    army at a time, the seats alternating) and phases of fewer than three armies are left out."""
    found: list[bool] = []
    armies = largest = 0
    for kind, actor, action in history:
        if kind != "action":
            continue
        if actor != seat:
            armies = largest = 0  # another seat acts: setup alternates, or a turn ended
        elif isinstance(action, Place):
            armies += action.armies
            largest = max(largest, action.armies)
        elif not isinstance(action, Trade):  # sets are traded before or while placing
            if armies >= 3:
                # The last setup army can run into the first reinforcement: most, not all.
                found.append(largest * 4 >= armies * 3)
            armies = largest = 0
    return found


def card_worth(view: View) -> float:
    """What one card in a hand is worth in armies: a third of the next set's value."""
    value = view.next_set_value()
    return max(CARD_FLOOR, (FIXED_SET_ESTIMATE if value is None else value) / 3.0)


def safe_bonus(view: View, player: int) -> float:
    """The bonus of ``player``'s continents whose every border stack is at least the largest enemy
    stack next to it: income that will most likely be collected again."""
    board, owner, armies = view.board, view.owner, view.armies
    total = 0.0
    for continent in view.continents_of(player):
        info = board.continents[continent]
        safe = True
        for t in info.territories:
            for n in board.neighbours[t]:
                if owner[n] != player and armies[n] > armies[t]:
                    safe = False
                    break
            if not safe:
                break
        if safe:
            total += info.bonus
    return total


def expert_evaluate(view: View, goal_weight: float = GOAL_WEIGHT, neutrals: bool = True) -> float:
    """How good the game is for ``view.player`` in [0, 1]: 1 won, 0 eliminated, else my share of the alive
    players' strength (armies, 3 x income, safe continent bonus, cards at the next set's value),
    blended with the game's goal where it has one (``search.goal_blend``)."""
    per_card = card_worth(view)
    share = strength_share(
        view,
        lambda player, armies: (
            armies
            + 3.0 * view.reinforcement_for(player)
            + 2.0 * safe_bonus(view, player)
            + per_card * view.hand_size(player)
        ),
        neutrals,
    )
    return goal_blend(view, share, goal_weight)


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class ExpertBot(SearchBot):
    name = "expert"
    description = (
        "the strongest: Monte Carlo search that values cards by the next set, "
        "preys on the weakest player and goes for eliminations"
    )

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        max_seconds: float = EXPERT_MAX_SECONDS,
        candidates: int = EXPERT_CANDIDATES,
        recipe: Recipe | None = None,
        full_table_recipe: Recipe | None = None,
    ) -> None:
        """``recipe``: the parts below FULL_TABLE_SEATS seats; ``full_table_recipe`` from there on (by
        default FULL_TABLE_RECIPE, or ``recipe`` when only that is given)."""
        super().__init__(
            seed, iterations=iterations or EXPERT_ITERATIONS, max_seconds=max_seconds, candidates=candidates
        )
        self.recipe = recipe or RECIPE
        self.full_table_recipe = full_table_recipe or (FULL_TABLE_RECIPE if recipe is None else recipe)
        self._fixed_iterations = iterations  # ``expert:N``; None: by the number of players
        # Seats seen placing everything at once play like this in the rollouts. Its generator only
        # serves the claim phase, never searched: seeding it from ``seed`` keeps ours untouched.
        self._all_in_policy: Bot = QuickBot(seed)
        self._policies: list[Bot] = []
        # The search bot's own parts (the classic recipe's, with its generator draws) and seeds.
        self._own_policy: HeuristicBot = self.policy
        self._own_rollout: HeuristicBot = self._rollout_policy
        self._opponent_policy: Bot = self._rollout_policy
        self._planner: WarlordBot = WarlordV1(seed)
        self._committed: CommittedWarlord = CommittedWarlord(self._rollout_policy.seed + 2)
        self.active = self.recipe  # the recipe in play: the table's (set at the first decision)
        self.use(self.recipe)
        # Candidate -> the victim it commits to (this decision's plan candidates).
        self._intents: dict[Action, int] = {}

    def use(self, recipe: Recipe) -> None:
        """Play ``recipe``'s parts: each made afresh from the same seeds, so a seeded game replays."""
        self.active = recipe
        seed, rollout_seed = self.seed, self._own_rollout.seed
        self.policy = self._own_policy
        self._rollout_policy = self._own_rollout
        if recipe.source != "continental":
            self.policy = POLICIES[recipe.source](seed)
        if recipe.rollout != "continental":
            self._rollout_policy = POLICIES[recipe.rollout](rollout_seed)
        self._opponent_policy = self._rollout_policy
        if recipe.opponents != recipe.rollout:
            self._opponent_policy = POLICIES[recipe.opponents](rollout_seed + 1)
        self._planner = self.policy if isinstance(self.policy, WarlordBot) else WarlordV1(seed)
        self._committed = committed_warlord(recipe, rollout_seed + 2)

    def choose(self, view: View) -> Action:
        if self._fixed_iterations is None:
            self.iterations = EXPERT_ITERATIONS if 3 <= view.humans <= 4 else OTHER_TABLE_ITERATIONS
        recipe = self.full_table_recipe if view.humans >= FULL_TABLE_SEATS else self.recipe
        if recipe != self.active:
            self.use(recipe)
        all_in, opponent = self._all_in_policy, self._opponent_policy
        quick_model = recipe.quick_model
        recent = view.public_history(-HISTORY_TAIL) if quick_model else []
        self._policies = [
            self._rollout_policy
            if seat == view.player
            else all_in
            if quick_model and self.plays_all_in(recent, seat)
            else opponent
            for seat in range(len(view.players))
        ]
        self._intents = {}
        return super().choose(view)

    def search(self, view: View, candidates: list[Action]) -> Action:
        if not self.active.focus:
            return super().search(view, candidates)
        base = self.iterations
        self.iterations = max(1, round(base * self.stakes(view, candidates)))
        try:
            return super().search(view, candidates)
        finally:
            self.iterations = base

    def stakes(self, view: View, candidates: list[Action]) -> float:
        """How much of the budget this decision deserves, relative to the usual: more when an
        elimination is planned or a continent can be taken or broken by an attack on offer, less
        for routine decisions (moves after a conquest, the free move)."""
        phase = view.phase
        if phase not in (Phase.ATTACK, Phase.REINFORCE):
            return ROUTINE_SHARE
        if self._intents:
            return HIGH_STAKES_SHARE
        owner, board = view.owner, view.board
        me = view.player
        for action in candidates:
            target = action.target if isinstance(action, Attack) else -1
            if target < 0:
                continue
            members = board.continents[board.continent_of[target]].territories
            holders = {owner[t] for t in members}
            # Breaking a held continent, or the last enemy territory of one we nearly hold.
            if len(holders) == 1 or all(owner[t] == me for t in members if t != target):
                return HIGH_STAKES_SHARE
        return 1.0

    def own_policy(self, candidate: Action) -> Bot | None:
        victim = self._intents.get(candidate, -1)
        if victim < 0:
            return None
        committed = self._committed
        committed.committed_to = victim
        return committed

    @staticmethod
    def plays_all_in(history: Sequence[tuple[str, Any, Any]], seat: int) -> bool:
        """Whether ``seat``'s last reinforcements in ``history`` (public actions: the recent
        ``View.public_history``) were each one placement of all: a quick, aggressive player, which
        the continental rollout policy would misjudge."""
        recent = reinforcements_all_in(history, seat)[-ALL_IN_WINDOW:]
        return len(recent) >= ALL_IN_TURNS and all(recent)

    def seat_policies(self, view: View) -> list[Bot]:
        if len(self._policies) == len(view.players):
            return self._policies
        return super().seat_policies(view)

    def evaluate(self, view: View) -> float:
        return expert_evaluate(view, self.goal_weight, self.active.neutrals)

    def candidates(self, view: View, me: int, default: Action) -> list[Action]:
        base = super().candidates(view, me, default)
        extra_actions: list[Action]
        plans = self.plan_candidates(view, me, default) if self.active.plans else []
        if view.phase == Phase.ATTACK:
            extra_actions = [*plans, *self.predator_attacks(view, me)]
        elif view.phase == Phase.REINFORCE and isinstance(default, Place):
            extra_actions = [
                *plans,
                *(Place(attack.source, view.pending) for attack in self.predator_attacks(view, me)),
            ]
        else:
            return base
        # The search bot's first ideas stay first; the predator's ideas take the later places.
        head = base[: max(2, self.candidate_count - len(extra_actions))]
        result = list(head)
        for action in [*extra_actions, *base[len(head) :]]:
            if action not in result and view.is_legal(action):
                result.append(action)
            if len(result) >= self.candidate_count:
                break
        return result

    def plan_candidates(self, view: View, me: int, default: Action) -> list[Action]:
        """The first steps of the best elimination plans in reach (the warlord's chains of attacks,
        at PLAN_CANDIDATE_ODDS or better, whatever the victim's cards pay): the attack, or in the
        reinforcement phase every army on the plan's first stack. Each is recorded as committed to
        its victim, so its rollouts play the whole plan this turn."""
        phase = view.phase
        if phase == Phase.ATTACK:
            if view.pending_occupation is not None or view.pending_attack is not None:
                return []
            extra = 0
        elif phase == Phase.REINFORCE and isinstance(default, Place):
            extra = view.pending
        else:
            return []
        planner = self._planner
        found: list[tuple[float, Action, int]] = []
        for victim in planner.victims(view, me):
            plan = planner.plan(view, me, victim, extra)
            if plan is None or plan.odds < PLAN_CANDIDATE_ODDS:
                continue
            source, target = plan.first
            action: Action
            if extra:
                action = Place(source, extra)
            else:
                action = Attack(source, target, min(3, view.force(source, me) - 1))
            found.append((plan.odds, action, victim))
        found.sort(key=lambda item: -item[0])
        chosen: list[Action] = []
        for _, action, victim in found[:PLAN_CANDIDATES]:
            if action not in self._intents and view.is_legal(action):
                self._intents[action] = victim
                chosen.append(action)
        return chosen

    def predator_attacks(self, view: View, me: int) -> list[Attack]:
        """Attacks a strong player looks at first: one that finishes an opponent off, the surest
        conquest while this turn's card is not earned, the best one on the weakest opponent. During
        reinforcement (no army placed yet) they are judged as if the armies were already there."""
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        bonus = view.pending if view.phase == Phase.REINFORCE else 0
        territories = view.territory_count
        # Neutral armies (2-player RISK) are no prey: beating them wins nothing.
        opponents = [p for p in range(view.humans) if view.alive[p] and p != me]
        if not opponents:
            return []
        weakest = min(opponents, key=lambda p: (territories[p] + self.total_armies(view, p), p))
        foe = self.policy.foe
        finish: tuple[float, Attack] | None = None
        surest: tuple[float, Attack] | None = None
        prey: tuple[float, Attack] | None = None
        for s in range(len(owner)):
            if owner[s] != me:
                continue
            fighting = armies[s] - 1 + bonus
            if fighting < 1:
                continue
            for t in neighbours[s]:
                holder = owner[t]
                if holder == me or not foe(view, me, t):
                    continue
                p = win_probability(fighting, armies[t])
                attack = Attack(s, t, min(3, fighting))
                if not view.conquered_this_turn and (surest is None or p > surest[0]):
                    surest = (p, attack)
                if holder not in opponents:
                    continue  # a neutral: only the card may come from it
                if territories[holder] <= 2 and (finish is None or p > finish[0]):
                    finish = (p, attack)
                if holder == weakest and (prey is None or p > prey[0]):
                    prey = (p, attack)
        chosen: list[Attack] = []
        for option in (finish, surest, prey):
            if option is not None and option[0] >= 0.5 and option[1] not in chosen:
                chosen.append(option[1])
        return chosen

    @staticmethod
    def total_armies(view: View, player: int) -> int:
        armies = view.armies
        return sum(armies[t] for t, owner in enumerate(view.owner) if owner == player)


@mypyc_attr(allow_interpreted_subclasses=True)
class ExpertV1(ExpertBot):
    """The expert as it was before issue 42's item 3, kept to measure against: the warlord of before
    issue 42 (WarlordV1) plays every part at every table."""

    name = "expert-v1"
    description = "the expert before issue 42: the old warlord in its search at every table"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        max_seconds: float = EXPERT_MAX_SECONDS,
        candidates: int = EXPERT_CANDIDATES,
    ) -> None:
        super().__init__(seed, iterations, max_seconds, candidates, RECIPE, RECIPE)


__all__ = [
    "CLASSIC",
    "FULL_TABLE_RECIPE",
    "FULL_TABLE_SEATS",
    "RECIPE",
    "CommittedWarlord",
    "ExpertBot",
    "ExpertV1",
    "Recipe",
    "card_worth",
    "expert_evaluate",
    "safe_bonus",
]
