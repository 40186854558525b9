"""examples/learn (issue 24, item 4): the training loop runs, the shipped weights load and play legal games.

The training itself (minutes) is not run here: a smoke run of a few hundred environment steps is.
The measured result is in docs/research.md ("An example that learns") and examples/learn/README.md.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
LEARN = ROOT / "examples" / "learn"
sys.path.insert(0, str(LEARN))

from evaluate import wilson  # noqa: E402
from policy import FEATURES, SIZE, WEIGHTS, Policy, load_weights, make_env, save_weights  # noqa: E402


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(LEARN / script), *args], capture_output=True, text=True, timeout=120, check=False
    )


def smoke_training(out: Path, seed: int, workers: int = 1) -> subprocess.CompletedProcess[str]:
    return run(
        "train.py", "--steps", "300", "--population", "4", "--elite", "2", "--games", "1",
        "--max-turns", "8", "--seed", str(seed), "--workers", str(workers), "--out", str(out),
    )  # fmt: skip


def test_a_short_training_run_writes_weights_that_load(tmp_path: Path) -> None:
    out = tmp_path / "weights.npz"
    result = smoke_training(out, seed=5)
    assert result.returncode == 0, result.stderr
    assert "generation   1" in result.stdout and f"weights written to {out}" in result.stdout
    steps = int(result.stdout.split("done: ")[1].split(" steps")[0].split(", ")[1])
    assert steps >= 300
    weights = load_weights(out)
    assert weights.shape == (SIZE,) and np.isfinite(weights).all() and weights.any()
    # The same seed trains the same weights, in one process or in a pool of workers.
    again = smoke_training(tmp_path / "again.npz", seed=5, workers=2)
    assert again.returncode == 0, again.stderr
    assert np.array_equal(load_weights(tmp_path / "again.npz"), weights)


def test_training_refuses_bad_arguments_in_one_line() -> None:
    result = run("train.py", "--elite", "9", "--population", "4")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].endswith("--elite must be at most --population")
    assert "Traceback" not in result.stderr


def test_the_shipped_weights_are_small_and_play_legal_games_to_the_end() -> None:
    assert WEIGHTS.stat().st_size < 8_000
    weights = load_weights()
    env = make_env("random", max_turns=200)  # illegal_action="raise": an illegal index would raise
    policy = Policy(env.aec.codec, env.aec.board, weights)
    wins = 0
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            action = policy.act(observation)
            assert info["action_mask"][action] == 1
            observation, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    env.close()
    assert wins >= 2  # trained weights beat random play (above 90% of games measured: docs/research.md)


def test_a_weights_file_of_other_features_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3), features=np.array(["a", "b", "c"]))
    with pytest.raises(ValueError, match="trained on other features"):
        load_weights(other)
    result = run("evaluate.py", "--weights", str(other), "--games", "1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "trained on other features" in result.stderr.strip().splitlines()[-1]


def test_weights_round_trip_by_feature_name(tmp_path: Path) -> None:
    path = tmp_path / "w.npz"
    weights = np.linspace(-1, 1, SIZE)
    save_weights(weights, path, seed=1)
    assert np.allclose(load_weights(path), weights, atol=1e-6)
    with np.load(path) as data:
        assert tuple(data["features"]) == FEATURES


def test_wilson_interval() -> None:
    # Wilson (1927): 0 of 10 gives 0 to z²/(n + z²); 10 of 10 the mirror image; 5 of 10 centred on 0.5.
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(1.959964**2 / (10 + 1.959964**2))
    assert wilson(10, 10) == pytest.approx((1 - high, 1.0))
    low, high = wilson(5, 10)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.2366, abs=1e-4)
    with pytest.raises(ValueError):
        wilson(0, 0)


def test_evaluate_prints_win_rates_with_intervals() -> None:
    result = run("evaluate.py", "--games", "2", "--opponents", "random,quick", "--max-turns", "60")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("against")]
    assert len(lines) == 2 and all("Wilson 95%" in line for line in lines)
