"""Search and game theory (issue 40 item 5): RiskEnv's OpenSpiel-style hooks (clone, snapshot and
restore, the information-state tensor, a battle's roll as a step the caller chooses) and the game
registered with OpenSpiel (risk.env.spiel), on which OpenSpiel's own tests and algorithms run."""

from __future__ import annotations

import random
import sys
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

from risk.bots import make_bot
from risk.bots.protocol import ExternalBot
from risk.env import AGENT, RiskEnv
from risk.env.chance import battle_outcomes
from risk.env.spiel import RiskState  # (importing it registers python_risk)
from risk.errors import IllegalActionError, RulesError
from risk.odds import roll_outcomes
from risk.rules.game import Game
from risk.view import View
from test_server_secrets import perturb

# A short game on the small board: territories dealt, few armies, three turns.
SMALL = {"board": "crossroads", "max_turns": 3, "options": "setup=deal,starting-armies=3:12"}


def random_steps(env: RiskEnv, rng: random.Random, count: int) -> list[int]:
    """Step ``count`` random legal actions (fewer if the game ends); the actions stepped."""
    stepped = []
    for _ in range(count):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        action = rng.choice(sorted(env.legal().indices()))
        env.step(action)
        stepped.append(action)
    return stepped


def state_of(env: RiskEnv) -> tuple[Any, ...]:
    """Everything that makes the environment's state: the whole game (its generator included) and the
    agents' bookkeeping."""
    assert env.game is not None
    return (
        env.game.to_dict(),
        env.agent_selection,
        list(env.agents),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
    )


# -- clone, snapshot and restore ---------------------------------------------------------------------------


def test_a_clone_goes_on_exactly_as_the_original_and_apart_from_it() -> None:
    env = RiskEnv("2008", "world", [AGENT, "quick", "hard"], board="crossroads", max_turns=60)
    env.reset(seed=4)
    random_steps(env, random.Random(1), 40)
    clone, apart = env.clone(), env.clone()
    assert clone.game is not env.game and clone.bots[2] is not env.bots[2]
    assert clone.rewards is not env.rewards and clone.infos is not env.infos
    # Stepping a clone alone leaves the original as it was.
    before = state_of(env)
    assert random_steps(apart, random.Random(3), 10)
    assert state_of(env) == before != state_of(apart)
    # The same actions: the same game, bots' choices and generator included, step by step.
    rng = random.Random(2)
    steps = 0
    while steps < 60:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        steps += 1
        action = rng.choice(sorted(env.legal().indices()))
        env.step(action)
        clone.step(action)
        assert state_of(clone) == state_of(env)
        for seat_agent in env.agents:
            assert np.array_equal(
                clone.information_state_tensor(seat_agent), env.information_state_tensor(seat_agent)
            )
    assert steps > 10


def test_restore_puts_back_the_snapshot_as_often_as_asked() -> None:
    env = RiskEnv("2003", "world", [AGENT, "warlord", AGENT], board="crossroads", max_turns=15)
    env.reset(seed=8)
    random_steps(env, random.Random(5), 25)
    snapshot = env.snapshot()
    at_snapshot = state_of(env)
    rng_state = random.Random(6).getstate()
    runs = []
    for _ in range(2):
        env.restore(snapshot)
        assert state_of(env) == at_snapshot
        rng = random.Random()
        rng.setstate(rng_state)
        actions = random_steps(env, rng, 50)
        runs.append((actions, state_of(env)))
    assert runs[0] == runs[1] and len(runs[0][0]) > 10
    other = RiskEnv("2008", "world", [AGENT, AGENT, AGENT], board="crossroads")
    other.reset(seed=1)
    with pytest.raises(RulesError, match="other settings"):
        other.restore(snapshot)


def test_a_bot_in_another_process_cannot_be_cloned() -> None:
    env = RiskEnv("2008", "world", [AGENT, "quick", "quick"], board="crossroads")
    env.reset(seed=1)
    env.bots[1] = ExternalBot([sys.executable, "-c", "pass"], 1)  # (never started: it never plays)
    with pytest.raises(RulesError, match="cannot be cloned"):
        env.clone()


# -- a battle's roll as a step ---------------------------------------------------------------------------


