"""The search bot: Monte Carlo search over determinised games, with a heuristic bot as default policy.

At each decision that matters (placing reinforcements, attacking, moving in after a conquest,
fortifying) the bot takes a short list of candidate actions from the heuristic (its own choice and
its next best ideas, ending the phase included) and spends its budget on them by sequential
halving: each iteration samples the hidden cards and the dice (:func:`determinise`), plays the
candidate, then lets the heuristic play every seat until the bot's next turn begins, and scores the
position (armies, income, cards; 1 for a win, 0 once eliminated). All candidates are played in the
same sampled worlds, and the worse half is dropped after each phase.

Decisions with one sensible answer (setup, defence dice, card trades, a single legal action) are
left to the heuristic: searching them buys nothing. The budget is a number of iterations per
decision, so a seeded game replays exactly; ``max_seconds`` is a safety cap on top.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from risk.bots.aims import goal_progress
from risk.bots.base import Bot
from risk.bots.determinise import determinise
from risk.bots.heuristic import ContinentalBot, HeuristicBot
from risk.bots.teams import units_of
from risk.rules.actions import END_ATTACK, END_TURN, Action, Attack, ClaimMission, Fortify, Occupy, Place
from risk.rules.game import Game, Phase
from risk.view import View

DEFAULT_ITERATIONS = 48
DEFAULT_MAX_SECONDS = 0.5
# A rollout that somehow never reaches the bot's next turn stops here.
ROLLOUT_ACTION_CAP = 3000

# In games with a goal of their own, the share of a leaf's value that is how far the goal is done
# (aims.goal_progress); the rest is the strength share. Measured better in Secret Mission and
# Capital RISK (docs/bots.md); Mission RISK was not measured, so it keeps the share alone.
GOAL_WEIGHT = 0.5
GOAL_GAMES = frozenset({"secret-mission", "capital"})

SEARCHED_PHASES = frozenset(
    {Phase.REINFORCE, Phase.ELIMINATION_TRADE, Phase.ATTACK, Phase.OCCUPY, Phase.FORTIFY}
)


def strength_share(game: Game, me: int, strength: Callable[[int, int], float]) -> float:
    """``me``'s standing in [0, 1]: a won game 1, eliminated 0, otherwise my share of the alive
    players' ``strength(player, armies on the board)``."""
    if game.winner is not None:
        # Team RISK: a teammate's win is ours too.
        team = game.team
        return 1.0 if game.winner == me or (team is not None and team[game.winner] == team[me]) else 0.0
    if not game.alive[me]:
        return 0.0
    armies = [0] * len(game.players)
    if game.units is not None:
        # Team RISK: each seat's units, those on a tied territory (no one's: owner -2) included.
        for stack in game.units:
            for seat, count in enumerate(stack):
                armies[seat] += count
    else:
        for territory, owner in enumerate(game.owner):
            armies[owner] += game.armies[territory]
    total = mine = 0.0
    for player, alive in enumerate(game.alive):
        if not alive:
            continue
        player_strength = strength(player, armies[player])
        total += player_strength
        if player == me:
            mine = player_strength
    return mine / total if total else 0.0


def goal_blend(game: Game, me: int, share: float, weight: float = GOAL_WEIGHT) -> float:
    """``share`` (a strength share, see :func:`strength_share`) blended with how far ``me``'s goal
    is done, ``weight`` of it, in the games of :data:`GOAL_GAMES`; ``share`` itself elsewhere and
    once the game is decided. Reads only ``me``'s own goal: a determinised game's sampled secrets of
    the other players never enter it."""
    if weight <= 0.0 or game.rules.game not in GOAL_GAMES or game.winner is not None or not game.alive[me]:
        return share
    progress = goal_progress(game, me)
    if progress is None:
        return share
    return (1.0 - weight) * share + weight * progress


def evaluate(game: Game, me: int, goal_weight: float = GOAL_WEIGHT) -> float:
    """How good ``game`` is for ``me``, in [0, 1]: a won game 1, eliminated 0, otherwise my share of
    the alive players' strength (armies on the board, income per turn, cards in hand), blended with
    the game's goal where it has one (:func:`goal_blend`)."""
    share = strength_share(
        game,
        me,
        lambda player, armies: armies + 3.0 * game.reinforcement_for(player) + 1.5 * len(game.hands[player]),
    )
    return goal_blend(game, me, share, goal_weight)


