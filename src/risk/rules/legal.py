"""The legal actions of a position: generated phase by phase, lazily (like python-chess's ``legal_moves``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from risk.errors import RiskError
from risk.rules.actions import Action, parse_action
from risk.rules.battle import attack_phase_actions, defences, occupations
from risk.rules.fortify import count_fortify_actions, fortify_phase_actions
from risk.rules.reinforce import count_reinforce_actions, reinforce_actions, setup_places
from risk.rules.setup import claims
from risk.rules.state import Phase, State

# The core's phases; a variant's own phases (capitals, an ally's placement...) are in its hooks.
GENERATORS: dict[Phase, Callable[[State], Iterable[Action]]] = {
    Phase.CLAIM: claims,
    Phase.SETUP_PLACE: setup_places,
    Phase.REINFORCE: reinforce_actions,
    Phase.ELIMINATION_TRADE: reinforce_actions,
    Phase.ATTACK: attack_phase_actions,
    Phase.DEFEND: defences,
    Phase.OCCUPY: occupations,
    Phase.FORTIFY: fortify_phase_actions,
}
COUNTERS: dict[Phase, Callable[[State], int]] = {
    Phase.REINFORCE: count_reinforce_actions,
    Phase.ELIMINATION_TRADE: count_reinforce_actions,
    Phase.FORTIFY: count_fortify_actions,
}


def generate_actions(game: State) -> Iterator[Action]:
    generate = GENERATORS.get(game.phase) or game.hooks.phase_actions.get(game.phase)
    return iter(()) if generate is None else iter(generate(game))


def count_actions(game: State) -> int:
    """The number of legal actions, counted without building them where that is easy."""
    count = COUNTERS.get(game.phase)
    if count is not None:
        return count(game)
    return sum(1 for _ in generate_actions(game))


class LegalActions:
    """The legal actions of a position, generated lazily: iterate, ``len``, ``in``."""

    __slots__ = ("_game", "_is_legal")

    def __init__(self, game: State, is_legal: Callable[[Action], bool]) -> None:
        self._game = game
        self._is_legal = is_legal  # the turn machine's check, which knows the variants' actions

    def __iter__(self) -> Iterator[Action]:
        return generate_actions(self._game)

    def __len__(self) -> int:
        return count_actions(self._game)

    def count(self) -> int:
        return count_actions(self._game)

    def __contains__(self, action: object) -> bool:
        """An action, or its text as :meth:`Game.apply` takes it; text that is no action is not in it."""
        if isinstance(action, str):
            try:
                action = parse_action(action, self._game.board)
            except RiskError:
                return False
        try:
            return self._is_legal(action)  # type: ignore[arg-type]  # any object: refused if no action
        except (TypeError, AttributeError):
            return False

    def __bool__(self) -> bool:
        return self._game.phase != Phase.GAME_OVER

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} actions>"
