"""RISK as an OpenSpiel game: ``pyspiel.load_game("python_risk")`` once this module is imported.

    >>> import pyspiel
    >>> import risk.env.spiel
    >>> game = pyspiel.load_game("python_risk", {"board": "crossroads", "max_turns": 3})
    >>> state = game.new_initial_state()
    >>> state.current_player() in range(game.num_players())
    True

Every seat is an OpenSpiel player (no bots inside); 2-player RISK's neutral seats are not players
(their armies are placed and defended by the players, as the rules say). Actions are the fixed action
space of :mod:`risk.env.actions` (``num_distinct_actions`` is its size); ``legal_actions()`` is the
position's, from the acting player's View.

Chance. A battle's roll is an explicit chance node: after an action that rolls at once (a ``defend``,
an attack on one army) the state is a chance node whose ``chance_outcomes()`` are the roll's outcomes
with their exact probabilities (:mod:`risk.env.chance`): by losses (at most three; the ``chance``
parameter ``"losses"``, the default), or by the dice thrown (``"dice"``; the games whose dice may change
after the roll, the 1993 expert options, always are). The other random events (who goes first, the
territories dealt, the cards' order and the draws, missions) are **sampled** from the game's own
generator, seeded by the ``seed`` parameter: one seed, one deal; the generator is part of the state
(a clone draws the same cards; no information state shows it). The game type says
``EXPLICIT_STOCHASTIC`` for the dice.

Information. The observation and information-state tensors are both the player's observation
(:meth:`risk.env.observation.Observer.information_state`: everything the player's View shows, no
other hand, mission, draw pile or generator), as one flat ``float32`` vector. The information-state
*string* has perfect recall: the player's own observation and the whole history as the player may
see it (``View.public_history``); the observation string is the observation alone.

Returns: at the end of a game, +1 to the winner (Team RISK: each member of the winning team) and -1
to the others; 0 to all when a cap ends it first: ``max_turns`` (the turn cap) or ``max_moves``
(actions and chance outcomes in all, 0: ``1000 * (max_turns + 1)``), which is also the game's
``max_game_length``.

Parameters (all optional): ``edition`` ("2008"), ``game`` ("world"), ``players`` (3), ``board``
("classic", "crossroads", "pangaea" or a map file), ``options`` (rule options as ``"fog=on,..."``),
``max_turns`` (30), ``max_moves`` (0), ``seed`` (0), ``chance`` ("losses" or "dice").
Needs OpenSpiel: ``pip install 'risk[spiel]'`` (the ``research`` extra and ``open_spiel``).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

try:
    import pyspiel
except ImportError:  # pragma: no cover - the message is the point
    raise ImportError(
        "risk.env.spiel needs OpenSpiel (pyspiel): pip install 'risk[spiel]' (or pip install open_spiel)"
    ) from None

from risk.env.actions import ActionCodec, LegalMap
from risk.env.aec import make_rules
from risk.env.chance import (
    DEFENCE_ORDER,
    LOSS_OUTCOMES,
    ROLL_ORDER,
    battle_outcomes,
    chance_space,
    grain_for,
    roll_of,
)
from risk.env.observation import Array, Observer
from risk.errors import IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.rules.actions import Action
from risk.rules.game import Game
from risk.view import View

SHORT_NAME: Final = "python_risk"
MAX_PLAYERS: Final = 8
PARAMETERS: Final[dict[str, Any]] = {
    "edition": "2008",
    "game": "world",
    "players": 3,
    "board": "classic",
    "options": "",
    "max_turns": 30,
    "max_moves": 0,
    "seed": 0,
    "chance": "losses",
}
MOVES_PER_TURN: Final = 1000  # the default max_moves: this many a turn, and as many for the setup

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="RISK (the risk engine, every seat a player)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def parse_options(text: str) -> dict[str, str]:
    """Rule options written ``"name=value,name=value"`` (the ``options`` parameter) as a dict."""
    options: dict[str, str] = {}
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        name, equals, value = part.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise RulesError(f"rule options are written name=value,name=value, not {text!r}")
        options[name.strip()] = value.strip()
    return options


class _Shared:
    """What every state of one game reads and none changes: OpenSpiel's clone deep-copies a state's
    attributes, and this one is the same object in every copy."""

    def __init__(self, params: dict[str, Any]) -> None:
        rules = make_rules(str(params["edition"]), str(params["game"]), parse_options(str(params["options"])))
        board_name = str(params["board"])
        self.board: Board = load_map(board_name)
        names = [f"Player {seat + 1}" for seat in range(int(params["players"]))]
        self.initial = Game(rules, names, seed=int(params["seed"]), board=self.board)
        self.humans = self.initial.humans
        self.max_turns = int(params["max_turns"])
        if self.max_turns < 1:
            raise RulesError(f"max_turns must be at least 1, not {self.max_turns}")
        moves = int(params["max_moves"])
        self.max_moves = moves if moves > 0 else MOVES_PER_TURN * (self.max_turns + 1)
        self.grain = grain_for(self.initial, str(params["chance"]) or None)
        neutrals = len(self.initial.players) - self.humans
        self.codec = ActionCodec(self.board, neutrals, adjacent_fortify=rules.fortify == "adjacent")
        self.observer = Observer(View(self.initial, 0), self.codec.size, self.codec.edges)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class RiskGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel has no types)
    """The OpenSpiel game of one set of parameters (see the module's text)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        settings = {**PARAMETERS, **(params or {})}
        self.shared = shared = _Shared(settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.codec.size,
            max_chance_outcomes=chance_space(shared.grain),
            num_players=shared.humans,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=shared.max_moves,
        )
        super().__init__(_GAME_TYPE, info, settings)

    def new_initial_state(self) -> RiskState:
        return RiskState(self, self.shared)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> RiskObserver:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RiskObserver(self.shared, perfect_recall)


class _Position:
    """The engine's game and its views (made when asked for): copied with ``Game.copy`` when OpenSpiel
    clones a state."""

    __slots__ = ("_views", "game", "legal")

    def __init__(self, game: Game) -> None:
        self.game = game
        self._views: dict[int, View] = {}
        self.legal: tuple[int, LegalMap] | None = None  # (moves made, the legal map then)

    def view(self, seat: int) -> View:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = View(self.game, seat)
        return view

    def replace(self, game: Game) -> None:
        """Go on with ``game`` (an attack tried on a copy, kept): new views."""
        self.game = game
        self._views = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.game.copy())


