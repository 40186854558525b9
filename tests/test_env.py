"""risk.env: the PettingZoo and Gymnasium environments (issue 24, items 1 and 2).

Every game type of :data:`risk.env.GAME_TYPES` passes PettingZoo's ``api_test`` and ``seed_test`` and
Gymnasium's ``check_env``; the action space maps one-to-one onto the engine's legal actions (every
action class of every game type met in real games); observations depend on nothing the player may
not see; illegal actions are refused with a clear error (or end the game with the penalty).
"""

from __future__ import annotations

import doctest
import json
import random
import re
import subprocess
import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from fogged import fogged_positions, hidden_territories, perturb_fogged
from risk.bots import make_bot
from risk.env import AGENT, GAME_TYPES, RiskEnv, RiskGymEnv, choice_counts
from risk.errors import IllegalActionError, RulesError
from risk.rules import actions as A
from risk.rules.game import Game, Phase
from risk.view import View
from test_server_secrets import perturb

IDS = [
    f"{edition}-{game}-{players}p" + ("-" + "-".join(options) if options else "")
    for edition, game, options, players in GAME_TYPES
]
COUNTED = (A.Place, A.Fortify, A.Occupy)
TRADING = (Phase.REINFORCE, Phase.ELIMINATION_TRADE)


def make_env(edition: str, game: str, options: dict[str, str], players: int, **kwargs: Any) -> RiskEnv:
    seats = kwargs.pop("seats", None) or [AGENT if seat % 2 == 0 else "quick" for seat in range(players)]
    return RiskEnv(edition, game, seats, options=options, **kwargs)


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice (a dict observation is "not a NumPy array")
        # Enough cycles to play through the setup and the turns to the cap (or the end).
        api_test(make_env(edition, game, options, players, max_turns=40), num_cycles=3000)
        seed_test(lambda: make_env(edition, game, options, players, max_turns=40), num_cycles=3000)


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_gymnasium_and_sb3_check_env_pass_on_the_default_set_up(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    seats = [AGENT, *(["random", "quick"] * players)[: players - 1]]
    # Called as their docs call them, on the default environment: they step with unmasked samples,
    # which the default illegal_action="remap" plays as legal ones (the game goes on).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # their advice (a dict observation, no render mode chosen)
        check_env(RiskGymEnv(edition, game, seats, options=options))
        sb3_check_env(RiskGymEnv(edition, game, seats, options=options))
        check_env(
            RiskGymEnv(edition, game, seats, options=options, observation="flat", render_mode="rgb_array")
        )


def play_at_random(env: RiskEnv, seed: int) -> Counter[str]:
    """Every learning agent plays random legal actions to the end; each agent's total reward."""
    totals: Counter[str] = Counter()
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_all_learning_seats_play_whole_games_to_win_or_loss() -> None:
    """Three agents playing at random finish games; the winner gets +1, the others -1 in all."""
    finished = 0
    for seed in range(3):
        env = RiskEnv("2008", "world", [AGENT, AGENT, "quick"], max_turns=400)
        env.reset(seed=seed)
        totals = play_at_random(env, seed)
        game = env.game
        assert game is not None
        if game.is_over:
            finished += 1
            for agent, seat in env.seat_of.items():
                assert totals[agent] == (1.0 if game.winner == seat else -1.0)
        else:
            assert all(total == 0.0 for total in totals.values())
    assert finished >= 1


def test_team_members_share_the_team_reward() -> None:
    env = RiskEnv("2003", "team", [AGENT, "quick", AGENT, "quick"], max_turns=300)
    for seed in range(6):
        env.reset(seed=seed)
        totals = play_at_random(env, seed)
        game = env.game
        assert game is not None and game.team is not None
        if game.is_over:
            # Seats 0 and 2 are a team in a 4-player game: one reward for both, won or lost.
            assert game.team[0] == game.team[2]
            assert totals["player_0"] == totals["player_2"] == (1.0 if 0 in game.outcome().winners else -1.0)
            return
    pytest.fail("no team game finished in six seeds")


def test_the_turn_cap_is_a_draw_and_shaped_rewards_follow_the_board_share() -> None:
    env = RiskEnv("2008", "world", [AGENT, "random", "random"], max_turns=5, reward="shaped")
    env.reset(seed=4)
    game = env.game
    assert game is not None
    first_share = game.territory_count[0] / 42
    total = 0.0
    rng = np.random.default_rng(0)
    for _ in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        total += reward
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert not game.is_over and game.turn == 6
    # No win or loss at the cap; the shaped rewards telescope to 0.1 x the change in the share held.
    assert total == pytest.approx(0.1 * (game.territory_count[0] / 42 - first_share))
    assert total != 0.0


def test_an_illegal_action_is_refused_with_a_clear_error_and_changes_nothing() -> None:
    env = RiskEnv("2008", "world", [AGENT, "quick", "quick"])
    env.reset(seed=2)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    game = env.game
    assert game is not None
    before = game.to_dict()
    meaning = re.escape(env.codec.describe(illegal))
    message = rf"^action {illegal} \({meaning}\) is not legal now for agent-1 \("
    with pytest.raises(IllegalActionError, match=message):
        env.step(illegal)
    with pytest.raises(IllegalActionError, match="not in the action space"):
        env.step(env.codec.size)
    with pytest.raises(IllegalActionError, match="an action is a whole number"):
        env.step("attack")
    assert game.to_dict() == before
    assert not any(env.terminations.values())


def test_with_illegal_action_lose_an_illegal_action_ends_the_game_with_the_penalty() -> None:
    env = RiskEnv("2008", "world", [AGENT, AGENT, "quick"], illegal_action="lose", illegal_reward=-5.0)
    env.reset(seed=2)
    offender = env.agent_selection
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    rewards = {}
    for agent in env.agent_iter():
        _, rewards[agent], terminated, _, info = env.last()
        assert terminated and (info == {} or "is not legal now" in info["illegal_action"])
        env.step(None)
    assert rewards[offender] == -5.0 and all(r == 0.0 for a, r in rewards.items() if a != offender)
    assert not env.agents


def test_bad_settings_are_refused_in_one_line() -> None:
    with pytest.raises(RulesError, match="reward must be one of win, shaped"):
        RiskEnv(reward="points")
    with pytest.raises(RulesError, match='at least one "agent"'):
        RiskEnv(seats=["quick", "quick", "quick"])
    with pytest.raises(ValueError, match="no bot or level called 'nobody'"):
        RiskEnv(seats=[AGENT, "nobody", "quick"])
    with pytest.raises(RulesError, match="2003 rulebook has no capital game"):
        RiskEnv("2003", "capital")
    with pytest.raises(RulesError, match="exactly one"):
        RiskGymEnv(seats=[AGENT, AGENT, "quick"])


# -- the action mapping ---------------------------------------------------------------------------------

# The action classes each game type must show in real games (the engine lists them as legal).
BASE = {A.Place, A.Trade, A.Attack, A.Defend, A.Occupy, A.EndAttack, A.Fortify, A.EndTurn}
EXPECTED = {
    "world": BASE | {A.Claim},
    "secret-mission": BASE,
    "capital": BASE | {A.Capital},
    "two-player": BASE,
    "mission": BASE | {A.Claim, A.ClaimMission},
    "team": BASE | {A.Claim},
}
EXTRA = {
    "neutral-mode": {A.Bribe, A.ReinforceAlly, A.CallOff},
    "commanders": {A.Reroll, A.Commander, A.AcceptDice},
}


def check_position(env: RiskEnv, view: View, seen: set[type]) -> None:
    """Every legal index names a different legal action; every engine action without a count has
    its index and back; every counted head has its fewest and most counts."""
    legal = env.codec.legal(view)
    engine = list(view.legal_actions())
    assert len(set(legal.actions.values())) == len(legal.actions)
    for index, action in legal.actions.items():
        assert view.is_legal(action), (env.codec.describe(index), action)
        assert env.codec.decode(index, view, legal) == action
    ranges: dict[Any, list[int]] = {}
    for action in engine:
        seen.add(type(action))
        if isinstance(action, COUNTED):
            ranges.setdefault(_head(action), []).append(action.armies)
        elif isinstance(action, A.Trade) and len(view.hand) > env.codec.max_hand:
            continue
        else:
            index = env.codec.encode(action, view)
            assert index is not None and legal.actions[index] == action
    counted = [a for a in legal.actions.values() if isinstance(a, COUNTED)]
    for head, counts in ranges.items():
        low, high = min(counts), max(counts)
        assert counts == list(range(low, high + 1))
        mine = sorted(a.armies for a in counted if _head(a) == head)
        assert mine == sorted(set(choice_counts(low, high)))
    assert len(counted) == sum(len(set(choice_counts(min(c), max(c)))) for c in ranges.values())


def positions_played_by_bots(env: RiskEnv, seed: int, levels: tuple[str, str], turns: int) -> Iterator[View]:
    """A game of ``env`` reset with ``seed`` played by bots straight on the engine (the even seats
    ``levels[0]``, the odd ones ``levels[1]``) to its end or turn ``turns``: each position, as the
    View of the seat to act (the bot then plays its move)."""
    env.reset(seed=seed)
    state = env.game
    assert state is not None
    bots = [make_bot(levels[seat % 2], seed + seat) for seat in range(len(env.seat_specs))]
    while not state.is_over and state.turn <= turns:
        view = env.views[state.to_act]
        yield view
        state.apply(bots[state.to_act].choose(view))


def _head(action: Any) -> Any:
    if isinstance(action, A.Occupy):
        return A.Occupy(1)
    if isinstance(action, A.Place):
        return A.Place(action.territory, 1)
    return A.Fortify(action.source, action.target, 1)


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_the_action_space_maps_every_legal_action_class_one_to_one(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    expected = set(EXPECTED[game])
    for option, classes in EXTRA.items():
        if option in options:
            expected |= classes
    env = make_env(edition, game, options, players, seats=[AGENT] * players)
    seen: set[type] = set()
    for seed in range(40):
        for steps, view in enumerate(positions_played_by_bots(env, seed, ("random", "quick"), 120)):
            # Every position with a choice of sets; a third of the others.
            if steps % 3 == 0 or view.phase in TRADING or type(view.legal_actions()[0]) not in seen:
                check_position(env, view, seen)
        if expected <= seen:
            break
    assert expected <= seen, f"never met: {sorted(c.__name__ for c in expected - seen)}"


def test_trades_of_cards_past_the_hand_slots_are_left_out_and_a_set_is_always_left() -> None:
    game = Game("2008", 3, seed=1)
    while game.phase.name in ("CLAIM", "SETUP_PLACE"):
        game.apply(next(iter(game.legal_actions())))
    env = RiskEnv("2008", "world", [AGENT] * 3, max_hand=5)
    view = View(game, game.to_act)
    hand = sorted(game.deck[:7])
    game.hands[game.to_act][:] = hand  # seven cards: slots 0-4 only
    legal = env.codec.legal(view)
    trades = [a for a in legal.actions.values() if isinstance(a, A.Trade)]
    assert trades and all(set(t.cards) <= set(hand[:5]) for t in trades)


# -- speed: what is kept from step to step -------------------------------------------------------------


def play_observing(env: RiskEnv, seed: int, check: Any) -> int:
    """Play one game with random legal actions, calling ``check(agent)`` for the agent to act at every
    step and, at random steps, for other agents too (so that a seat's observations come after gaps
    of one step and of many). The steps played."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    for agent in env.agent_iter():
        check(agent)
        if rng.random() < 0.3:
            check(rng.choice(env.possible_agents))
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def expected_legal(env: RiskEnv, agent: str) -> list[int] | None:
    """The legal indices an agent's observation shows (None: it is not the one to act)."""
    game, seat = env.game, env.seat_of[agent]
    assert game is not None
    acting = game.to_act == seat and not game.is_over and agent in env.agents
    if not acting or env.terminations[agent] or env.truncations[agent]:
        return None
    return env.legal().indices()


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_incremental_observations_equal_observations_built_from_scratch(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    """Each seat's observation is updated from its last one (only what changed); at every step of
    whole games it equals the observation built from the View alone, array by array."""
    env = make_env(edition, game, options, players, seats=[AGENT] * players, max_turns=40)
    compared = 0

    def check(agent: str) -> None:
        nonlocal compared
        seat = env.seat_of[agent]
        observed = env.observe(agent)
        built = env.observer.build(env.views[seat], expected_legal(env, agent))
        assert observed.keys() == built.keys()
        for key, array in built.items():
            mine = observed[key]
            assert mine.dtype == array.dtype and mine.shape == array.shape, (key, compared)
            assert np.array_equal(mine, array), (key, agent, compared)
        compared += 1

    steps = sum(play_observing(env, seed, check) for seed in range(2))
    assert steps > 200 and compared > steps


def test_observations_are_arrays_of_their_own() -> None:
    """An observation shares no memory with another or with what the environment keeps: changing
    one changes nothing else, and the environment never writes into one it returned."""
    env = RiskEnv("2003", "world", [AGENT] * 3, max_turns=30)
    handed: list[tuple[dict[str, Any], dict[str, Any]]] = []  # each observation and a copy of it

    def check(agent: str) -> None:
        observation = env.observe(agent)
        for earlier, _ in handed[-3:]:
            for key, array in observation.items():
                assert not np.shares_memory(array, earlier[key]), key
        for array in observation.values():
            array.fill(7)  # a caller scribbling on its observation
        handed.append((observation, {key: array.copy() for key, array in observation.items()}))

    play_observing(env, 4, check)
    assert len(handed) > 100
    for observation, copy in handed:
        for key, array in observation.items():
            assert np.array_equal(array, copy[key]), f"the environment wrote into a returned {key}"
    for agent, seat in env.seat_of.items():  # and what it keeps is not what the callers scribbled on
        fresh = env.observe(agent)
        built = env.observer.build(env.views[seat], expected_legal(env, agent))
        assert all(np.array_equal(fresh[key], built[key]) for key in built)


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_the_phases_read_from_the_view_give_the_engines_legal_actions(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    """Where the codec reads the legal actions from the View (the phases of the core's generators),
    it gives the same indices and actions as mapping the engine's own list, at every position."""
    env = make_env(edition, game, options, players, seats=[AGENT] * players)
    read: Counter[Phase] = Counter()
    for seed in range(3):
        for view in positions_played_by_bots(env, seed, ("quick", "random"), 60):
            fast = env.codec.legal(view)
            listed = env.codec._listed(view)
            assert sorted(fast.indices()) == sorted(listed.indices()), view.phase
            assert fast.actions == listed.actions, view.phase
            if view.phase in env.codec._plain_phases:
                read[view.phase] += 1
    if game in ("world", "secret-mission", "two-player") and not options:
        # Every phase of a plain game's turns is read from the View (the 1993 free move too).
        turn = {Phase.SETUP_PLACE, Phase.REINFORCE, Phase.ATTACK, Phase.DEFEND, Phase.OCCUPY, Phase.FORTIFY}
        assert turn <= set(read), sorted(phase.name for phase in turn - set(read))
        assert Phase.CLAIM in read or game != "world"
    assert read, "no phase read from the View"


# -- secrets ----------------------------------------------------------------------------------------------

SECRET_GAMES = [t for t in GAME_TYPES if t[1] in ("world", "secret-mission", "capital", "mission", "team")]


@pytest.mark.parametrize(("edition", "game", "options", "players"), SECRET_GAMES)
def test_observations_do_not_depend_on_what_the_player_may_not_see(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    """Two games differing only in what a seat may not see (other hands, missions, the draw pile, the
    generator and so the future) give that seat identical observations and masks."""
    env = make_env(edition, game, options, players, seats=[AGENT] * players)
    env.reset(seed=11)
    state = env.game
    assert state is not None
    bots = [make_bot("quick", seat) for seat in range(players)]
    rng = random.Random(3)
    checked = step = 0
    while not state.is_over and state.turn <= 60:
        if step % 17 == 0:
            for seat in range(state.humans):
                expected = observe(env, state, seat)
                for _ in range(2):
                    other = observe(env, perturb(state, seat, rng), seat)
                    assert expected.keys() == other.keys()
                    for key in expected:
                        assert np.array_equal(expected[key], other[key]), (key, seat, step)
                checked += 1
        state.apply(bots[state.to_act].choose(View(state, state.to_act)))
        step += 1
    assert checked > 10


def observe(env: RiskEnv, game: Game, seat: int) -> dict[str, Any]:
    view = View(game, seat)
    legal = env.codec.legal(view).indices() if game.to_act == seat else None
    return env.observer.observe(view, legal)


def test_an_observation_shows_the_own_mission_and_hand_and_hides_the_others() -> None:
    env = RiskEnv("1993", "secret-mission", [AGENT] * 4)
    env.reset(seed=5)
    game = env.game
    assert game is not None
    for agent, seat in env.seat_of.items():
        observation = env.observe(agent)
        assert observation["mission"][0] > 0
        assert observation["hand"].sum() == len(game.hands[seat])
        assert (observation["seats"][:, 5] == [len(game.hands[(seat + r) % 4]) for r in range(4)]).all()
        assert observation["owner"][game.owner.index(seat)] == 0  # relative: the observer is seat 0


# -- boards -------------------------------------------------------------------------------------------------


def test_any_board_the_engine_loads(tmp_path: Path) -> None:
    board = {
        "name": "square",
        "continents": [{"name": "North", "bonus": 2}, {"name": "South", "bonus": 3}],
        "territories": [
            {"name": n, "continent": "North" if i < 3 else "South"} for i, n in enumerate("abcdefg")
        ],
        "links": [{"between": [a, b]} for a, b in ["ab", "bc", "cd", "de", "ef", "fg", "ga", "ad"]],
        "deck": {"symbols": "in-turn"},  # no card listed: the stated rule (docs/boards.md)
    }
    path = tmp_path / "square.json"
    path.write_text(json.dumps(board))
    env = RiskEnv("2008", "world", [AGENT, AGENT, "random"], board=str(path), max_turns=40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)
    env.reset(seed=1)
    observation, *_ = env.last()
    assert observation["owner"].shape == (7,) and observation["edge_index"].shape == (2, 16)
    assert env.codec.size == env.action_space("player_0").n  # type: ignore[attr-defined]


# -- external bots, the example, the docstring ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def test_a_gymnasium_agent_plays_against_a_protocol_bot_in_another_process() -> None:
    bot = str(ROOT / "examples" / "bots" / "simple_bot.py")
    env = RiskGymEnv("2008", "world", [AGENT, bot, "quick"], max_turns=8)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    external = env.aec.bots[1]
    env.close()
    assert external is not None and external.decisions > 0 and not external.failed  # type: ignore[attr-defined]


def test_the_random_example_runs() -> None:
    example = str(ROOT / "examples" / "env_random.py")
    for extra in ([], ["--gym"]):
        result = subprocess.run(
            [sys.executable, example, "--games", "1", "--max-turns", "20", *extra],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        assert "game 0:" in result.stdout


def test_the_docstring_example_runs() -> None:
    import risk.env

    result = doctest.testmod(risk.env, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_worked_example_of_docs_research_md_runs_as_written() -> None:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    section = text[text.index("### A worked example") : text.index("### Rewards")]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {"RiskEnv": RiskEnv}, "research", "docs/research.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize().attempted >= 5 and runner.summarize().failed == 0


# -- fog of war ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "game", "players"), [("2008", "world", 3), ("2003", "team", 4)])
def test_fogged_observations_do_not_depend_on_the_board_out_of_sight(
    edition: str, game: str, players: int
) -> None:
    """Under fog of war, two games differing only in what a seat may not see (the owners and armies
    out of its sight, the other seats' memories, besides the usual secrets) give that seat identical
    observations and masks; and what it observes of the board is its memory, with its age."""
    env = make_env(edition, game, {"fog": "on"}, players, seats=[AGENT] * players)
    rng = random.Random(5)
    checked = 0
    for state in fogged_positions(env.rules, players, seed=9, every=11, turns=40):
        for seat in range(state.humans):
            expected = observe(env, state, seat)
            hidden = hidden_territories(state, seat)
            visible = [int(t not in hidden) for t in range(len(state.board))]
            assert expected["visible"].tolist() == visible
            for t in range(len(state.board)):
                seen_turn = state.seen_turn[seat][t]
                assert expected["seen_age"][t] == (0 if visible[t] else state.turn - seen_turn)
                armies = state.armies[t] if visible[t] else state.seen_armies[seat][t]
                assert expected["armies"][t] == armies
            if not hidden:
                continue
            other = observe(env, perturb_fogged(state, seat, rng), seat)
            for key in expected:
                assert np.array_equal(expected[key], other[key]), (key, seat, state.turn)
            checked += 1
    assert checked > 20


def test_without_fog_every_territory_is_visible_and_current() -> None:
    env = RiskEnv("2008", "world", [AGENT] * 3)
    env.reset(seed=2)
    observation = env.observe("player_0")
    assert observation["visible"].tolist() == [1] * 42 and observation["seen_age"].tolist() == [0] * 42
