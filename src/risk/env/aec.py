"""The PettingZoo AEC environment: one game of RISK, learning agents on some seats and bots on the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from risk.bots import Bot, make_bot
from risk.bots.protocol import ExternalBot, is_external
from risk.env.actions import DEFAULT_MAX_HAND, ActionCodec, LegalMap
from risk.env.observation import Array, Observer
from risk.errors import IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.play.simulate import bot_seed
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

AGENT: Final = "agent"  # a seat spec: a learning agent plays this seat
REWARDS: Final = ("win", "shaped")
ILLEGAL: Final = ("raise", "lose")
DEFAULT_MAX_TURNS: Final = 500
SHAPING: Final = 0.1  # "shaped": this times the change in the share of the board held

# Every game of the rulebooks, in each edition that has it, and the expert options that add actions:
# (edition, game, rule options, players). The tests run the PettingZoo and Gymnasium checks on each.
GAME_TYPES: Final[tuple[tuple[str, str, dict[str, str], int], ...]] = (
    ("1993", "world", {}, 4),
    ("2003", "world", {}, 3),
    ("2008", "world", {}, 3),
    ("1993", "secret-mission", {}, 4),
    ("2008", "secret-mission", {}, 3),
    ("1993", "capital", {}, 4),
    ("2008", "capital", {"capitals-to-win": "short"}, 4),
    ("1993", "two-player", {}, 2),
    ("2003", "two-player", {}, 2),
    ("2003", "two-player", {"neutral-mode": "active"}, 2),
    ("2008", "two-player", {}, 2),
    ("2003", "mission", {}, 3),
    ("2003", "team", {}, 4),
    ("2003", "team", {}, 6),
    ("1993", "world", {"attack-advantage": "on", "commanders": "on", "army-cap": "12"}, 3),
    ("2008", "world", {"fog": "on"}, 3),
    ("2003", "two-player", {"fog": "on"}, 2),
    ("2003", "team", {"fog": "on"}, 4),
)


def make_rules(edition: str | Rules, game: str = "world", options: dict[str, str] | None = None) -> Rules:
    """The rules of ``edition`` (a preset name, or a :class:`Rules`) for one of the rulebooks' games
    (``world``, ``secret-mission``, ``capital``, ``two-player``, ``mission``, ``team``, or an alias),
    with rule options on top (``{"neutral-mode": "active"}``), as ``risk play --game`` takes them."""
    rules = Rules.preset(edition) if isinstance(edition, str) else edition
    if game:
        rules = rules.for_game(game)
    return rules.with_options(**options) if options else rules


class RiskEnv(AECEnv[str, dict[str, Any], Any]):
    """A PettingZoo AEC environment (``pettingzoo.AECEnv``) of one RISK game.

    ``seats`` names each player's seat in turn order: ``"agent"`` for a learning agent, a built-in
    bot or level (``"quick"``, ``"hard"``, see ``risk bots``), a program speaking the line protocol
    (a path, as ``risk tournament --bots`` takes it) or a :class:`~risk.bots.Bot`. The agents are
    ``player_S`` for each agent seat ``S`` (0-based); bots play their turns inside :meth:`step`.
    2-player RISK adds its neutral seats itself.

    Observations: :mod:`risk.env.observation`; actions: :mod:`risk.env.actions`. Rewards: ``"win"``
    (default) gives +1 to the winner (Team RISK: each member of the winning team) and -1 to the
    others when the game ends, 0 to all when the turn cap (``max_turns``) stops it (a draw: every
    agent truncated). ``"shaped"`` adds, on every step, ``0.1`` times the change in the agent's
    share of the territories (its sum over a game is the final share less the first one). An
    agent eliminated from a game without teams is terminated at once, with -1.

    ``illegal_action="raise"`` (default): an illegal index raises
    :class:`~risk.errors.IllegalActionError` saying what the index means; the game is unchanged.
    ``"lose"``: the game ends, the offender gets ``illegal_reward`` and the others 0, and ``infos``
    say what was refused (``"illegal_action"``).
    """

    # The base classes declare metadata an instance attribute: a ClassVar would not type-check.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "risk_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str | Rules = "2008",
        game: str = "world",
        seats: Sequence[str | Bot] = (AGENT, AGENT, AGENT),
        *,
        options: dict[str, str] | None = None,
        board: str | Board = "classic",
        max_turns: int = DEFAULT_MAX_TURNS,
        reward: str = "win",
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        max_hand: int = DEFAULT_MAX_HAND,
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal_action not in ILLEGAL:
            raise RulesError(f"illegal_action must be one of {', '.join(ILLEGAL)}, not {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise RulesError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_turns < 1:
            raise RulesError(f"max_turns must be at least 1, not {max_turns}")
        self.rules = make_rules(edition, game, options)
        self.board = load_map(board) if isinstance(board, str) else board
        self.seat_specs = list(seats)
        for spec in self.seat_specs:
            if isinstance(spec, str) and spec != AGENT and not is_external(spec):
                make_bot(spec)  # an unknown name fails here, with the names it knows
        self.agent_seats = [s for s, spec in enumerate(self.seat_specs) if spec == AGENT]
        if not self.agent_seats:
            raise RulesError('seats must name at least one "agent" seat')
        self.names = [
            f"{spec if isinstance(spec, str) and spec == AGENT else 'bot'}-{seat + 1}"
            for seat, spec in enumerate(self.seat_specs)
        ]
        self.max_turns = max_turns
        self.reward_kind = reward
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in self.agent_seats]
        self.seat_of = dict(zip(self.possible_agents, self.agent_seats, strict=True))
        self._agent_at = dict(zip(self.agent_seats, self.possible_agents, strict=True))
        self._bots_seated = len(self.agent_seats) < len(self.seat_specs)
        probe = Game(self.rules, self.names, seed=0, board=self.board)  # checks the seat count
        neutrals = len(probe.players) - probe.humans
        self.codec = ActionCodec(self.board, neutrals, max_hand, self.rules.fortify == "adjacent")
        self.observer = Observer(View(probe, 0), self.codec.size, self.codec.edges)
        self._action_space = spaces.Discrete(self.codec.size)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self.observer.space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.np_random, _ = seeding.np_random(None)
        self.game: Game | None = None
        self.views: list[View] = []
        self.bots: list[Bot | None] = []
        self.team_game = probe.team is not None
        self._legal: tuple[int, LegalMap] | None = None  # (actions applied, the legal map then)
        self._applied = 0
        self._shares: dict[str, float] = {}
        # PettingZoo's bookkeeping is skipped on the steps that change no reward and end no one:
        # whether a reward is not 0 now (to clear and add up), how many seats are out (to see a new one).
        self._rewarded = False
        self._out = 0

    # -- the PettingZoo API -----------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observer.space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: with ``seed``, the same game (and the same bots' choices) every time."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        game_seed = int(self.np_random.integers(2**62))
        self._close_bots()
        self.game = game = Game(self.rules, self.names, seed=game_seed, board=self.board)
        self.views = [View(game, seat) for seat in range(len(game.players))]
        self.bots = [
            self._make_bot(spec, bot_seed(game_seed, seat)) for seat, spec in enumerate(self.seat_specs)
        ]
        self._applied = 0
        self._legal = None
        self._rewarded = False
        self._out = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._play_bots()
        self._shares = {agent: self._share(agent) for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._after_move(self.agents[0])

    def observe(self, agent: str) -> dict[str, Array]:
        seat = self.seat_of[agent]
        legal = None
        game = self.game
        if game is None:
            raise RulesError("the environment has no game yet: call reset() first")
        # An agent stepped out of the game is in neither dict: True, no legal action.
        if (
            game.to_act == seat
            and not game.is_over
            and not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
        ):
            legal = self.legal().indices()
        return self.observer.observe(self.views[seat], legal)

    def step(self, action: Any) -> None:
        """``action``: an index of the action space (an ``int`` or a NumPy integer; ``None`` for an agent
        that is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        legal = self.legal()
        # A legal index (an int, not a bool) goes straight to its action; anything else to decode(),
        # which says what is wrong with it.
        move = legal.get(action) if type(action) is int else None
        if move is None:
            index = int(action) if isinstance(action, (int, np.integer)) else action
            try:
                if index is None or not isinstance(index, int):
                    raise IllegalActionError(
                        f"an action is a whole number in 0..{self.codec.size - 1}, not {action!r}"
                    )
                move = self.codec.decode(index, self.views[self.seat_of[agent]], legal)
            except IllegalActionError as refusal:
                if self.illegal_action == "raise":
                    raise
                self._end_for_illegal(agent, str(refusal))
                return
        self._apply(move)
        if self._bots_seated:
            self._play_bots()
        self._after_move(agent)

    def render(self) -> str | None:
        """``render_mode="ansi"``: the position as text (turn, phase, each territory's owner and armies)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        game, board = self.game, self.board
        lines = [f"turn {game.turn}, {game.phase.name.lower()}, {game.players[game.to_act]} to act"]
        for t in range(len(board)):
            owner = game.owner[t]
            who = game.players[owner] if owner >= 0 else "-"
            lines.append(f"{board.slug_of(t):>24} {who:>12} {game.armies[t]:4d}")
        return "\n".join(lines)

    def close(self) -> None:
        self._close_bots()

    # -- for agents and tools -----------------------------------------------------------------------
    def legal(self) -> LegalMap:
        """The legal actions of the seat to act, by index (computed once per position)."""
        cached = self._legal
        if cached is not None and cached[0] == self._applied:
            return cached[1]
        game = self._game
        legal = self.codec.legal(self.views[game.to_act])
        self._legal = (self._applied, legal)
        return legal

    def view(self, agent: str) -> View:
        """The agent's :class:`~risk.view.View` (what its player may see), for tools built on top."""
        return self.views[self.seat_of[agent]]

    @property
    def _game(self) -> Game:
        if self.game is None:
            raise RulesError("the environment has no game yet: call reset() first")
        return self.game

    # -- the game going on ----------------------------------------------------------------------------
    def _make_bot(self, spec: str | Bot, seed: int) -> Bot | None:
        if isinstance(spec, Bot):
            return spec
        if spec == AGENT:
            return None
        if is_external(spec):
            return ExternalBot(spec, seed, label=spec)
        return make_bot(spec, seed)

    def _close_bots(self) -> None:
        for bot in self.bots:
            if bot is not None:
                bot.close()

    def _apply(self, action: Any) -> None:
        self._game.apply(action)
        self._applied += 1  # the legal map cached in legal() is for the position before

    def _play_bots(self) -> None:
        """Bots play until an agent is to act, the game ends, or the turn cap stops it."""
        game, bots, views, cap = self._game, self.bots, self.views, self.max_turns
        while not game.is_over and game.turn <= cap:
            bot = bots[game.to_act]
            if bot is None:
                return
            self._apply(bot.choose(views[game.to_act]))

    def _share(self, agent: str) -> float:
        return self._game.territory_count[self.seat_of[agent]] / len(self.board)

    def _after_move(self, agent: str) -> None:
        """Rewards, terminations and the next agent after ``agent``'s move (and the bots' after it)."""
        game = self._game
        ended = False  # someone terminated or truncated: PettingZoo's dead steps come first
        if self.reward_kind == "shaped":
            for other in self.agents:
                share = self._share(other)
                self.rewards[other] += SHAPING * (share - self._shares[other])
                self._shares[other] = share
            self._rewarded = True
        over = game.is_over
        outcome = game.outcome() if over else None
        if outcome is not None:
            winners = set(outcome.winners)
            for other in self.agents:
                self.rewards[other] += 1.0 if self.seat_of[other] in winners else -1.0
                self.terminations[other] = True
            self._rewarded = ended = True
        elif game.turn > self.max_turns:
            for other in self.agents:
                self.truncations[other] = True
            ended = True
        elif not self.team_game:
            out = game.alive.count(False)
            if out != self._out:  # a seat was eliminated: an agent's, perhaps
                self._out = out
                for other in self.agents:
                    if not game.alive[self.seat_of[other]] and not self.terminations[other]:
                        self.rewards[other] += -1.0
                        self.terminations[other] = True
                        self._rewarded = ended = True
        if not over and game.turn <= self.max_turns:
            to_act = self._agent_at.get(game.to_act)
            self.agent_selection = agent if to_act is None else to_act
        else:
            self.agent_selection = agent
        # On a step that ends no one no agent is out (each was stepped out as soon as it ended), and
        # on one that changes no reward there is nothing to add up: PettingZoo's calls change nothing.
        if ended:
            self._deads_step_first()
        if self._rewarded:
            self._accumulate_rewards()

    def _end_for_illegal(self, agent: str, reason: str) -> None:
        for other in self.agents:
            self.terminations[other] = True
            self.rewards[other] = self.illegal_reward if other == agent else 0.0
        self.infos[agent] = {"illegal_action": reason}
        self._rewarded = True
        self._deads_step_first()
        self._accumulate_rewards()


def env(**kwargs: Any) -> RiskEnv:
    """A :class:`RiskEnv` (PettingZoo's naming: ``risk.env.env(...)``); the same arguments."""
    return RiskEnv(**kwargs)