def test_chance_outcomes_are_exact_and_step_with_outcome_rolls_the_dice_given() -> None:
    """Every step that rolls a battle whose dice may be chosen (the agent's defence, its attack on one
    army, a bot's defence against it): outcomes summing to 1, equal to risk.odds; the dice given are
    rolled (the generator goes on as if it had rolled)."""
    env = RiskEnv("2008", "world", [AGENT, "quick", AGENT], board="crossroads", max_turns=20)
    env.reset(seed=2)
    rng = random.Random(9)
    rolled_by: Counter[str] = Counter()
    for _ in range(1500):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        game = env.game
        assert game is not None
        action = rng.choice(sorted(env.legal().indices()))
        outcomes = env.chance_outcomes(action)
        if not outcomes:
            env.step(action)
            continue
        attacker_dice, defender_dice = len(outcomes[0].attacker_dice), len(outcomes[0].defender_dice)
        assert sum(o.probability for o in outcomes) == 1
        assert {(o.attacker_losses, o.defender_losses): o.probability for o in outcomes} == roll_outcomes(
            attacker_dice, defender_dice
        )
        by_dice = env.chance_outcomes(action, "dice")
        assert sum(o.probability for o in by_dice) == 1 and len(by_dice) >= len(outcomes)
        pick = rng.choice(by_dice if rng.random() < 0.5 else outcomes)
        found = env._battle_in_step(action)
        assert found is not None
        rolled_by["a bot's defence" if found[0] == 1 else type(env.legal().get(action)).__name__] += 1
        before = len(game.history)
        env.step_with_outcome(action, pick)
        dice = [value for kind, what, value in game.history[before:] if kind == "chance" and what == "dice"]
        assert dice[0] == (pick.attacker_dice, pick.defender_dice)
    assert rolled_by["Defend"] > 3 and rolled_by["a bot's defence"] > 3, rolled_by


def test_a_step_that_rolls_nothing_to_choose_refuses_an_outcome_and_changes_nothing() -> None:
    env = RiskEnv("2008", "world", [AGENT, AGENT, AGENT], board="crossroads")
    env.reset(seed=3)
    action = sorted(env.legal().indices())[0]  # a claim
    assert env.chance_outcomes(action) == ()
    before = state_of(env)
    with pytest.raises(IllegalActionError, match="rolls no battle"):
        env.step_with_outcome(action, battle_outcomes(1, 1)[0])
    with pytest.raises(IllegalActionError):
        env.chance_outcomes(env.codec.size - 1)  # not legal now
    assert state_of(env) == before


def test_the_outcomes_by_losses_and_by_dice_agree_with_risk_odds() -> None:
    for attacker in (1, 2, 3):
        for defender in (1, 2):
            exact = roll_outcomes(attacker, defender)
            for grain in ("losses", "dice"):
                summed: dict[tuple[int, int], Fraction] = {}
                for outcome in battle_outcomes(attacker, defender, grain):
                    losses = (outcome.attacker_losses, outcome.defender_losses)
                    summed[losses] = summed.get(losses, Fraction(0)) + outcome.probability
                assert summed == exact
    assert len(battle_outcomes(3, 2, "dice")) == 56 * 21
    with pytest.raises(RulesError, match="'losses' or 'dice'"):
        battle_outcomes(3, 2, "faces")


def test_a_game_whose_dice_may_change_after_the_roll_gives_its_outcomes_by_dice() -> None:
    env = RiskEnv(
        "1993", "world", [AGENT, AGENT, AGENT], options={"attack-advantage": "on"}, board="crossroads"
    )
    env.reset(seed=1)
    game = env.game
    assert game is not None
    rng = random.Random(4)
    while game.turn < 3:
        action = rng.choice(sorted(env.legal().indices()))
        outcomes = env.chance_outcomes(action)
        if outcomes:
            assert len(outcomes) == len(
                battle_outcomes(len(outcomes[0].attacker_dice), len(outcomes[0].defender_dice), "dice")
            )
            with pytest.raises(RulesError, match="by 'dice'"):
                env.chance_outcomes(action, "losses")
            return
        env.step(action)
    raise AssertionError("no battle in three turns")


# -- the information-state tensor -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "game", "players"), [("2008", "world", 3), ("1993", "secret-mission", 4)]
)
def test_the_information_state_does_not_depend_on_what_the_player_may_not_see(
    edition: str, game: str, players: int
) -> None:
    """Two games differing only in what a seat may not see (other hands and missions, the draw pile, the
    generator) give that seat the same information-state tensor."""
    env = RiskEnv(edition, game, [AGENT] * players)
    env.reset(seed=6)
    rng = random.Random(7)
    checked = 0
    for step in range(600):
        if env.terminations[env.agent_selection]:
            break
        if step % 50 == 0:
            state = env.game
            assert state is not None
            for agent, seat in env.seat_of.items():
                expected = env.information_state_tensor(agent)
                assert expected.dtype == np.float32 and expected.shape == (
                    env.observer.information_state_size(),
                )
                other = env.clone()
                other.game = perturb(state, seat, rng)
                other.views = [View(other.game, s) for s in range(len(other.game.players))]
                assert np.array_equal(other.information_state_tensor(agent), expected)
                checked += 1
        env.step(rng.choice(sorted(env.legal().indices())))
    assert checked >= 20


def test_the_information_state_shows_the_own_hand() -> None:
    env = RiskEnv("1993", "secret-mission", [AGENT] * 4)
    env.reset(seed=5)
    flat = env.information_state_tensor("player_0")
    observation = env.observe("player_0")
    assert np.array_equal(flat, env.observer.information_state(observation))
    with pytest.raises(RulesError, match="no agent"):
        env.information_state_tensor("player_9")


