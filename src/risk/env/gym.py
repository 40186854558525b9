"""The Gymnasium environment: one learning seat against bots (built-in or external protocol programs)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from numpy.typing import NDArray

from risk.bots import Bot
from risk.env.aec import AGENT, DEFAULT_MAX_TURNS, RENDER_MODES, SHAPING, RiskEnv
from risk.env.observation import Array
from risk.errors import RulesError
from risk.maps import Board
from risk.rules.options import Rules

GYM_OBSERVATIONS = ("dict", "classic", "flat")


class RiskGymEnv(gymnasium.Env[Any, np.int64]):
    """One RISK game as a ``gymnasium.Env``: the seat marked ``"agent"`` learns, bots play the others.

    The arguments are :class:`~risk.env.aec.RiskEnv`'s (``seats`` must name exactly one agent); so
    are the action space and the rewards. A step is one action of the agent followed by the bots'
    actions until the agent is to act again or the game ends (``terminated``) or the turn cap stops
    it (``truncated``). ``info["action_mask"]`` and :meth:`action_masks` (sb3-contrib's
    MaskablePPO reads it) give the legal actions now.

    ``observation``: ``"dict"`` (default, :mod:`risk.env.observation`), ``"classic"``
    (PettingZoo's classic layout ``{"observation": flat, "action_mask": mask}``) or ``"flat"``
    (the flat vector alone, :mod:`risk.env.flat`: a ``Box`` in ``[0, 1]`` for an MLP policy).

    ``illegal_action``: ``"remap"`` by default here (a learner that samples unmasked actions, and
    Gymnasium's and SB3's ``check_env``, play on): an illegal index plays the legal action at its
    place among the legal indices (``index mod`` their count) and ``info["illegal_action"]`` says
    what was refused; ``"raise"`` and ``"lose"`` as in :class:`~risk.env.aec.RiskEnv`.
    """

    # The base classes declare metadata an instance attribute: a ClassVar would not type-check.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        edition: str | Rules = "2008",
        game: str = "world",
        seats: Sequence[str | Bot] = (AGENT, "quick", "quick"),
        *,
        options: dict[str, str] | None = None,
        board: str | Board = "classic",
        max_turns: int = DEFAULT_MAX_TURNS,
        reward: str = "win",
        illegal_action: str = "remap",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        observation: str = "dict",
        actions: str = "full",
        shaping: float = SHAPING,
        max_hand: int | None = None,
    ) -> None:
        if observation not in GYM_OBSERVATIONS:
            raise RulesError(f"observation must be one of {', '.join(GYM_OBSERVATIONS)}, not {observation!r}")
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
            observation="dict" if observation == "flat" else observation,
            actions=actions,
            shaping=shaping,
            max_hand=max_hand,
        )
        self.flat = observation == "flat"
        self._mask: Array = np.zeros(self.aec.codec.size, dtype=np.int8)  # no game yet: nothing legal
        self.agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.flat.space if self.flat else self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=None if seed is None else int(self.np_random.integers(2**62)))
        observation, _, _, _, info = self.aec.last()
        return self._answer(observation, info)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.aec.step(action)
        observation, reward, terminated, truncated, info = self.aec.last()
        observation, info = self._answer(observation, info)
        return observation, float(reward), terminated, truncated, info

    def _answer(
        self, observation: dict[str, Array] | None, info: dict[str, Any]
    ) -> tuple[Any, dict[str, Any]]:
        assert observation is not None
        mask = observation["action_mask"]
        self._mask = mask
        info = {**info, "action_mask": mask.copy()}
        if self.flat:
            return self.aec.flat.encode(observation), info
        return observation, info

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions now, as booleans over the action space (sb3-contrib's MaskablePPO
        calls this; all ``False`` once the game is over)."""
        return self._mask.astype(bool)

    def state(self) -> Array:
        """The global state for a centralised critic: :meth:`RiskEnv.state <risk.env.aec.RiskEnv.state>`."""
        return self.aec.state()

    def render(self) -> Any:
        self.aec.render_mode = self.render_mode  # a checker may set the mode after construction
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


# The set-ups `gymnasium.make` knows by name (registered when risk.env is imported): each id's
# keyword arguments of RiskGymEnv; `gymnasium.make("risk/Classic-v0", max_turns=100)` overrides one.
REGISTERED: dict[str, dict[str, Any]] = {
    # The world game of the 2008 rules on the classic board, against two quick bots.
    "risk/Classic-v0": {"edition": "2008", "game": "world", "seats": [AGENT, "quick", "quick"]},
    # 2-player RISK (the rulebook's neutral armies, passive), against a quick bot.
    "risk/TwoPlayer-v0": {"edition": "2008", "game": "two-player", "seats": [AGENT, "quick"]},
    # Secret Mission RISK (1993 missions), three players.
    "risk/SecretMission-v0": {
        "edition": "2008",
        "game": "secret-mission",
        "seats": [AGENT, "quick", "quick"],
    },
    # Capital RISK, four players.
    "risk/Capital-v0": {"edition": "2008", "game": "capital", "seats": [AGENT, "quick", "quick", "quick"]},
    # The learnable set-up (docs/research.md): 2-player RISK on the 24-territory crossroads board
    # against a random player, the flat observation, the compact action space, shaped rewards and a
    # short game.
    "risk/Crossroads-v0": {
        "edition": "2008",
        "game": "two-player",
        "board": "crossroads",
        "seats": [AGENT, "random"],
        "observation": "flat",
        "actions": "compact",
        "reward": "lead",
        "shaping": 1.0,
        "max_turns": 60,
    },
}


def register_envs() -> None:
    """Register :data:`REGISTERED` with Gymnasium (once; importing risk.env does it)."""
    for env_id, kwargs in REGISTERED.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="risk.env.gym:RiskGymEnv", kwargs=kwargs)
