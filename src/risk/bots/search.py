"""The search bot: Monte Carlo search over determinised games, with a heuristic bot as default policy.

At each decision that matters (placing reinforcements, attacking, moving in after a conquest,
fortifying) the bot takes a short list of candidate actions from the heuristic (its own choice and
its next best ideas, ending the phase included) and spends its budget on them by sequential
halving: each iteration samples the hidden cards and the dice (:meth:`View.determinise`), plays the
candidate, then lets the heuristic play every seat until the bot's next turn begins, and scores the
position (armies, income, cards; 1 for a win, 0 once eliminated). All candidates are played in the
same sampled worlds, and the worse half is dropped after each phase.

Decisions with one sensible answer (setup, defence dice, card trades, a single legal action) are
left to the heuristic: searching them buys nothing. The budget is a number of iterations per
decision, so a seeded game replays exactly; ``max_seconds`` is a safety cap on top, in the
process's CPU time (``time.process_time``): other programs loading the machine do not cut a decision
short, so a seeded game replays the same under load unless the bot itself is slow beyond the cap.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from mypy_extensions import mypyc_attr

from risk.bots.aims import goal_progress
from risk.bots.base import Bot
from risk.bots.heuristic import ContinentalBot, HeuristicBot
from risk.bots.teams import units_of
from risk.rules.actions import END_ATTACK, END_TURN, Action, Attack, ClaimMission, Fortify, Occupy, Place
from risk.rules.game import Game, Phase
from risk.rules.goal import GoalKind
from risk.view import View

DEFAULT_ITERATIONS = 48
DEFAULT_MAX_SECONDS = 0.5
# A rollout that somehow never reaches the bot's next turn stops here.
ROLLOUT_ACTION_CAP = 3000

# In games with a goal of their own, the share of a leaf's value that is how far the goal is done
# (aims.goal_progress); the rest is the strength share. Measured better with a secret mission and
# with headquarters (docs/bots.md); Mission RISK's cards were not measured, so they keep the share alone.
GOAL_WEIGHT = 0.5
GOAL_KINDS = frozenset({GoalKind.SECRET_MISSION, GoalKind.HEADQUARTERS})

SEARCHED_PHASES = frozenset(
    {Phase.REINFORCE, Phase.ELIMINATION_TRADE, Phase.ATTACK, Phase.OCCUPY, Phase.FORTIFY}
)


def strength_share(view: View, strength: Callable[[int, int], float], neutrals: bool = True) -> float:
    """``view.player``'s standing in [0, 1]: a won game 1, eliminated 0, otherwise its share of the
    alive players' ``strength(player, armies on the board)``. ``neutrals=False`` leaves out the
    neutral seats that side with no one (2-player RISK): armies that never attack are terrain, not a
    rival, so beating them is worth less than beating the opponent's."""
    me = view.player
    if view.winner is not None:
        # Team RISK: a teammate's win is ours too.
        team = view.team
        return 1.0 if view.winner == me or (team is not None and team[view.winner] == team[me]) else 0.0
    if not view.alive[me]:
        return 0.0
    armies = [0] * len(view.players)
    if view.units is not None:
        # Team RISK: each seat's units, those on a tied territory (no one's: owner -2) included.
        for stack in view.units:
            for seat, count in enumerate(stack):
                armies[seat] += count
    else:
        for territory, owner in enumerate(view.owner):
            armies[owner] += view.armies[territory]
    total = mine = 0.0
    humans = view.humans
    ally = view.ally if not neutrals else ()
    for player, alive in enumerate(view.alive):
        if not alive or (not neutrals and player >= humans and ally[player] < 0):
            continue
        player_strength = strength(player, armies[player])
        total += player_strength
        if player == me:
            mine = player_strength
    return mine / total if total else 0.0


def goal_blend(view: View, share: float, weight: float = GOAL_WEIGHT) -> float:
    """``share`` (a strength share, see :func:`strength_share`) blended with how far ``view.player``'s goal
    is done, ``weight`` of it, in the games whose goal is of :data:`GOAL_KINDS`; ``share`` itself
    elsewhere and once the game is decided. Reads only the player's own goal, through its view: a determinised
    game's sampled secrets of the other players never enter it."""
    me = view.player
    if weight <= 0.0 or view.goal.kind not in GOAL_KINDS or view.winner is not None or not view.alive[me]:
        return share
    progress = goal_progress(view)
    if progress is None:
        return share
    return (1.0 - weight) * share + weight * progress


