"""The environments as the standard RL libraries take them, with no glue (issue 40).

PettingZoo's ``render_test`` and its checks on the classic layout; Tianshou's PettingZoo wrapper and
sb3-contrib's MaskablePPO on the environments as they are; the ids registered with
``gymnasium.make``; the flat observation (bounded, and only what the View shows); the compact action
space (each legal index the engine's legal action, the moves along chains left out); ``remap`` of an
illegal index; ``state()``; Gymnasium's vector environments; and a smoke run of the MaskablePPO
baseline (examples/maskable_ppo.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test

import risk.env
from risk.env import AGENT, GAME_TYPES, RiskEnv, RiskGymEnv
from risk.rules import actions as A
from risk.rules.game import Phase
from test_env import positions_played_by_bots

ROOT = Path(__file__).resolve().parent.parent
IDS = [
    f"{edition}-{game}-{players}p" + ("-" + "-".join(options) if options else "")
    for edition, game, options, players in GAME_TYPES
]


def seats_for(players: int) -> list[str]:
    return [AGENT if seat % 2 == 0 else "quick" for seat in range(players)]


def test_pettingzoo_render_test_passes_in_every_render_mode(capsys: pytest.CaptureFixture[str]) -> None:
    def make(**kwargs: Any) -> RiskEnv:
        return RiskEnv("2008", "world", [AGENT, "quick", AGENT], max_turns=3, **kwargs)

    render_test(make)
    assert "turn 0, claim, " in capsys.readouterr().out  # "human" prints the text
    env = make(render_mode="rgb_array")
    env.reset(seed=1)
    picture = env.render()
    assert picture.dtype == np.uint8 and picture.shape[2] == 3 and picture.shape[1] == 600


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_the_classic_layout_passes_the_api_test_and_stays_in_its_space(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    env = RiskEnv(edition, game, seats_for(players), options=options, max_turns=12, observation="classic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=400)
    env.reset(seed=3)
    space = env.observation_space(env.agents[0])
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        assert set(observation) == {"observation", "action_mask"}
        assert space.contains(observation), agent
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_tianshou_takes_the_classic_layout_as_it_is() -> None:
    from tianshou.env import PettingZooEnv

    env = PettingZooEnv(RiskEnv("2008", "world", [AGENT, AGENT, "quick"], max_turns=5, observation="classic"))
    observation, _ = env.reset(seed=2)
    assert observation["agent_id"] == "player_0"
    assert len(observation["mask"]) == env.action_space.n and any(observation["mask"])
    assert (
        observation["obs"].dtype == np.float32
        and observation["obs"].shape == env.observation_space["observation"].shape
    )
    steps = 0
    while True:
        legal = np.flatnonzero(observation["mask"])
        observation, rewards, terminated, truncated, _ = env.step(int(legal[0]))
        steps += 1
        if terminated or truncated:
            break
    assert steps > 50 and len(rewards) == 2


def test_maskable_ppo_reads_the_masks_of_the_environment_as_it_is() -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    env = gymnasium.make("risk/Crossroads-v0")
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(total_timesteps=128)
    observation, info = env.reset(seed=5)
    masks = get_action_masks(env)
    assert masks.dtype == bool and (masks == info["action_mask"].astype(bool)).all()
    action, _ = model.predict(observation, action_masks=masks)
    assert masks[int(action)]  # the policy picks a legal action


def test_every_registered_id_makes_a_working_environment() -> None:
    assert set(risk.env.REGISTERED) <= set(gymnasium.registry)
    for env_id in risk.env.REGISTERED:
        env = gymnasium.make(env_id, max_turns=4)
        observation, info = env.reset(seed=0)
        assert env.observation_space.contains(observation)
        for _ in range(30):
            legal = np.flatnonzero(info["action_mask"])
            observation, _, terminated, truncated, info = env.step(int(legal[-1]))
            if terminated or truncated:
                break
        assert (env.unwrapped.action_masks() == info["action_mask"].astype(bool)).all()


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_the_flat_observation_is_bounded_and_says_no_more_than_the_dict(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    env = RiskGymEnv(
        edition, game, [AGENT, *["quick"] * (players - 1)], options=options, observation="flat", max_turns=15
    )
    dict_env = RiskGymEnv(edition, game, [AGENT, *["quick"] * (players - 1)], options=options, max_turns=15)
    observation, info = env.reset(seed=4)
    dict_observation, _ = dict_env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(300):
        assert observation.dtype == np.float32 and env.observation_space.contains(observation)
        assert np.array_equal(observation, env.aec.flat.encode(dict_observation))
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, _, terminated, truncated, info = env.step(action)
        dict_observation, *_ = dict_env.step(action)
        if terminated or truncated:
            break
    assert sum(size for _, size in env.aec.flat.parts) == env.observation_space.shape[0]


@pytest.mark.parametrize(("edition", "game", "options", "players"), GAME_TYPES, ids=IDS)
def test_the_compact_space_names_the_engines_legal_actions_but_chains(
    edition: str, game: str, options: dict[str, str], players: int
) -> None:
    env = RiskEnv(edition, game, [AGENT] * players, options=options, actions="compact")
    assert env.codec.size < 2000 and env.codec.max_hand == 5
    neighbours = env.board.neighbours
    moves = 0
    for seed in range(2):
        for view in positions_played_by_bots(env, seed, ("quick", "random"), 40):
            legal = env.codec.legal(view)
            assert legal.actions == env.codec._listed(view).actions, view.phase  # read or listed: the same
            for index, action in legal.actions.items():
                assert view.is_legal(action), (env.codec.describe(index), action)
            if view.phase is Phase.FORTIFY:
                along_links = {
                    (a.source, a.target)
                    for a in view.legal_actions()
                    if isinstance(a, A.Fortify) and a.target in neighbours[a.source]
                }
                named = {(a.source, a.target) for a in legal.actions.values() if isinstance(a, A.Fortify)}
                assert named == along_links
                moves += len(named)
    assert moves > 0 or game == "capital"


def test_remap_plays_an_illegal_index_as_a_legal_one_and_says_so() -> None:
    env = RiskGymEnv("2008", "world", [AGENT, "quick", "quick"])
    _, info = env.reset(seed=1)
    legal = np.flatnonzero(info["action_mask"])
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    expected = env.aec.codec.describe(int(legal[illegal % len(legal)]))
    _, _, terminated, _, info = env.step(illegal)
    assert not terminated and "is not legal now" in info["illegal_action"]
    claimed = [t for t in range(len(env.aec.board)) if env.aec.game.owner[t] == 0]  # type: ignore[union-attr]
    assert expected == f"claim {env.aec.board.slug_of(claimed[0])}"
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "illegal_action" not in info  # said of that step only


def test_state_is_every_seats_flat_observation_and_in_its_space() -> None:
    env = RiskEnv("2003", "mission", [AGENT, "quick", "quick"], max_turns=5)
    env.reset(seed=8)
    state = env.state()
    assert env.state_space.contains(state)
    size = env.flat.size
    for seat, view in enumerate(env.views):
        part = state[seat * size : (seat + 1) * size]
        assert np.array_equal(part, env.flat.encode(env.observer.build(view, None)))
    gym_env = RiskGymEnv("2008", "world", [AGENT, "quick", "quick"])
    gym_env.reset(seed=1)
    assert gym_env.state().shape == gym_env.aec.state_space.shape


@pytest.mark.parametrize("vectoriser", [gymnasium.vector.SyncVectorEnv, gymnasium.vector.AsyncVectorEnv])
def test_gymnasium_vector_environments_step_with_masks(vectoriser: Any) -> None:
    envs = vectoriser([lambda: gymnasium.make("risk/Crossroads-v0", max_turns=6) for _ in range(2)])
    try:
        observations, infos = envs.reset(seed=11)
        assert observations.shape == (2, envs.single_observation_space.shape[0])
        rng = np.random.default_rng(11)
        episodes = 0
        for _ in range(400):
            masks = infos["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks])
            observations, _, terminated, truncated, infos = envs.step(actions)
            episodes += int(np.sum(terminated | truncated))
        assert episodes >= 1  # games ended and the vector reset them
    finally:
        envs.close()


def test_the_maskable_ppo_baseline_runs_a_few_thousand_steps(tmp_path: Path) -> None:
    """The documented script, shortened: trains, measures, saves the model, the curve and a summary."""
    command = [
        sys.executable,
        str(ROOT / "examples" / "maskable_ppo.py"),
        *(
            "--steps",
            "2048",
            "--envs",
            "2",
            "--quick-from",
            "1024",
            "--eval-every",
            "1024",
            "--curve-games",
            "2",
        ),
        *("--eval-games", "3", "--eval-max-turns", "8", "--out", str(tmp_path)),
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert "against random:" in finished.stdout and "against quick:" in finished.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["steps"] >= 2048 and summary["evaluation"]["random"]["games"] == 3
    assert (tmp_path / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "model.zip").stat().st_size > 10_000
