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
from risk.env.observation import Array, Observer
from risk.errors import IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.play.simulate import bot_seed
from risk.rules.game import Game, Phase
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
