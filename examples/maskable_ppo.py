"""A deep-RL baseline that learns RISK from scratch: sb3-contrib's MaskablePPO on the CPU, no glue.

    pip install 'risk[learn]'        # the research extra with CPU torch, SB3, sb3-contrib, matplotlib
    python examples/maskable_ppo.py  # 30 minutes of training, then 200 games against each bot
    python examples/maskable_ppo.py --minutes 5 --eval-games 50 --out /tmp/ppo

The environment is one of the set-ups `gymnasium.make` knows (risk.env.REGISTERED), as it is:
``risk/Crossroads-v0`` by default (2-player RISK on the 24-territory crossroads board: the flat
observation, the compact action space, the "lead" reward, a 60-turn cap), its opponent chosen per
environment: the training steps ``--envs`` environments (4) in this process, all against
``random`` for the first ``--quick-from`` steps (400,000), then half against ``random`` and half
against ``quick`` (``--quick-share``). MaskablePPO reads the legal actions from
the environment's ``action_masks()``; the policy is an MLP (two layers of 256). Every
``--eval-every`` steps the greedy policy plays ``--curve-games`` games against each bot (seeds the
training never plays); the curve is saved as ``learning_curve.png`` (and ``.json``). At the end,
``--eval-games`` games against each bot, on seeds 0, 1, 2, ..., with a turn cap of
``--eval-max-turns`` (100): a game stopped by the cap counts as not a win; win rates with Wilson 95%
intervals (``summary.json``). The model is saved as ``model.zip`` (``MaskablePPO.load``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

import risk.env  # noqa: F401  (registers the risk/... ids with Gymnasium)
from risk.play.tournament import wilson_interval

TRAINING_SEEDS = 2**32  # training games draw their seeds at or above this; evaluation uses 0, 1, 2...
CURVE_SEEDS = 2**31


def make_env(
    env_id: str, opponent: str, seed: int, **overrides: Any
) -> Callable[[], gymnasium.Env[Any, Any]]:
    def build() -> gymnasium.Env[Any, Any]:
        env = gymnasium.make(env_id, seats=["agent", opponent], **overrides)
        env.reset(seed=seed)
        return env

    return build


def play(
    model: MaskablePPO, env_id: str, opponent: str, games: int, first_seed: int, max_turns: int, sample: bool
) -> dict[str, int]:
    """``games`` games of the policy against ``opponent`` (its likeliest action each step, or with
    ``sample`` an action drawn from it): wins, losses and capped games."""
    env = gymnasium.make(env_id, seats=["agent", opponent], max_turns=max_turns, reward="win")
    results = {"wins": 0, "losses": 0, "capped": 0}
    for game in range(games):
        observation, info = env.reset(seed=first_seed + game)
        while True:
            masks = info["action_mask"].astype(bool)
            action, _ = model.predict(observation, action_masks=masks, deterministic=not sample)
            observation, reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                results["wins" if reward > 0 else "capped" if truncated else "losses"] += 1
                break
    env.close()
    return results


class Curve(BaseCallback):
    """Measures the policy every ``every`` steps, and stops the training at the time budget."""

    def __init__(
        self, env_id: str, every: int, games: int, seconds: float, max_turns: int, sample: bool
    ) -> None:
        super().__init__()
        self.sample = sample
        self.env_id, self.every, self.games, self.seconds, self.max_turns = (
            env_id,
            every,
            games,
            seconds,
            max_turns,
        )
        self.points: list[dict[str, float]] = []
        self.started = time.monotonic()
        self.next_at = every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at += self.every
            self.measure()
        return self.in_time()

    def in_time(self) -> bool:
        return time.monotonic() - self.started < self.seconds

    def measure(self) -> None:
        point: dict[str, float] = {
            "steps": self.num_timesteps,
            "minutes": (time.monotonic() - self.started) / 60,
        }
        for opponent in ("random", "quick"):
            result = play(
                self.model, self.env_id, opponent, self.games, CURVE_SEEDS, self.max_turns, self.sample
            )
            point[opponent] = result["wins"] / self.games
        self.points.append(point)
        print(
            f"{point['minutes']:5.1f} min, {self.num_timesteps:8d} steps: "
            f"wins {point['random']:.0%} against random, {point['quick']:.0%} against quick",
            flush=True,
        )


def save_curve(points: list[dict[str, float]], out: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 4), dpi=100)
    steps = [p["steps"] for p in points]
    for opponent, colour in (("random", "#0072b2"), ("quick", "#d55e00")):
        axis.plot(
            steps, [100 * p[opponent] for p in points], marker="o", color=colour, label=f"against {opponent}"
        )
    axis.set_xlabel("training steps (the agent's actions)")
    axis.set_ylabel("games won (%)")
    axis.set_ylim(0, 100)
    axis.grid(alpha=0.3)
    axis.legend(loc="lower right")
    axis.set_title(title)
    figure.tight_layout()
    figure.savefig(out / "learning_curve.png")
    (out / "learning_curve.json").write_text(json.dumps(points, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env-id", default="risk/Crossroads-v0")
    parser.add_argument("--minutes", type=float, default=30.0, help="training time budget (wall clock)")
    parser.add_argument("--steps", type=int, default=10**9, help="stop after this many steps, if sooner")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument(
        "--quick-share", type=float, default=0.5, help="share of the environments against quick"
    )
    parser.add_argument(
        "--quick-from", type=int, default=400_000, help="train against random alone for this many steps first"
    )
    parser.add_argument("--subprocess", action="store_true", help="one process per environment")
    parser.add_argument("--eval-every", type=int, default=100_000)
    parser.add_argument("--curve-games", type=int, default=30)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--eval-max-turns", type=int, default=100)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument(
        "--sample", action="store_true", help="measure the policy drawing its actions, not its likeliest"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", type=Path, default=Path("ppo-risk"))
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    quick_envs = round(args.envs * args.quick_share)
    opponents = ["quick"] * quick_envs + ["random"] * (args.envs - quick_envs)

    def vector(chosen: list[str]) -> VecEnv:
        builders = [
            make_env(args.env_id, opponent, TRAINING_SEEDS + args.seed * 1000 + i)
            for i, opponent in enumerate(chosen)
        ]
        return SubprocVecEnv(builders) if args.subprocess else DummyVecEnv(builders)

    # A curriculum: random opponents alone for the first --quick-from steps (losing every game to
    # quick from the first step can teach a policy to give up), then the mix.
    vec = vector(["random"] * args.envs if args.quick_from > 0 else opponents)
    model = MaskablePPO(
        "MlpPolicy",
        vec,
        learning_rate=3e-4,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        gamma=args.gamma,
        gae_lambda=0.95,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    curve = Curve(
        args.env_id, args.eval_every, args.curve_games, args.minutes * 60, args.eval_max_turns, args.sample
    )
    started = time.monotonic()
    if args.quick_from > 0:
        model.learn(total_timesteps=min(args.quick_from, args.steps), callback=curve)
        if curve.in_time() and model.num_timesteps < args.steps:
            model.set_env(vector(opponents))
            model.learn(
                total_timesteps=args.steps - model.num_timesteps, callback=curve, reset_num_timesteps=False
            )
    else:
        model.learn(total_timesteps=args.steps, callback=curve)
    trained = time.monotonic() - started
    curve.measure()
    model.save(args.out / "model.zip")
    save_curve(
        curve.points, args.out, f"MaskablePPO on {args.env_id}, {trained / 60:.0f} minutes of training"
    )
    steps = model.num_timesteps
    print(f"trained {steps} steps in {trained / 60:.1f} minutes ({steps / trained:.0f} steps/s)")
    summary: dict[str, Any] = {"steps": model.num_timesteps, "training_seconds": trained, "evaluation": {}}
    for opponent in ("random", "quick"):
        result = play(model, args.env_id, opponent, args.eval_games, 0, args.eval_max_turns, args.sample)
        low, high = wilson_interval(result["wins"], args.eval_games)
        summary["evaluation"][opponent] = {**result, "games": args.eval_games, "wilson_95": [low, high]}
        wins, games = result["wins"], args.eval_games
        print(
            f"against {opponent}: {wins}/{games} won ({wins / games:.1%}, "
            f"Wilson 95% {low:.1%} to {high:.1%}); {result['capped']} stopped by the turn cap"
        )
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