# -- the OpenSpiel game ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        SMALL,
        {**SMALL, "game": "two-player", "players": 2, "options": "starting-armies=2:12", "chance": "dice"},
        {
            **SMALL,
            "edition": "1993",
            "options": "setup=deal,starting-armies=3:12,attack-advantage=on",
            "chance": "",
        },
        {**SMALL, "options": "setup=deal,starting-armies=3:12,fog=on"},
    ],
    ids=["world", "two-player-dice", "1993-experts", "fog"],
)
def test_openspiels_random_simulation_tests_pass(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_risk", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_chance_nodes_are_the_battles_rolls_with_their_exact_odds() -> None:
    game = pyspiel.load_game("python_risk", {**SMALL, "max_turns": 6})
    rng = random.Random(3)
    chance_nodes = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
            assert all(0 <= number < game.max_chance_outcomes() for number, _ in outcomes)
            chance_nodes += 1
            number = rng.choice([n for n, _ in outcomes])
            before = len(state.engine.history)
            state.apply_action(number)
            rolled = [v for k, w, v in state.engine.history[before:] if k == "chance" and w == "dice"]
            attack, defence = rolled[0]
            shown = battle_outcomes(len(attack), len(defence))[
                [o.number("losses") for o in battle_outcomes(len(attack), len(defence))].index(number)
            ]
            assert (attack, defence) == (shown.attacker_dice, shown.defender_dice)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes > 5
    assert state.returns() == [0.0, 0.0, 0.0]  # the turn cap: a draw


def test_the_tensors_are_the_players_views_and_a_clone_is_independent() -> None:
    game = pyspiel.load_game("python_risk", SMALL)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(40):
        state.apply_action(
            rng.choice(state.legal_actions()) if not state.is_chance_node() else state.chance_outcomes()[0][0]
        )
    clone = state.clone()
    for player in range(game.num_players()):
        tensor = np.array(state.information_state_tensor(player), dtype=np.float32)
        assert tensor.shape == tuple(game.information_state_tensor_shape())
        env_observer = state._shared.observer
        assert np.array_equal(
            tensor, env_observer.information_state(env_observer.build(View(state.engine, player), None))
        )
        assert np.array_equal(tensor, np.array(state.observation_tensor(player), dtype=np.float32))
        assert state.information_state_string(player).startswith(state.observation_string(player))
    while not clone.is_terminal():
        clone.apply_action(
            rng.choice(clone.legal_actions()) if not clone.is_chance_node() else clone.chance_outcomes()[0][0]
        )
    assert clone.engine.to_dict() != state.engine.to_dict()
    assert len(state.history()) == 40


def test_mcts_plays_a_short_capped_game_to_its_end() -> None:
    game = pyspiel.load_game("python_risk", SMALL)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng)
        for _ in range(game.num_players())
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert list(returns) == [0.0] * game.num_players()  # three turns: the cap ends it


def test_bots_playing_through_openspiel_win_and_the_returns_say_so() -> None:
    """The engine's quick bots play every seat through the OpenSpiel state (their choices as action
    indices, the rolls sampled at the chance nodes) until one wins: +1 to it, -1 to the others."""
    game = pyspiel.load_game("python_risk", {"board": "crossroads", "max_turns": 200, "seed": 3})
    state: RiskState = game.new_initial_state()
    codec = state._shared.codec
    bots = [make_bot("quick", seat) for seat in range(game.num_players())]
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            numbers, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(numbers, weights)[0])
            continue
        seat = state.current_player()
        index = codec.encode(bots[seat].choose(state.view(seat)), state.view(seat))
        state.apply_action(index if index is not None else rng.choice(state.legal_actions()))
    outcome = state.engine.outcome()
    assert outcome is not None
    assert state.returns() == [1.0 if seat in outcome.winners else -1.0 for seat in range(game.num_players())]


def test_a_policy_evaluation_of_uniform_random_play() -> None:
    """The expected returns of uniform random play over sampled games (OpenSpiel's bots, evaluate_bots):
    each game capped, so every return is 0, and the estimate is the mean of the samples."""
    game = pyspiel.load_game("python_risk", SMALL)
    players = game.num_players()
    totals = np.zeros(players)
    for seed in range(4):
        bots = [pyspiel.make_uniform_random_bot(player, seed * players + player) for player in range(players)]
        totals += evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
    assert list(totals / 4) == [0.0] * players


def test_bad_parameters_are_refused_with_a_clear_error() -> None:
    with pytest.raises(RulesError, match="name=value"):
        pyspiel.load_game("python_risk", {"options": "fog"})
    with pytest.raises(RulesError, match="max_turns"):
        pyspiel.load_game("python_risk", {"max_turns": 0})
    with pytest.raises(RulesError, match="'losses' or 'dice'"):
        pyspiel.load_game("python_risk", {"chance": "faces"})


def test_a_state_built_for_every_seat_count_of_the_board() -> None:
    for players in (3, 4, 5, 6):
        game = pyspiel.load_game(
            "python_risk", {"edition": "1993", "players": players, "board": "classic", "max_turns": 1}
        )
        assert game.num_players() == players
        state = game.new_initial_state()
        assert isinstance(state.engine, Game) and len(state.legal_actions()) == 42
