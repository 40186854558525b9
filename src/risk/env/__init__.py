"""Reinforcement-learning environments on the full rules: PettingZoo (AEC) and Gymnasium.

    >>> from risk.env import RiskEnv
    >>> env = RiskEnv("2008", "world", seats=["agent", "quick", "quick"])
    >>> env.reset(seed=1)
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> legal = observation["action_mask"].nonzero()[0]
    >>> env.step(int(legal[0]))

:class:`RiskEnv` (PettingZoo AEC, any number of learning seats, bots on the others),
:class:`RiskGymEnv` (Gymnasium, one learning seat), :class:`RiskVectorEnv` (many of them stepped in
batches by worker processes), the observation (:mod:`risk.env.observation`)
and the action space (:mod:`risk.env.actions`). docs/research.md has the whole story. Needs the
``research`` extra: ``pip install 'risk[research]'`` (PettingZoo, Gymnasium, NumPy).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(
        f"risk.env needs PettingZoo and Gymnasium ({missing.name} is missing): pip install 'risk[research]'"
    ) from None

from risk.env.actions import COUNT_CHOICES, ActionCodec, LegalMap, choice_counts
from risk.env.aec import AGENT, GAME_TYPES, RiskEnv, env, make_rules
from risk.env.gym import REGISTERED, RiskGymEnv, register_envs
from risk.env.observation import BATTLE_FIELDS, GAME_FIELDS, SEAT_FIELDS, Observer, secret_mission_names
from risk.env.vector import RiskVectorEnv, VectorWorkerError

register_envs()

__all__ = [
    "AGENT",
    "BATTLE_FIELDS",
    "COUNT_CHOICES",
    "GAME_FIELDS",
    "GAME_TYPES",
    "REGISTERED",
    "SEAT_FIELDS",
    "ActionCodec",
    "LegalMap",
    "Observer",
    "RiskEnv",
    "RiskGymEnv",
    "RiskVectorEnv",
    "VectorWorkerError",
    "choice_counts",
    "env",
    "make_rules",
    "register_envs",
    "secret_mission_names",
]