def evaluate(view: View, goal_weight: float = GOAL_WEIGHT) -> float:
    """How good the game is for ``view.player``, in [0, 1]: a won game 1, eliminated 0, otherwise my share of
    the alive players' strength (armies on the board, income per turn, cards in hand), blended with
    the game's goal where it has one (:func:`goal_blend`)."""
    share = strength_share(
        view,
        lambda player, armies: armies + 3.0 * view.reinforcement_for(player) + 1.5 * view.hand_size(player),
    )
    return goal_blend(view, share, goal_weight)


def team_evaluate(view: View) -> float:
    """Team RISK: half our team's share of the armies on the board, half how far the weakest opposing
    player is from going out before our own weakest (the first player out loses the game)."""
    me = view.player
    if view.is_over or not view.alive[me]:
        return strength_share(view, lambda player, armies: armies)
    assert view.team is not None
    totals = units_of(view)
    team = view.team[me]
    ours = theirs = 0
    our_weakest = their_weakest = 1 << 30
    for seat in range(view.humans):
        if view.team[seat] == team:
            ours += totals[seat]
            our_weakest = min(our_weakest, totals[seat])
        else:
            theirs += totals[seat]
            their_weakest = min(their_weakest, totals[seat])
    share = ours / max(1, ours + theirs)
    race = our_weakest / max(1, our_weakest + their_weakest)
    return 0.5 * share + 0.5 * race