def team_evaluate(game: Game, me: int) -> float:
    """Team RISK: half our team's share of the armies on the board, half how far the weakest opposing
    player is from going out before our own weakest (the first player out loses the game)."""
    if game.is_over or not game.alive[me]:
        return strength_share(game, me, lambda player, armies: armies)
    assert game.team is not None
    totals = units_of(game)
    team = game.team[me]
    ours = theirs = 0
    our_weakest = their_weakest = 1 << 30
    for seat in range(game.humans):
        if game.team[seat] == team:
            ours += totals[seat]
            our_weakest = min(our_weakest, totals[seat])
        else:
            theirs += totals[seat]
            their_weakest = min(their_weakest, totals[seat])
    share = ours / max(1, ours + theirs)
    race = our_weakest / max(1, our_weakest + their_weakest)
    return 0.5 * share + 0.5 * race


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
        game: Game = view._game
        default = self.policy.choose(view)
        if game.phase not in SEARCHED_PHASES or game.to_act != view.player:
            return default
        if isinstance(default, ClaimMission):
            return default  # Mission RISK: a card shown now wins a step the evaluation cannot see
        if self.continues_battle(game, default):
            return default
        candidates = self.candidates(game, view.player, default)
        if len(candidates) <= 1:
            return default
        return self.search(view, candidates)

    @staticmethod
    def continues_battle(game: Game, action: Action) -> bool:
        """Whether ``action`` rolls again in the battle the last roll left undecided: the heuristic
        chose to press on at good odds, and searching every roll would spend the budget on dice."""
        battle = game.last_battle
        return (
            isinstance(action, Attack)
            and battle is not None
            and not battle.conquered
            and battle.source == action.source
            and battle.target == action.target
            and game.owner[battle.source] == game.current
        )

    # -- candidates ------------------------------------------------------------------------------
    def candidates(self, game: Game, me: int, default: Action) -> list[Action]:
        """The heuristic's choice first, then its runners-up for this phase, without repeats."""
        phase = game.phase
        policy = self.policy
        options: list[Action] = [default]
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            if not isinstance(default, Place):
                return [default]  # a card trade: the heuristic trades when it may
            pending = game.pending
            weakest, _ = policy.weakest_border(game, me)
            if weakest >= 0:
                options.append(Place(weakest, pending))
            for _, _, attack in policy.attack_options(game, me):
                options.append(Place(attack.source, pending))
        elif phase == Phase.ATTACK:
            options.append(END_ATTACK)
            options.extend(attack for score, _, attack in policy.attack_options(game, me) if score > -1.0)
        elif phase == Phase.OCCUPY:
            low, high = game.occupy_range()
            options.extend((Occupy(high), Occupy(low), Occupy((low + high + 1) // 2)))
        elif phase == Phase.FORTIFY:
            options.append(END_TURN)
            options.extend(self.fortify_options(game, me))
        unique: list[Action] = []
        for action in options:
            # Variants can refuse a world-domination idea (teammates, neutral placements).
            if action not in unique and game.is_legal(action):
                unique.append(action)
            if len(unique) == self.candidate_count:
                break
        return unique

    def fortify_options(self, game: Game, me: int) -> list[Action]:
        """Whole stacks moved to the borders facing the largest threats."""
        owner, armies = game.owner, game.armies
        policy = self.policy
        moves: list[tuple[int, Action]] = []
        for source in range(len(owner)):
            if owner[source] != me or armies[source] < 2:
                continue
            exposed = bool(policy.enemy_neighbours(game, me, source))
            movable = armies[source] - 1 if not exposed else (armies[source] - 1) // 2
            if movable < 1:
                continue
            for target in game.fortify_targets(source):
                threat = policy.threat(game, me, target)
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
        deadline = time.perf_counter() + self.max_seconds
        out_of_time = False
        for _ in range(phases):
            rounds = max(1, self.iterations // (len(alive) * phases))
            for _ in range(rounds):
                world = self.rng.getrandbits(64)
                for arm in alive:
                    game = determinise(view, random.Random(world))
                    game.apply_unchecked(candidates[arm])
                    totals[arm] += self.rollout(game, me)
                    visits[arm] += 1
                    # The safety cap, checked per rollout: a slow machine stops early, not late.
                    if time.perf_counter() > deadline:
                        out_of_time = True
                        break
                if out_of_time:
                    break
            alive.sort(key=lambda i: (-(totals[i] / visits[i]) if visits[i] else math.inf, i))
            if out_of_time:
                break
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return candidates[alive[0]]

    def rollout(self, game: Game, me: int) -> float:
        """Play every seat with the heuristic until ``me``'s next turn begins, then evaluate."""
        policies = self.seat_policies(game)
        start_turn = game.turn
        views = [View(game, player) for player in range(len(game.players))]
        for _ in range(ROLLOUT_ACTION_CAP):
            if game.is_over or (game.turn != start_turn and game.current == me):
                break
            actor = game.to_act
            game.apply_unchecked(policies[actor].choose(views[actor]))
        return self.evaluate(game, me)

    def seat_policies(self, game: Game) -> list[Bot]:
        """The bot that plays each seat in the rollouts (a subclass may model seats differently)."""
        return [self._rollout_policy] * len(game.players)

    def evaluate(self, game: Game, me: int) -> float:
        """The leaf evaluation of a rollout (a subclass may value positions differently)."""
        if game.team is not None:
            return team_evaluate(game, me)
        return evaluate(game, me, self.goal_weight)


__all__ = ["GOAL_GAMES", "GOAL_WEIGHT", "SearchBot", "evaluate", "goal_blend", "team_evaluate"]
