"""The Gymnasium environment: one learning seat against bots (built-in or external protocol programs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from risk.bots import Bot
from risk.env.aec import AGENT, RiskEnv
from risk.env.observation import Array
from risk.errors import RulesError
from risk.maps import Board
from risk.rules.options import Rules


class RiskGymEnv(gymnasium.Env[dict[str, Array], np.int64]):
    """One RISK game as a ``gymnasium.Env``: the seat marked ``"agent"`` learns, bots play the others.

    The arguments are :class:`~risk.env.aec.RiskEnv`'s (``seats`` must name exactly one agent); so
    are the observation, the action space, the rewards and ``illegal_action``. A step is one action
    of the agent followed by the bots' actions until the agent is to act again or the game ends
    (``terminated``) or the turn cap stops it (``truncated``). ``info["action_mask"]`` repeats the
    observation's mask (for libraries that look for it there).
    """

    # The base classes declare metadata an instance attribute: a ClassVar would not type-check.
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        edition: str | Rules = "2008",
        game: str = "world",
        seats: Sequence[str | Bot] = (AGENT, "quick", "quick"),
        *,
        options: dict[str, str] | None = None,
        board: str | Board = "classic",
        max_turns: int = 500,
        reward: str = "win",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if sum(1 for spec in seats if isinstance(spec, str) and spec == AGENT) != 1:
            raise RulesError(f'a Gymnasium environment has exactly one "agent" seat: {list(seats)}')
        self.aec = RiskEnv(
            edition,
            game,
            seats,
            options=options,
            board=board,
            max_turns=max_turns,
            reward=reward,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )
        self.agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Array], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=None if seed is None else int(self.np_random.integers(2**62)))
        observation, _, _, _, info = self.aec.last()
        assert observation is not None
        return observation, {**info, "action_mask": observation["action_mask"].copy()}

    def step(self, action: Any) -> tuple[dict[str, Array], float, bool, bool, dict[str, Any]]:
        self.aec.step(action)
        observation, reward, terminated, truncated, info = self.aec.last()
        assert observation is not None
        return (
            observation,
            float(reward),
            terminated,
            truncated,
            {**info, "action_mask": observation["action_mask"].copy()},
        )

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