@mypyc_attr(allow_interpreted_subclasses=True)  # bot writers build on it, also compiled
class SearchBot(Bot):
    name = "search"
    description = (
        "Monte Carlo search over determinised hidden cards and dice, continental bot as rollout policy"
    )

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        max_seconds: float = DEFAULT_MAX_SECONDS,
        candidates: int = 5,
        goal_weight: float = GOAL_WEIGHT,
    ) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.goal_weight = goal_weight
        self.max_seconds = max_seconds
        self.candidate_count = candidates
        self.policy: HeuristicBot = ContinentalBot(seed)
        # Rollout policies play every seat; seeded from our own generator, so games replay.
        self._rollout_policy: HeuristicBot = ContinentalBot(self.rng.getrandbits(32))

    def choose(self, view: View) -> Action:
        default = self.policy.choose(view)
        if view.phase not in SEARCHED_PHASES or view.to_act != view.player:
            return default
        if isinstance(default, ClaimMission):
            return default  # Mission RISK: a card shown now wins a step the evaluation cannot see
        if self.continues_battle(view, default):
            return default
        candidates = self.candidates(view, view.player, default)
        if len(candidates) <= 1:
            return default
        return self.search(view, candidates)

    @staticmethod
    def continues_battle(view: View, action: Action) -> bool:
        """Whether ``action`` rolls again in the battle the last roll left undecided: the heuristic
        chose to press on at good odds, and searching every roll would spend the budget on dice."""
        battle = view.last_battle
        return (
            isinstance(action, Attack)
            and battle is not None
            and not battle.conquered
            and battle.source == action.source
            and battle.target == action.target
            and view.owner[battle.source] == view.current
        )

    # -- candidates ------------------------------------------------------------------------------
    def candidates(self, view: View, me: int, default: Action) -> list[Action]:
        """The heuristic's choice first, then its runners-up for this phase, without repeats."""
        phase = view.phase
        policy = self.policy
        options: list[Action] = [default]
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            if not isinstance(default, Place):
                return [default]  # a card trade: the heuristic trades when it may
            pending = view.pending
            weakest, _ = policy.weakest_border(view, me)
            if weakest >= 0:
                options.append(Place(weakest, pending))
            for _, _, attack in policy.attack_options(view, me):
                options.append(Place(attack.source, pending))
        elif phase == Phase.ATTACK:
            options.append(END_ATTACK)
            options.extend(attack for score, _, attack in policy.attack_options(view, me) if score > -1.0)
        elif phase == Phase.OCCUPY:
            low, high = view.occupy_range()
            options.extend((Occupy(high), Occupy(low), Occupy((low + high + 1) // 2)))
        elif phase == Phase.FORTIFY:
            options.append(END_TURN)
            options.extend(self.fortify_options(view, me))
        unique: list[Action] = []
        for action in options:
            # Variants can refuse a world-domination idea (teammates, neutral placements).
            if action not in unique and view.is_legal(action):
                unique.append(action)
            if len(unique) == self.candidate_count:
                break
        return unique

    def fortify_options(self, view: View, me: int) -> list[Action]:
        """Whole stacks moved to the borders facing the largest threats."""
        owner, armies = view.owner, view.armies
        policy = self.policy
        moves: list[tuple[int, Action]] = []
        for source in range(len(owner)):
            if owner[source] != me or armies[source] < 2:
                continue
            exposed = bool(policy.enemy_neighbours(view, me, source))
            movable = armies[source] - 1 if not exposed else (armies[source] - 1) // 2
            if movable < 1:
                continue
            for target in view.fortify_targets(source):
                threat = policy.threat(view, me, target)
                if threat > 0:
                    moves.append((threat - armies[target], Fortify(source, target, movable)))
        moves.sort(key=lambda move: move[0], reverse=True)
        return [move for _, move in moves[:3]]

    # -- search ----------------------------------------------------------------------------------
    def search(self, view: View, candidates: list[Action]) -> Action:
        """Sequential halving with common random numbers: in each round every surviving candidate
        is played in the same sampled world (hidden cards and dice seed), so the comparison sees
        the candidates' differences rather than the luck of the dice; after each phase the worse
        half is dropped. Returns the candidate with the best mean."""
        me = view.player
        # A budget smaller than the list keeps the heuristic's first ideas (it comes first).
        candidates = candidates[: max(1, self.iterations)]
        count = len(candidates)
        if count == 1:
            return candidates[0]
        visits = [0] * count
        totals = [0.0] * count
        alive = list(range(count))
        phases = max(1, math.ceil(math.log2(count)))
        deadline = time.process_time() + self.max_seconds
        out_of_time = False
        for _ in range(phases):
            rounds = max(1, self.iterations // (len(alive) * phases))
            for _ in range(rounds):
                world = self.rng.getrandbits(64)
                for arm in alive:
                    sample = view.determinise(random.Random(world))
                    sample.apply_unchecked(candidates[arm])
                    totals[arm] += self.rollout(sample, me, self.own_policy(candidates[arm]))
                    visits[arm] += 1
                    # The safety cap, checked per rollout: a slow machine stops early, not late.
                    if time.process_time() > deadline:
                        out_of_time = True
                        break
                if out_of_time:
                    break
            alive.sort(key=lambda i: (-(totals[i] / visits[i]) if visits[i] else math.inf, i))
            if out_of_time:
                break
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return candidates[alive[0]]

    def rollout(self, sample: Game, me: int, own: Bot | None = None) -> float:
        """Play every seat of ``sample`` (a determinised game: the bot's own, which it plays on) with
        the heuristic until ``me``'s next turn begins, then evaluate ``me``'s view of it. The seats'
        policies read it through their views, as in a real game. ``own``, when given, plays ``me``
        for the rest of this turn (a candidate that commits to a plan)."""
        views = [View(sample, player) for player in range(len(sample.players))]
        policies = self.seat_policies(views[me])
        if own is not None:
            policies = list(policies)
            policies[me] = own
        start_turn = sample.turn
        for _ in range(ROLLOUT_ACTION_CAP):
            if sample.is_over or (sample.turn != start_turn and sample.current == me):
                break
            if own is not None and sample.turn != start_turn:
                policies[me], own = self.seat_policies(views[me])[me], None
            actor = sample.to_act
            sample.apply_unchecked(policies[actor].choose(views[actor]))
        return self.evaluate(views[me])

    def own_policy(self, candidate: Action) -> Bot | None:
        """The policy that plays the bot's own seat for the rest of the turn after ``candidate``
        (None: the rollout policy; a subclass may commit a candidate to a plan)."""
        return None

    def seat_policies(self, view: View) -> list[Bot]:
        """The bot that plays each seat in the rollouts (a subclass may model seats differently)."""
        return [self._rollout_policy] * len(view.players)

    def evaluate(self, view: View) -> float:
        """The leaf evaluation of a rollout, for ``view.player`` (a subclass may value positions
        differently)."""
        if view.team is not None:
            return team_evaluate(view)
        return evaluate(view, self.goal_weight)


__all__ = ["GOAL_KINDS", "GOAL_WEIGHT", "SearchBot", "evaluate", "goal_blend", "team_evaluate"]
