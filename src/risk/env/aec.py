"""The PettingZoo AEC environment: one game of RISK, learning agents on some seats and bots on the others."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from risk.bots import Bot, make_bot
from risk.bots.protocol import ExternalBot, is_external
from risk.env.actions import DEFAULT_MAX_HAND, ActionCodec, LegalMap
from risk.env.chance import BattleOutcome, battle_outcomes, grain_for, roll_of
from risk.env.flat import FlatEncoder
from risk.env.observation import Array, Observer
from risk.env.render import BoardPicture, board_picture
from risk.errors import IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.play.simulate import bot_seed
from risk.rules.game import Game, Phase
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
        forced = self._forced_roll
        if forced is not None and forced[0] == self._applied:  # step_with_outcome's roll
            self._game.apply_with_dice(action, forced[1], forced[2])
        else:
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

    # -- for search: OpenSpiel-style hooks ----------------------------------------------------------
    # A search runs the environment forward many times from one position: clone() (or snapshot() and
    # restore()) gives it a position of its own, information_state_tensor() what a player may know
    # there, chance_outcomes() and step_with_outcome() a battle's roll as a step it chooses.

    # step_with_outcome's roll: (the number of actions applied when the rolling action comes, the
    # attacker's dice, the defender's dice); None: every roll from the game's generator.
    _forced_roll: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None

    def clone(self) -> RiskEnv:
        """An independent environment in the same state: the game (its generator included, so the
        same steps give the same game), the bots (copied with their state: generators, plans), the
        agents' bookkeeping (agents, rewards, terminations, infos), the seed generator for the next
        :meth:`reset`. The settings are shared (they never change); the clone's observer keeps arrays
        of its own (its first observation of each seat is built anew). Stepping one changes nothing
        in the other. A seat played by a program in another process (the line protocol) cannot be
        cloned: :class:`~risk.errors.RulesError`."""
        game = self._game
        if any(isinstance(bot, ExternalBot) for bot in self.bots):
            raise RulesError(
                "a bot in another process (the line protocol) cannot be cloned: seat built-in bots"
            )
        other = copy.copy(self)
        for name, value in vars(self).items():  # the containers the env changes, one level down
            if isinstance(value, (list, dict, set, np.ndarray)):
                setattr(other, name, copy.copy(value))
        other.infos = {agent: dict(info) for agent, info in self.infos.items()}
        other.game = copied = game.copy()
        other.views = [View(copied, seat) for seat in range(len(copied.players))]
        # A bot's references to the game, its views, the board and the rules go to the clone's.
        memo: dict[int, Any] = {id(game): copied, id(self.board): self.board, id(self.rules): self.rules}
        memo.update((id(old), new) for old, new in zip(self.views, other.views, strict=True))
        other.bots = [None if bot is None else copy.deepcopy(bot, memo) for bot in self.bots]
        # A seat given as a Bot object is that bot in the clone too: reset() seats it again.
        specs: list[str | Bot] = []
        for spec, bot in zip(self.seat_specs, other.bots, strict=True):
            specs.append(bot if isinstance(spec, Bot) and bot is not None else spec)
        other.seat_specs = specs
        other.observer = self.observer.fresh()
        other.np_random = copy.deepcopy(self.np_random)
        return other

    def snapshot(self) -> EnvSnapshot:
        """The environment's whole state, to :meth:`restore` later (as often as wanted): a clone kept
        aside, which nothing steps."""
        return EnvSnapshot(self.clone())

    def restore(self, snapshot: EnvSnapshot) -> None:
        """Put the environment back in the state of ``snapshot`` (from :meth:`snapshot` of this
        environment or of one with the same settings); the snapshot stays as it was."""
        kept = snapshot.env
        if (kept.rules, kept.board, kept.seat_specs_names, kept.max_turns) != (
            self.rules,
            self.board,
            self.seat_specs_names,
            self.max_turns,
        ):
            raise RulesError(
                "this snapshot is of an environment with other settings (rules, board, seats, cap)"
            )
        self.__dict__.update(vars(kept.clone()))

    @property
    def seat_specs_names(self) -> tuple[str, ...]:
        """Each seat's spec as a name (a Bot's class name): what :meth:`restore` compares."""
        return tuple(spec if isinstance(spec, str) else type(spec).__name__ for spec in self.seat_specs)

    def information_state_tensor(self, agent: str) -> Array:
        """What ``agent``'s player may know now, as one flat ``float32`` vector (OpenSpiel's
        information-state tensor): its observation (:mod:`risk.env.observation`, built from its View
        alone: no other hand, mission, draw pile or generator) without the action mask, its fields in
        :data:`~risk.env.observation.INFORMATION_FIELDS` order, each raveled. Its length is
        ``env.observer.information_state_size()``. It is the position as the player sees it, not the
        whole past it saw (the board, the cards traded and the last battle carry what stays known)."""
        seat = self.seat_of.get(agent)
        if seat is None:
            raise RulesError(f"no agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return self.observer.information_state(self.observer.observe(self.views[seat], None))

    def chance_outcomes(self, action: Any, grain: str | None = None) -> tuple[BattleOutcome, ...]:
        """The outcomes of the battle's roll that stepping ``action`` (an index, legal now) makes,
        with their exact probabilities (summing to 1); empty when the step rolls no battle the caller
        may choose. The roll is the step's own when the action rolls at once (a ``defend``, an attack
        on one army) or when a bot defends against the agent's attack (the bot's dice are asked of a
        clone of it: what it will choose). Rolls later in the step (the bots' own battles) come from
        the game's generator, as in :meth:`step`.

        ``grain``: ``"losses"``, one outcome per result of the roll (at most three; the dice shown are
        the likeliest throw with that result), or ``"dice"``, one per throw (each side's dice sorted
        high to low); ``None`` (default): ``"dice"`` in a game whose dice can change after the roll
        (the 1993 expert options), ``"losses"`` otherwise (:mod:`risk.env.chance`)."""
        found = self._battle_in_step(action)
        if found is None:
            return ()
        attacker_dice, defender_dice = found[1]
        return battle_outcomes(attacker_dice, defender_dice, grain_for(self._game, grain))

    def step_with_outcome(self, action: Any, outcome: BattleOutcome) -> None:
        """:meth:`step` with the battle's roll given: ``outcome``, one of :meth:`chance_outcomes`'s for
        ``action`` (of either grain). The game rolls those dice (``Game.apply_with_dice``: its
        generator advances as if it had rolled); everything else is as :meth:`step`. Refused with
        :class:`~risk.errors.IllegalActionError`, the environment unchanged, when the step rolls no
        battle the caller may choose or ``outcome`` is not a roll of its dice."""
        found = self._battle_in_step(action)
        if found is None:
            raise IllegalActionError(
                f"action {action!r} ({self.codec.describe(int(action))}) rolls no battle in this step "
                "whose dice may be chosen: step() it"
            )
        ahead, (attacker_dice, defender_dice) = found
        if not any(
            outcome in battle_outcomes(attacker_dice, defender_dice, grain) for grain in ("losses", "dice")
        ):
            raise IllegalActionError(
                f"{outcome!r} is not an outcome of {attacker_dice} dice against {defender_dice}: "
                "give one of chance_outcomes(action)"
            )
        self._forced_roll = (self._applied + ahead, outcome.attacker_dice, outcome.defender_dice)
        try:
            self.step(action)
        finally:
            self._forced_roll = None

    def _battle_in_step(self, action: Any) -> tuple[int, tuple[int, int]] | None:
        """The battle rolled by stepping ``action``, as (how many actions of the step come before the
        rolling one: 0 the agent's own, 1 a bot's defence; the attacker's and the defender's number
        of dice); None when the step rolls none the caller may choose. An illegal action raises."""
        agent = self.agent_selection
        if self.game is None or self.terminations[agent] or self.truncations[agent]:
            return None
        legal = self.legal()
        move = legal.get(action) if type(action) is int else None
        if move is None:
            if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
                raise IllegalActionError(
                    f"an action is a whole number in 0..{self.codec.size - 1}, not {action!r}"
                )
            move = self.codec.decode(int(action), self.views[self.seat_of[agent]], legal)
        dice, after = roll_of(self.game, move)
        if dice is not None:
            return 0, dice
        if after is None or after.phase is not Phase.DEFEND or self.bots[after.to_act] is None:
            return None
        # A bot defends: its choice, asked of a clone of the whole environment in the same place.
        trial = self.clone()
        game = trial.game
        assert game is not None
        game.apply(move)
        seat = game.to_act
        bot = trial.bots[seat]
        assert bot is not None
        dice, _ = roll_of(game, bot.choose(trial.views[seat]))
        return None if dice is None else (1, dice)


class EnvSnapshot:
    """A :class:`RiskEnv`'s whole state, from :meth:`RiskEnv.snapshot`, for :meth:`RiskEnv.restore`."""

    __slots__ = ("env",)

    def __init__(self, env: RiskEnv) -> None:
        self.env = env


def env(**kwargs: Any) -> RiskEnv:
    """A :class:`RiskEnv` (PettingZoo's naming: ``risk.env.env(...)``); the same arguments."""
    return RiskEnv(**kwargs)
