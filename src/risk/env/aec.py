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
from risk.env.flat import FlatEncoder
from risk.env.observation import Array, Observer
from risk.env.render import BoardPicture, board_picture
from risk.errors import IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.play.simulate import bot_seed
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

AGENT: Final = "agent"  # a seat spec: a learning agent plays this seat
REWARDS: Final = ("win", "shaped", "lead")
ILLEGAL: Final = ("raise", "lose", "remap")
OBSERVATIONS: Final = ("dict", "classic")  # RiskGymEnv adds "flat"
ACTIONS: Final = ("full", "compact")
RENDER_MODES: Final = ("ansi", "human", "rgb_array")
COMPACT_MAX_HAND: Final = 5  # five cards always hold a set: the fewest hand slots the space may have
DEFAULT_MAX_TURNS: Final = 500
SHAPING: Final = 0.1  # "shaped", "lead": this times the change in the share (or lead) of the board held

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
    agent truncated). ``"shaped"`` adds, on every step, ``shaping`` (0.1) times the change in the
    agent's share of the territories (its sum over a game is the final share less the first one).
    ``"lead"`` adds instead ``shaping`` times the change in the agent's lead: its share less the
    largest share of a rival (a player not on its team; neutral armies are no rival), so taking a
    rival's territory counts twice and a neutral's once. An agent eliminated from a game without
    teams is terminated at once, with -1.

    ``illegal_action="raise"`` (default): an illegal index raises
    :class:`~risk.errors.IllegalActionError` saying what the index means; the game is unchanged.
    ``"lose"``: the game ends, the offender gets ``illegal_reward`` and the others 0, and ``infos``
    say what was refused (``"illegal_action"``).
    """

    # The base classes declare metadata an instance attribute: a ClassVar would not type-check.
    # Not parallelisable: one seat acts at a time (a turn's many steps, a defender's dice between
    # them), so PettingZoo's parallel API would have every other agent pass on every step.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "name": "risk_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 4,
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
        max_hand: int | None = None,
        render_mode: str | None = None,
        observation: str = "dict",
        actions: str = "full",
        shaping: float = SHAPING,
    ) -> None:
        if reward not in REWARDS:
            raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if illegal_action not in ILLEGAL:
            raise RulesError(f"illegal_action must be one of {', '.join(ILLEGAL)}, not {illegal_action!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise RulesError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        if observation not in OBSERVATIONS:
            raise RulesError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if actions not in ACTIONS:
            raise RulesError(f"actions must be one of {', '.join(ACTIONS)}, not {actions!r}")
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
        self.shaping = shaping
        self.observation_kind = observation
        self.action_kind = actions
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in self.agent_seats]
        self.seat_of = dict(zip(self.possible_agents, self.agent_seats, strict=True))
        self._agent_at = dict(zip(self.agent_seats, self.possible_agents, strict=True))
        self._bots_seated = len(self.agent_seats) < len(self.seat_specs)
        probe = Game(self.rules, self.names, seed=0, board=self.board)  # checks the seat count
        neutrals = len(probe.players) - probe.humans
        compact = actions == "compact"
        if max_hand is None:
            max_hand = COMPACT_MAX_HAND if compact else DEFAULT_MAX_HAND
        # The compact space names free moves along links only, whatever the rules allow.
        self.codec = ActionCodec(self.board, neutrals, max_hand, compact or self.rules.fortify == "adjacent")
        self.observer = Observer(View(probe, 0), self.codec.size, self.codec.edges)
        self.flat = FlatEncoder(self.observer, max_turns)
        self._action_space = spaces.Discrete(self.codec.size)
        space: spaces.Space[Any] = self.observer.space
        if observation == "classic":
            space = spaces.Dict(
                {"observation": self.flat.space, "action_mask": self.observer.space["action_mask"]}
            )
        self._observation_space = space
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        seat_count = len(probe.players)
        self.state_space = spaces.Box(0.0, 1.0, (seat_count * self.flat.size,), np.float32)
        self._picture: BoardPicture | None = None
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
        return self._observation_space

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
        """The agent's observation: the dict of arrays (:mod:`risk.env.observation`), or with
        ``observation="classic"`` PettingZoo's classic layout: ``{"observation": the flat vector
        (:mod:`risk.env.flat`), "action_mask": the mask}``."""
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
        observation = self.observer.observe(self.views[seat], legal)
        if self.observation_kind == "classic":
            return {"observation": self.flat.encode(observation), "action_mask": observation["action_mask"]}
        return observation

    def step(self, action: Any) -> None:
        """``action``: an index of the action space (an ``int`` or a NumPy integer; ``None`` for an agent
        that is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent].pop("illegal_action", None)  # said of the step before
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
                if self.illegal_action == "lose":
                    self._end_for_illegal(agent, str(refusal))
                    return
                move = self._remapped(action, legal, str(refusal))
        self._apply(move)
        if self._bots_seated:
            self._play_bots()
        self._after_move(agent)

    def render(self) -> Any:
        """``render_mode="ansi"``: the position as text (turn, phase, each territory's owner and
        armies); ``"human"``: that text printed to the terminal (returns ``None``); ``"rgb_array"``:
        the board as a picture, an ``H x W x 3`` ``uint8`` array (:mod:`risk.env.render`). The whole
        board, as a spectator sees it after the game: for videos and debugging, not for an agent."""
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "rgb_array":
            if self._picture is None:
                self._picture = board_picture(self.board)
            return self._picture.frame(self.game.owner, self.game.armies)
        text = self._text()
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def _text(self) -> str:
        game, board = self._game, self.board
        lines = [f"turn {game.turn}, {game.phase.name.lower()}, {game.players[game.to_act]} to act"]
        for t in range(len(board)):
            owner = game.owner[t]
            who = game.players[owner] if owner >= 0 else "-"
            lines.append(f"{board.slug_of(t):>24} {who:>12} {game.armies[t]:4d}")
        return "\n".join(lines)

    def close(self) -> None:
        self._close_bots()

    def state(self) -> Array:
        """The global state for a centralised critic (PettingZoo's ``state()``): the flat
        observation (:mod:`risk.env.flat`) of every seat in turn, seat 0 first, so everything any
        player may know (every hand and mission, under fog every seat's sight) and nothing more
        (not the draw pile's order nor the dice to come). ``state_space`` is its space."""
        views = self.views
        if not views:
            raise RulesError("the environment has no game yet: call reset() first")
        return np.concatenate([self.flat.encode(self.observer.observe(view, None)) for view in views])

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
        """The agent's share of the territories (``"lead"``: less its largest rival's)."""
        game, seat = self._game, self.seat_of[agent]
        held = game.territory_count
        if self.reward_kind != "lead":
            return held[seat] / len(self.board)
        team = game.team
        rivals = [
            held[other]
            for other in range(game.humans)
            if other != seat and (team is None or team[other] != team[seat])
        ]
        return (held[seat] - max(rivals, default=0)) / len(self.board)

    def _after_move(self, agent: str) -> None:
        """Rewards, terminations and the next agent after ``agent``'s move (and the bots' after it)."""
        game = self._game
        ended = False  # someone terminated or truncated: PettingZoo's dead steps come first
        if self.reward_kind != "win":
            for other in self.agents:
                share = self._share(other)
                self.rewards[other] += self.shaping * (share - self._shares[other])
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

    def _remapped(self, action: Any, legal: LegalMap, reason: str) -> Any:
        """``illegal_action="remap"``: the legal action at the index's place among the legal indices
        (``index mod`` their count, in index order); ``infos`` say what was refused."""
        indices = sorted(legal.indices())
        try:
            position = int(action) % len(indices)
        except (TypeError, ValueError):
            position = 0
        self.infos[self.agent_selection]["illegal_action"] = reason
        move = legal.get(indices[position])
        assert move is not None
        return move

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