class RiskState(pyspiel.State):  # type: ignore[misc]  # (pyspiel has no types)
    """A position of the game: a player to act, a battle's roll (a chance node), or the end."""

    def __init__(self, game: RiskGame, shared: _Shared) -> None:
        super().__init__(game)
        self._shared = shared
        self._position = _Position(shared.initial.copy())
        self._roll: tuple[Action, int, int] | None = None  # the action awaiting its dice, and their number
        self._moves = 0

    # -- OpenSpiel's API -----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._roll is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._position.game.to_act

    def is_terminal(self) -> bool:
        game, shared = self._position.game, self._shared
        return game.is_over or game.turn > shared.max_turns or self._moves >= shared.max_moves

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal_map().indices())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        roll = self._roll
        if roll is None:
            raise RulesError("not a chance node: no battle's roll awaits its dice")
        grain = self._shared.grain
        return [(o.number(grain), float(o.probability)) for o in battle_outcomes(roll[1], roll[2], grain)]

    def _apply_action(self, action: int) -> None:
        position = self._position
        roll = self._roll
        if roll is not None:
            attack, defence = self._dice(action, roll[1], roll[2])
            position.game.apply_with_dice(roll[0], attack, defence)
            self._roll = None
        else:
            move = self._legal_map().get(action)
            if move is None:
                self._shared.codec.decode(action, position.view(position.game.to_act))  # says why
                raise IllegalActionError(f"action {action} is not legal now")
            dice, applied = roll_of(position.game, move)
            if dice is not None:
                self._roll = (move, *dice)
            elif applied is not None:
                position.replace(applied)  # the attack, tried on a copy: kept
            else:
                position.game.apply_unchecked(move)
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._shared.grain == "losses":
                attacker_losses, defender_losses = LOSS_OUTCOMES[action]
                return f"roll: attacker loses {attacker_losses}, defender {defender_losses}"
            attack, defence = _dice_of(action)
            return f"roll: {attack} against {defence}"
        return self._shared.codec.describe(action)

    def returns(self) -> list[float]:
        humans = self._shared.humans
        outcome = self._position.game.outcome()
        if outcome is None:
            return [0.0] * humans
        winners = set(outcome.winners)
        return [1.0 if seat in winners else -1.0 for seat in range(humans)]

    def __str__(self) -> str:
        game = self._position.game
        board = self._shared.board
        lines = [
            f"turn {game.turn}, {game.phase.name.lower()}, seat {game.to_act} to act, move {self._moves}"
        ]
        if self._roll is not None:
            lines.append(f"rolling: {self._roll[0].text(board)}")
        lines.extend(f"{board.slug_of(t)} {game.owner[t]} {game.armies[t]}" for t in range(len(board)))
        return "\n".join(lines)

    # -- for the observer and the tests ----------------------------------------------------------------
    @property
    def engine(self) -> Game:
        """The engine's game of this state (everything, secrets included: not for a player)."""
        return self._position.game

    def view(self, seat: int) -> View:
        """What ``seat``'s player may see of this state."""
        return self._position.view(seat)

    def _legal_map(self) -> LegalMap:
        position = self._position
        cached = position.legal
        if cached is not None and cached[0] == self._moves:
            return cached[1]
        legal = self._shared.codec.legal(position.view(position.game.to_act))
        position.legal = (self._moves, legal)
        return legal

    def _dice(
        self, number: int, attacker_dice: int, defender_dice: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The dice of chance outcome ``number`` of a roll of ``attacker_dice`` against ``defender_dice``."""
        grain = self._shared.grain
        for outcome in battle_outcomes(attacker_dice, defender_dice, grain):
            if outcome.number(grain) == number:
                return outcome.attacker_dice, outcome.defender_dice
        raise IllegalActionError(
            f"{number} is not an outcome of {attacker_dice} dice against {defender_dice}"
        )


def _dice_of(number: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The throw of a ``"dice"`` outcome's number (see :meth:`risk.env.chance.BattleOutcome.number`)."""
    attack, defence = divmod(number, len(DEFENCE_ORDER))
    return ROLL_ORDER[attack], DEFENCE_ORDER[defence]


class RiskObserver:
    """OpenSpiel's Python observer: ``tensor`` (one flat ``float32`` vector, also ``dict["observation"]``)
    and the strings, from one player's View only (see the module's text)."""

    def __init__(self, shared: _Shared, perfect_recall: bool) -> None:
        self._shared = shared
        self._perfect_recall = perfect_recall
        self.tensor: Array = np.zeros(shared.observer.information_state_size(), np.float32)
        self.dict: dict[str, Array] = {"observation": self.tensor}

    def set_from(self, state: RiskState, player: int) -> None:
        observer = self._shared.observer
        self.tensor[:] = observer.information_state(observer.build(state.view(player), None))

    def string_from(self, state: RiskState, player: int) -> str:
        observer = self._shared.observer
        flat = observer.information_state(observer.build(state.view(player), None))
        text = f"player {player}: " + " ".join(map(str, flat.astype(np.int64).tolist()))
        if not self._perfect_recall:
            return text
        seen = state.view(player).public_history()
        return text + "\nhistory: " + "; ".join(repr(entry) for entry in seen)


pyspiel.register_game(_GAME_TYPE, RiskGame)
