"""The turn machine: a game of RISK, its legal actions and their effects. Pure: no I/O, no clock.

One seeded generator, owned by the game, rolls every die and makes every shuffle. Every chance
outcome is written to the history next to the actions, so a record replays without a generator; the
generator runs all the same, so a replay can check that each outcome is the one the seed gives.

The turn is data: the game is always in one :class:`Phase`, and each phase accepts only its own
actions. ``game.to_act`` is the player who must act now (the defender while it chooses its dice).

Where the rules live (docs/rules-core.md): the state every game has in ``state.py``; each kind of
action's refusal and effect, and each phase's legal actions, in ``setup.py``, ``reinforce.py``,
``battle.py`` and ``fortify.py``; each game of the rulebooks and each expert option in its own module
of ``variants/``, whose hooks this machine calls. A world-domination game calls none.
"""

from __future__ import annotations

import random
import unicodedata
from collections import deque
from collections.abc import Sequence
from typing import Any, Final

from risk.errors import GameOverError, IllegalActionError, RulesError
from risk.maps import Board, load_map
from risk.rules import battle
from risk.rules.actions import Action, Attack, Defend, Resign, parse_action
from risk.rules.goal import WORLD_DOMINATION
from risk.rules.legal import LegalActions
from risk.rules.options import Rules
from risk.rules.reinforce import trade_options
from risk.rules.setup import check_board_fits, deal_territories, next_setup_placer
from risk.rules.state import (
    PHASE_NAMES,
    TIED,
    Battle,
    ChanceMismatch,
    Kept,
    Outcome,
    Phase,
    battle_losses,
    copy_list,
    declared_fields,
    fixed_set_value,
    is_set,
    same,
    saved_key,
    state_fields,
)
from risk.rules.variants import VARIANT_STATES, VariantStates, hooks_for

# Final: a C variable in the compiled build, not a look-up on the Enum class (docs/compiled.md).
# The characters no name may hold: they cannot be shown on a line (control characters such as line
# breaks, tabs and terminal escapes; line and paragraph separators) or are no text at all (an unpaired
# surrogate: a byte that is not UTF-8 in a command-line argument).
_UNSHOWN_CATEGORIES = frozenset(("Cc", "Cs", "Zl", "Zp"))


