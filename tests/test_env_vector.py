"""RiskVectorEnv (issue 40 item 4): N environments stepped in batches by W worker processes.

It returns what Gymnasium's SyncVectorEnv returns for the same environments, seeds and actions,
step by step over whole episodes and the resets between them; the masks are the infos' masks;
close() leaves no process behind; an environment that raises in a worker gives a clear error; bad
arguments are refused.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ClosedEnvironmentError
from gymnasium.vector import AutoresetMode, SyncVectorEnv

import risk.env  # noqa: F401  (registers the risk/... ids)
from risk.env import RiskVectorEnv, VectorWorkerError


def assert_same(ours: Any, theirs: Any, where: str) -> None:
    """Equal values of equal types: arrays (dtype and shape too), dicts (same keys), tuples, object arrays."""
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and set(ours) == set(theirs), (
            f"{where}: keys {set(ours)} != {set(theirs)}"
        )
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), where
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(mine, other, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray) and theirs.dtype == object:
        assert isinstance(ours, np.ndarray) and ours.shape == theirs.shape, where
        for index, (mine, other) in enumerate(zip(ours, theirs, strict=True)):
            assert_same(mine, other, f"{where}[{index}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray), f"{where}: {type(ours)}"
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, f"{where}: {ours.dtype}{ours.shape}"
        assert np.array_equal(ours, theirs), f"{where}: values differ"
    else:
        assert type(ours) is type(theirs) and ours == theirs, f"{where}: {ours!r} != {theirs!r}"


def play_both(
    env_id: str, envs: int, workers: int, steps: int, autoreset_mode: AutoresetMode, **kwargs: Any
) -> int:
    """Step SyncVectorEnv and RiskVectorEnv with the same actions (legal ones, and now and then an
    illegal index, which the environment remaps and reports in its info); return the episodes ended."""
    fns = [lambda: gymnasium.make(env_id, **kwargs) for _ in range(envs)]
    sync = SyncVectorEnv(fns, autoreset_mode=autoreset_mode)
    ours = RiskVectorEnv(fns, workers=workers, autoreset_mode=autoreset_mode)
    try:
        first_sync, first_ours = sync.reset(seed=5), ours.reset(seed=5)
        assert_same(first_ours, first_sync, "reset")
        rng = np.random.default_rng(5)
        infos, ended, illegal = first_sync[1], 0, 0
        for step in range(steps):
            actions = np.array(
                [
                    rng.choice(np.flatnonzero(mask))
                    if mask.any() and rng.random() > 0.1
                    else rng.integers(mask.size)
                    for mask in infos["action_mask"]
                ]
            )
            theirs, mine = sync.step(actions), ours.step(actions)
            assert_same(mine, theirs, f"step {step}")
            assert np.array_equal(ours.action_masks(), theirs[4]["action_mask"].astype(bool))
            infos = theirs[4]
            ended += int(np.sum(theirs[2] | theirs[3]))
            illegal += int(infos.get("_illegal_action", np.zeros(envs)).sum())
        assert illegal > 0  # the rare info keys came through the pipe
        # A partial reset, with seeds: only the marked environments start again.
        reset_mask = np.array([index % 2 == 0 for index in range(envs)])
        seeds = list(range(100, 100 + envs))
        options = {"reset_mask": reset_mask}
        assert_same(
            ours.reset(seed=seeds, options=dict(options)),
            sync.reset(seed=seeds, options=dict(options)),
            "reset_mask",
        )
        actions = np.zeros(envs, dtype=np.int64)
        assert_same(ours.step(actions), sync.step(actions), "after reset_mask")
        return ended
    finally:
        sync.close()
        ours.close()


def test_the_flat_observation_matches_sync_vector_env_over_whole_episodes() -> None:
    ended = play_both("risk/Crossroads-v0", 3, 2, 260, AutoresetMode.NEXT_STEP, max_turns=3)
    assert ended >= 6  # every environment ended and was reset twice or so


def test_the_dict_observation_matches_sync_vector_env_over_whole_episodes() -> None:
    ended = play_both("risk/TwoPlayer-v0", 3, 2, 200, AutoresetMode.NEXT_STEP, max_turns=1)
    assert ended >= 6


def test_same_step_autoreset_matches_too_with_the_final_observations() -> None:
    ended = play_both("risk/Crossroads-v0", 2, 2, 150, AutoresetMode.SAME_STEP, max_turns=2)
    assert ended >= 2


def test_masks_spaces_and_attributes_of_the_environments() -> None:
    envs = RiskVectorEnv([lambda: gymnasium.make("risk/Crossroads-v0") for _ in range(5)], workers=2)
    try:
        assert [len(share) for share in envs.shares] == [3, 2]
        assert envs.observation_space.shape == (5, 624) and envs.action_space.shape == (5,)
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        _, infos = envs.reset(seed=3)
        masks = envs.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (5, 958) and masks.any(axis=1).all()
        assert np.array_equal(masks, infos["action_mask"] != 0) and infos["_action_mask"].all()
        unwrapped = envs.call("action_masks")  # each environment's own method, run in its worker
        assert all(np.array_equal(mask, row) for mask, row in zip(unwrapped, masks, strict=True))
        assert [spec.id for spec in envs.get_attr("spec")] == ["risk/Crossroads-v0"] * 5
        envs.set_attr("label", [f"game {index}" for index in range(5)])
        assert envs.get_attr("label") == tuple(f"game {index}" for index in range(5))
        envs.set_attr("label", "same")
        assert envs.get_attr("label") == ("same",) * 5
        with pytest.raises(ValueError, match="length equal to the number of environments"):
            envs.set_attr("label", [1, 2])
        with pytest.raises(
            VectorWorkerError, match=r"environment 0 of 5 \(in worker 0\) raised AttributeError"
        ):
            envs.get_attr("no_such_attribute")
        envs.step(np.zeros(5, dtype=np.int64))  # a failed call leaves the vector running
    finally:
        envs.close()


def test_close_leaves_no_process_behind() -> None:
    envs = RiskVectorEnv([lambda: gymnasium.make("risk/Crossroads-v0") for _ in range(4)], workers=2)
    pids = [process.pid for process in envs.processes]
    assert len(set(pids)) == 2 and all(process.is_alive() for process in envs.processes)
    envs.reset(seed=1)
    envs.close()
    assert all(process.exitcode == 0 for process in envs.processes)  # ended by close, not terminated
    for pid in pids:
        assert pid is not None
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone, and reaped
    assert not [child for child in multiprocessing.active_children() if child.pid in pids]
    with pytest.raises(ClosedEnvironmentError):
        envs.step(np.zeros(4, dtype=np.int64))
    envs.close()  # a second close does nothing


class FailingStep(gymnasium.Wrapper[Any, Any, Any, Any]):
    """An environment whose step raises after a few steps."""

    def __init__(self, env: gymnasium.Env[Any, Any], after: int) -> None:
        super().__init__(env)
        self.after = after

    def step(self, action: Any) -> Any:
        self.after -= 1
        if self.after < 0:
            raise ArithmeticError("the odds went wrong")
        return self.env.step(action)


def test_an_environment_that_raises_names_itself_and_closes_the_vector() -> None:
    def make(index: int) -> gymnasium.Env[Any, Any]:
        env = gymnasium.make("risk/Crossroads-v0")
        return FailingStep(env, after=3) if index == 2 else env

    envs = RiskVectorEnv([lambda index=index: make(index) for index in range(3)], workers=2)
    envs.reset(seed=1)
    for _ in range(3):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(
        VectorWorkerError, match=r"environment 2 of 3 \(in worker 1\) raised ArithmeticError"
    ) as raised:
        envs.step(np.zeros(3, dtype=np.int64))
    message = str(raised.value)
    assert "the odds went wrong" in message and "the vector is closed" in message and "Traceback" in message
    assert isinstance(raised.value.__cause__, ArithmeticError)
    assert envs.closed and not any(process.is_alive() for process in envs.processes)


def test_an_environment_that_cannot_be_made_gives_a_clear_error() -> None:
    def broken() -> gymnasium.Env[Any, Any]:
        return gymnasium.make("risk/Crossroads-v0", max_turns=-1 if multiprocessing.parent_process() else 60)

    with pytest.raises(VectorWorkerError, match=r"environment 1 of 2 \(in worker 1\) raised") as raised:
        RiskVectorEnv([lambda: gymnasium.make("risk/Crossroads-v0"), broken], workers=2)
    assert "in start; the vector is closed" in str(raised.value)
    assert not [
        child for child in multiprocessing.active_children() if child.name.startswith("Worker<RiskVector")
    ]


@pytest.mark.parametrize(
    ("fns", "workers", "message"),
    [
        (0, None, "at least one environment function"),
        (2, 0, "workers must be a whole number of processes, 1 or more, not 0"),
        (2, -1, "workers must be a whole number"),
        (2, 1.5, "workers must be a whole number"),
        (2, 3, r"workers \(3\) must not exceed the number of environments \(2\)"),
    ],
)
def test_bad_arguments_are_refused_before_any_process_starts(fns: int, workers: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RiskVectorEnv([lambda: gymnasium.make("risk/Crossroads-v0") for _ in range(fns)], workers=workers)
    with pytest.raises(TypeError, match="callables"):
        RiskVectorEnv(["risk/Crossroads-v0"])
    assert not [
        child for child in multiprocessing.active_children() if child.name.startswith("Worker<RiskVector")
    ]


def test_a_spawned_worker_gives_what_a_forked_one_gives() -> None:
    """The start method where fork is not the default (macOS, Windows; Python 3.14's forkserver):
    the environment functions cross to the workers pickled (lambdas too)."""
    fns = [lambda: gymnasium.make("risk/Crossroads-v0", max_turns=3) for _ in range(2)]
    results = []
    for context in ("fork", "spawn"):
        envs = RiskVectorEnv(fns, workers=2, context=context)
        try:
            first = envs.reset(seed=9)
            results.append((first, envs.step(envs.action_masks().argmax(axis=1))))
        finally:
            envs.close()
    assert_same(results[1], results[0], "spawn against fork")