def unshown_in_name(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, when it holds a character that cannot be shown
    ("the player name 'a\\tb' holds a control character (U+0009), ..."); None when it can be shown."""
    for character in name:
        if unicodedata.category(character) in _UNSHOWN_CATEGORIES:
            return (
                f"the player name {name!r} holds {_describe_unshown(character)}, which cannot be shown "
                "in a name"
            )
    return None


def _describe_unshown(character: str) -> str:
    code = ord(character)
    if 0xDC80 <= code <= 0xDCFF:  # how Python keeps a byte that is not UTF-8 (surrogateescape)
        return f"the byte 0x{code - 0xDC00:02x} (not UTF-8 text)"
    if character in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
        return f"a line break (U+{code:04X})"
    return f"a control character (U+{code:04X})"


_GAME_OVER: Final = Phase.GAME_OVER
_REINFORCE: Final = Phase.REINFORCE
_DEFEND: Final = Phase.DEFEND


class Game(VariantStates):
    """A game of RISK: world domination, or one of the rulebooks' other games (by its rules).

    >>> game = Game(Rules.preset("2008"), ["Ann", "Bob", "Cy"], seed=1)
    >>> game.phase.name
    'CLAIM'
    >>> len(game.legal_actions())
    42
    """

    __slots__ = tuple(name for cls in VARIANT_STATES for name, _ in declared_fields(cls))

    def __init__(
        self,
        rules: Rules | str,
        players: Sequence[str] | int,
        seed: int | None = None,
        board: Board | str = "classic",
        *,
        _script: deque[tuple[str, Any]] | None = None,
        _verify: bool = False,
        _blank: bool = False,
    ) -> None:
        if _blank:  # _blank_game(): fields set by the caller
            return
        self.rules = rules = Rules.preset(rules) if isinstance(rules, str) else rules
        self.board = load_map(board) if isinstance(board, str) else board
        self.hooks = hooks = hooks_for(rules)
        self.goal = hooks.goal or WORLD_DOMINATION
        self.players = self._seat(players)
        self.neutral = [i >= self.humans for i in range(len(self.players))]
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self._script = _script
        self._verify = _verify
        self.chance_from_seed = True
        self.history = []
        n, t = len(self.players), len(self.board)
        self.owner, self.armies = [-1] * t, [0] * t
        self.territory_count, self.alive = [0] * n, [True] * n
        self.hands = [[] for _ in range(n)]
        self.deck, self.discard = [], []
        self.setup_armies = [rules.starting_armies_for(self.humans, self.board)] * n
        self.sets_traded = self.pending = self.turn = self.conquests_this_turn = 0
        self.winner = self.last_battle = self._attack = self._occupy = None
        self.conquered_this_turn = self.placed_this_turn = self.territory_bonus_used = False
        self.attacked_this_turn = self.traded_this_turn = False
        for name, kept in _VARIANT_FIELDS:
            setattr(self, name, kept.absent(n) if kept.absent is not None else None)
        for setup in hooks.setup:
            setup(self)
        self.first_player = self._chance_player("first", list(range(self.humans)))
        self.current = self.placing_for = self.to_act = self.first_player
        check_board_fits(self)
        if rules.setup == "deal":
            deal_territories(self)
            self.phase = Phase.SETUP_PLACE
            for dealt in hooks.after_deal:
                dealt(self)
            next_setup_placer(self, self.first_player)
        else:
            self.phase = Phase.CLAIM
        for observe in hooks.observe:
            observe(self)

    def _seat(self, players: Sequence[str] | int) -> tuple[str, ...]:
        """The seats' names: the players', then any extra seats' (2-player RISK's neutral armies)."""
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        extra: list[str] = []
        if self.hooks.seat_names is not None:
            names, extra = self.hooks.seat_names(names)
        self.rules.check_player_count(len(names), self.board)
        self.humans = len(names)
        names += extra
        if len(set(names)) != len(names):
            raise RulesError(f"player names must be different: {names}")
        for name in names:
            if problem := unshown_in_name(name):
                raise RulesError(problem)
        if any(not name.strip() or any(ch in name for ch in ',\n"') for name in names):
            raise RulesError(f"player names must be non-empty without commas or quotes: {names}")
        return tuple(names)

    # ------------------------------------------------------------------------------------------
    # the turn machine: the steps between actions
    # ------------------------------------------------------------------------------------------
    def end_setup(self) -> None:
        self._shuffle_deck()
        for finish in self.hooks.finish_setup:
            if finish(self):
                return  # a variant's step comes first (Capital RISK: the headquarters)
        self.begin_play()

    def begin_play(self) -> None:
        if self.rules.first_turn == "roll":
            first = self._chance_player("first-turn", list(range(self.humans)))
        else:
            first = self.first_player
        self._start_turn(first)

    def _start_turn(self, player: int) -> None:
        if not self.alive[player]:
            player = self.in_game_from(player)  # a player who resigned during the setup
        self.current = self.to_act = player
        self.turn += 1
        self.conquered_this_turn = self.placed_this_turn = self.territory_bonus_used = False
        self.attacked_this_turn = self.traded_this_turn = False
        for start in self.hooks.start_turn:
            start(self)
        self.conquests_this_turn = 0
        self.pending = self.reinforcement_for(player)
        self.phase = _REINFORCE
        for changed in self.hooks.reinforcements_changed:
            changed(self)

    def pass_turn(self) -> None:
        player, n = self.current, self.humans
        for i in range(1, n + 1):
            p = (player + i) % n
            if self.alive[p]:
                self._start_turn(p)
                return

    def settle_roll(
        self, source: int, target: int, attacker_dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> None:
        settle = self.hooks.settle_battle or battle.settle_battle
        settle(self, source, target, attacker_dice, attack, defence)

    def move_in(self, count: int) -> None:
        battle.occupy(self, count)

    # ------------------------------------------------------------------------------------------
    # actions
    # ------------------------------------------------------------------------------------------
    def legal_actions(self) -> LegalActions:
        """The legal actions of the player to act: a lazy collection (iterate, ``len``, ``in``)."""
        return LegalActions(self, self.is_legal)

    def parse(self, text: str) -> Action:
        return parse_action(text, self.board)

    def text(self, action: Action) -> str:
        """The action in the notation on this game's board, as python-chess's ``board.san(move)``:
        ``str(action)`` is the dataclass (``Claim(territory=0)``), this is ``'claim alaska'``."""
        return action.text(self.board)

    def action_text(self, action: Action) -> str:
        return action.text(self.board)

    def apply(self, action: Action | str) -> None:
        """Check and apply an action of the player to act (an :data:`Action` or its text).

        Raises :class:`NotationError` for text that is not an action, :class:`IllegalActionError`
        for an action the rules refuse now; in both cases the game is unchanged.
        """
        if isinstance(action, str):
            action = parse_action(action, self.board)
        self.check(action)
        self._apply(action)

    def apply_with_dice(
        self, action: Action | str, attacker_dice: tuple[int, ...], defender_dice: tuple[int, ...]
    ) -> None:
        """Apply the action that rolls a battle (``attack`` or ``defend``) with the dice given.

        Chance as an explicit step, for search and for the rulebook examples; the generator is
        still advanced as if it had rolled, so a game stays in step with its seed's other events.
        """
        if isinstance(action, str):
            action = parse_action(action, self.board)
        self.check(action)
        outcome = (tuple(sorted(attacker_dice, reverse=True)), tuple(sorted(defender_dice, reverse=True)))
        if not all(1 <= d <= 6 for d in outcome[0] + outcome[1]):
            raise IllegalActionError(f"dice show 1 to 6, not {attacker_dice} and {defender_dice}")
        saved, self._script = self._script, deque([("dice", outcome)])
        try:
            before = len(self.history)
            snapshot = self.copy()
            try:
                self._apply(action)
            except IllegalActionError:
                self._restore(snapshot)
                raise
            if self._script:
                # Nothing rolled: say which action would have, so the caller can give it the dice.
                defender_chooses = self.phase is _DEFEND
                self._restore(snapshot)
                if defender_chooses:
                    raise IllegalActionError(
                        f"{self._describe(action)} does not roll the dice now: the "
                        "defender chooses its dice first: give the dice with its "
                        "'defend N'"
                    )
                if not isinstance(action, (Attack, Defend)):
                    raise IllegalActionError(
                        f"{self._describe(action)} does not roll the dice: only an attack or a defence does"
                    )
                raise IllegalActionError(f"{self._describe(action)} does not roll the dice now")
            assert len(self.history) > before
        finally:
            self._script = saved

    def replay_chance(self, outcomes: deque[tuple[str, Any]] | None, verify: bool = False) -> None:
        """Replaying a record: the next actions take their chance outcomes from ``outcomes`` (each
        checked against the generator; with ``verify`` one that differs is refused), or from the
        generator again with ``None``."""
        self._script, self._verify = outcomes, verify

    def same_generator(self, other: Game) -> bool:
        """Whether ``other``'s generator is in the same state as this game's: nothing random happened
        between the two (for the server's undo; a generator state is a secret, never shown)."""
        return self._rng.getstate() == other._rng.getstate()

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (from :meth:`legal_actions`): the fast path for search."""
        self._apply(action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now; else return."""
        phase = self.phase
        if phase == _GAME_OVER:
            raise GameOverError(f"{self._describe(action)}: the game is over")
        name = self.players[self.to_act]
        try:
            refuse = self.hooks.refusals[type(action)]
        except KeyError:
            fail = f"{action!r} is not an action"
        else:
            fail = refuse(self, action, name)
        if fail:
            raise IllegalActionError(
                f"{self._describe(action)}: {fail} ({name} to act, phase {PHASE_NAMES[phase]})"
            )

    def _describe(self, action: Action) -> str:
        try:
            return repr(action.text(self.board))
        except (IndexError, AttributeError, TypeError, ValueError):
            return repr(action)

    def _apply(self, action: Action) -> None:
        kind = type(action)
        hooks = self.hooks
        try:
            effect = hooks.effects[kind]
        except KeyError:
            raise IllegalActionError(f"{action!r} is not an action") from None
        if kind is not Resign:  # a resignation may come out of turn: it writes who resigns
            self.history.append(("action", self.to_act, action))
        effect(self, action)
        if hooks.after_action and self.turn > 0 and self.phase != _GAME_OVER:
            for after in hooks.after_action:
                after(self)
        if hooks.observe:
            for observe in hooks.observe:
                observe(self)

    def resigned_players(self) -> list[int]:
        """The players who resigned, in the order they did (read from the history)."""
        return [who for kind, who, value in self.history if kind == "action" and type(value) is Resign]

    # ------------------------------------------------------------------------------------------
    # how the game ended
    # ------------------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        if (resigned := self._resignation_outcome()) is not None:
            return resigned
        w = self.winner
        last = sum(self.alive[: self.humans]) == 1
        for outcome in self.hooks.outcome:
            if (found := outcome(self, w, last)) is not None:
                return found
        return Outcome(w, "the last player standing" if last else "world domination", (w,))

    def _resignation_outcome(self) -> Outcome | None:
        """How the game ended, if a resignation ended it (the last action is a resignation)."""
        last = None
        # An index loop: mypyc (mypy 2.4.1) fails on a generator or a loop over reversed(list) here.
        for index in range(len(self.history) - 1, -1, -1):
            if self.history[index][0] == "action":
                last = self.history[index][2]
                break
        if type(last) is not Resign or self.winner is None or last.player is None:
            return None
        w, gone = self.winner, self.players[last.player]
        for outcome in self.hooks.resignation_outcome:
            if (found := outcome(self, w, gone)) is not None:
                return found
        if self.turn == 0:
            # No one is out of the setup but by resigning: every other player resigned, before a turn.
            others = ", ".join(self.players[p] for p in self.resigned_players())
            return Outcome(w, f"the other players resigned during the setup ({others})", (w,))
        return Outcome(w, f"the last player in the game: {gone} resigned", (w,))

    # ------------------------------------------------------------------------------------------
    # queries
    # ------------------------------------------------------------------------------------------
    @property
    def pending_attack(self) -> tuple[int, int, int] | None:
        """(source, target, attacker dice) of the attack awaiting the defender's dice."""
        return self._attack

    @property
    def pending_occupation(self) -> tuple[int, int, int] | None:
        """(source, target, minimum armies) of the conquest awaiting the move-in."""
        return None if self._occupy is None else self._occupy[:3]

    @property
    def pending_roll(self) -> tuple[int, int, tuple[int, ...], tuple[int, ...], bool] | None:
        """1993 experts: (source, target, attacker dice, defender dice, re-rolled yet) of a roll the
        attacker may still change."""
        if self._rolled is None:
            return None
        source, target, _, attack, defence, rerolled = self._rolled
        return source, target, attack, defence, rerolled

    # A variant's own queries are asked of the variant's module (``risk.rules.variants.team.team_at``,
    # ``...missions.claimable_missions``...) or of a View, never re-exposed here.

    # ------------------------------------------------------------------------------------------
    # copying and serialising: through the fields' declarations (state.py)
    # ------------------------------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy, generator state included: cheap enough for search. (Fog of war's
        memories are shared until the engine replaces them: no one writes into them.)"""
        other = _blank_game()
        for name in _SHARED_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in _LIST_FIELDS:
            setattr(other, name, getattr(self, name)[:])
        for name, copy in _OTHER_FIELDS:
            setattr(other, name, copy(getattr(self, name)))
        return other

    def _restore(self, snapshot: Game) -> None:
        """Put this game back to ``snapshot`` (a copy taken before a refused step)."""
        for name, _ in _FIELDS:
            if name not in ("_script", "_verify"):
                setattr(self, name, getattr(snapshot, name))

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data, secrets and generator included: for saving, not players."""
        data: dict[str, Any] = {"format": "risk-state 1"}
        seats = len(self.players)
        for name, kept in _FIELDS:
            if kept.save is not None:
                value = getattr(self, name)
                if kept.omit_absent and kept.absent is not None and value == kept.absent(seats):
                    continue
                data[saved_key(name, kept)] = kept.save(value, self)
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Game:
        """Restore a game saved with :meth:`to_dict`."""
        try:
            if data.get("format") != "risk-state 1":
                raise RulesError("not a risk-state 1 snapshot")
            game = _blank_game()
            for name in ("rules", "board", "players"):
                setattr(game, name, _KEPT[name].load(data[name], game))
            game.hooks = hooks_for(game.rules)
            game.goal = game.hooks.goal or WORLD_DOMINATION
            game.humans = len(game.players) - game.rules.neutrals
            game.neutral = [i >= game.humans for i in range(len(game.players))]
            game._script, game._verify = None, False
            for name, kept in _FIELDS:
                if kept.save is None or name in ("rules", "board", "players"):
                    continue
                key, absent = saved_key(name, kept), kept.absent
                if key not in data and kept.optional:
                    setattr(game, name, None if absent is None else absent(len(game.players)))
                else:
                    setattr(game, name, kept.load(data[key], game))
            for name, kept in _VARIANT_FIELDS:
                if kept.save is None:
                    setattr(game, name, None if kept.absent is None else kept.absent(len(game.players)))
            for restore in game.hooks.restore:
                restore(game)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            if isinstance(error, RulesError):
                raise
            raise RulesError(f"malformed game snapshot: {error!r}") from None
        return game


def _blank_game() -> Game:
    """A game with no fields set, for a copy or a restore to fill (not ``Game.__new__``: the compiled
    build's ``__new__`` runs ``__init__``)."""
    return Game("", 0, _blank=True)


_FIELDS: list[tuple[str, Kept]] = state_fields(Game)
_KEPT = dict(_FIELDS)
_VARIANT_FIELDS = [field for cls in VARIANT_STATES for field in declared_fields(cls)]
# Copying by kind: most fields are shared (immutable) or flat lists.
_SHARED_FIELDS = tuple(name for name, kept in _FIELDS if kept.copy is same)
_LIST_FIELDS = tuple(name for name, kept in _FIELDS if kept.copy is copy_list)
_OTHER_FIELDS = tuple((name, kept.copy) for name, kept in _FIELDS if kept.copy not in (same, copy_list))


# The names the rest of the package imports from here (some live in state.py and the phases).
__all__ = [
    "PHASE_NAMES",
    "TIED",
    "Battle",
    "ChanceMismatch",
    "Game",
    "LegalActions",
    "Outcome",
    "Phase",
    "battle_losses",
    "fixed_set_value",
    "is_set",
    "trade_options",
]
