"""Fog of war (the ``fog`` option; ours, not in any rulebook: docs/rules.md, "Fog of war").

A player sees the owner and armies of the territories it holds (in Team RISK, its team's; with
active neutrals, its allied neutral's) and of the territories next to them, and nothing else of the
board. During the claiming of the 1993 and 2003 setups every unclaimed territory is in sight as
well: which territories are still free is what a player chooses from. A territory out of sight keeps
what its player last saw of it (``seen_owner``, ``seen_armies``, and the turn it went out of sight,
``seen_turn``; for a territory in sight these hold its present values): the engine writes that
memory after every action, so a saved game keeps it and a restarted one goes on
with the same fog. A territory watched before an action shows how the action left it.

Which history entries a player witnessed is kept too (``witnessed``: a bit per seat, or
``EVERYONE``): an entry that names territories (a claim, a placement, an attack and its dice, a move,
a fortification) is seen by the players who saw every territory it names, before or after it, and
by its actor; the others (a trade, the end of an attack or a turn, a card drawn, a resignation, the
setup's rolls and deals) are public, as the rulebooks make them. So is the latest battle each player
witnessed (``seen_battle``): an unseen roll leaves what a player last saw of the dice as it was.
:class:`risk.view.View` shows a player only that; this module holds the rules of what is seen, the
view applies them.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Final

from mypy_extensions import trait

from risk.rules.actions import (
    AcceptDice,
    Attack,
    Commander,
    Defend,
    Occupy,
    Reroll,
    action_territories,
)
from risk.rules.options import Rules
from risk.rules.state import LIST, LISTS, NEVER_SEEN, Battle, Kept, Phase, State, same
from risk.rules.variants.base import Variant

EVERYONE: Final = -1  # a public history entry
NEVER: Final = NEVER_SEEN  # seen_turn of a territory never seen
UNSEEN_OWNER: Final = -1  # seen_owner of a territory never seen (as an unclaimed one)


def _empty(seats: int) -> list[Any]:
    return []


# The memories are copied on write (observe replaces a row it changes, never writes into one), so a
# copy of the game shares them: copying a game (search copies thousands) costs nothing more for them.
_SHARED_LISTS = LISTS._replace(copy=same).when_absent(_empty).added_later()
_NOT_SAVED = Kept(same, None, absent=lambda seats: None)


def _save_battles(battles: list[Battle | None], state: Any) -> Any:
    return [None if b is None else list(b) for b in battles]


def _load_battles(value: Any, state: Any) -> list[Battle | None]:
    return [None if b is None else Battle(b[0], b[1], tuple(b[2]), tuple(b[3]), *b[4:]) for b in value]


# Replaced whole when a battle is seen, never written: a copy of the game shares it.
_BATTLES = Kept(same, _save_battles, _load_battles).when_absent(_empty).added_later()
# The actions that may settle a battle: an attack (a defender of one army rolls at once), the
# defender's dice, and the 1993 experts' changes to the dice.
_BATTLE_ACTIONS: Final = (Attack, Defend, AcceptDice, Reroll, Commander)


@trait
class FogState(State):
    __slots__ = ()
    # By seat, by territory: what that seat last saw (owner, armies) and the turn it saw it.
    seen_owner: Annotated[list[list[int]], _SHARED_LISTS]
    seen_armies: Annotated[list[list[int]], _SHARED_LISTS]
    seen_turn: Annotated[list[list[int]], _SHARED_LISTS]
    # By seat, by territory: in sight at the last action (1) or not (0); replaced whole, never written.
    in_sight: Annotated[list[list[int]], _SHARED_LISTS]
    # One per history entry: the seats that witnessed it, a bit each, or EVERYONE.
    witnessed: Annotated[list[int], LIST.when_absent(_empty).added_later()]
    # By seat: the latest battle it witnessed (None: none yet).
    seen_battle: Annotated[list[Battle | None], _BATTLES]
    # The board and what decides sight at the last observation: only what changed since is looked
    # at again. Not saved (a restored game rebuilds it from the memories); never written, so shared.
    fog_last: Annotated[tuple[Any, ...] | None, _NOT_SAVED]


def holds(game: Any, seat: int, territory: int) -> bool:
    """Whether ``territory`` is held by ``seat``, its team, or the neutral allied with it."""
    owner = game.owner[territory]
    if owner == seat:
        return True
    if owner < 0:
        if owner == -2 and game.team is not None:  # Team RISK: a tie, armies of both teams there
            units = game.units[territory]
            return any(units[q] > 0 and game.team[q] == game.team[seat] for q in range(len(units)))
        return False
    if game.team is not None and game.team[owner] == game.team[seat]:
        return True
    ally = game.ally
    return bool(ally) and ally[owner] == seat


def sight(game: Any, seat: int) -> list[int]:
    """The territories ``seat`` sees now: 1 in sight, 0 not (nothing once it is out of the game)."""
    return sights(game)[seat]


def sights(game: Any) -> list[list[int]]:
    """Every player's sight (:func:`sight`), in one pass over the board."""
    board = game.board
    count, seats = len(board), game.humans
    seen = [[0] * count for _ in range(seats)]
    neighbours, owner, alive = board.neighbours, game.owner, game.alive
    # Without teams or allies a territory is in its owner's sight alone: the common, quick case.
    simple = game.team is None and all(a < 0 for a in game.ally)
    for territory in range(count):
        held = owner[territory]
        if simple:
            holders = [held] if 0 <= held < seats and alive[held] else []
        else:
            holders = [p for p in range(seats) if alive[p] and holds(game, p, territory)]
        for holder in holders:
            row = seen[holder]
            row[territory] = 1
            for near in neighbours[territory]:
                row[near] = 1
    phase = game.phase
    if phase == Phase.CLAIM:
        for territory in range(count):
            if owner[territory] == -1:
                for seat in range(seats):
                    if alive[seat]:
                        seen[seat][territory] = 1
    elif phase == Phase.SETUP_PLACE and 0 <= game.to_act < seats and game.placing_for != game.to_act:
        # 2-player RISK: whoever places a neutral's army chooses among the neutral's territories.
        row = seen[game.to_act]
        for territory in range(count):
            if owner[territory] == game.placing_for:
                row[territory] = 1
    elif phase == Phase.DEFEND and 0 <= game.to_act < seats and game.pending_attack is not None:
        # Whoever chooses the defence's dice sees the battle (2-player RISK: a neutral's, anywhere).
        source, target, _ = game.pending_attack
        seen[game.to_act][source] = seen[game.to_act][target] = 1
    return seen


def _sight_inputs(game: Any) -> tuple[Any, ...] | None:
    """What sight depends on besides the owners (compared with the owners between observations);
    ``None`` where it is not worth comparing (teams and allies, the setup, a defence being chosen)."""
    if game.team is not None or any(a >= 0 for a in game.ally):
        return None
    if game.phase in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.DEFEND):
        return None
    return (tuple(game.owner), tuple(game.alive))


def named_territories(game: Any, entry: tuple[str, Any, Any]) -> tuple[int, ...] | None:
    """The territories a history entry names, as fog judges who saw it (``None``: public), read
    just after the entry's action was applied."""
    kind, _, value = entry
    if kind != "action":
        return None
    named = action_territories(value)
    if named is not None:
        return named
    if isinstance(value, (Defend, Occupy, Reroll, Commander, AcceptDice)):
        # The battle it continues: the one settled or still to settle.
        rolled = game.pending_roll
        if rolled is not None:
            return (rolled[0], rolled[1])
        battle = game.last_battle
        return None if battle is None else (battle.source, battle.target)
    return None


def observe(game: Any) -> None:
    """After every action (and once the game is set up): each seat's memory of what it sees, and
    who witnessed the history entries added since the last time."""
    seats = game.humans
    count = len(game.board)
    if not game.seen_owner:
        game.seen_owner = [[UNSEEN_OWNER] * count for _ in range(seats)]
        game.seen_armies = [[0] * count for _ in range(seats)]
        game.seen_turn = [[NEVER] * count for _ in range(seats)]
        game.in_sight = [[0] * count for _ in range(seats)]
    before = game.in_sight
    owner, armies, turn = game.owner, game.armies, game.turn
    last = game.fog_last
    inputs = _sight_inputs(game)
    if last is None:
        # A new, copied or restored game: the board at the last observation, as far as it matters,
        # is in the memories of those who had it in sight (so a restored game goes on exactly as
        # the one saved would have); what no one saw then counts as unchanged.
        last_owner, last_armies = owner[:], armies[:]
        for seat in range(seats):
            for t in range(count):
                if before[seat][t]:
                    last_owner[t], last_armies[t] = game.seen_owner[seat][t], game.seen_armies[seat][t]
        last = (last_owner, last_armies, None)
    last_owner, last_armies, last_inputs = last
    after = before if inputs is not None and inputs == last_inputs else sights(game)
    changed = [t for t in range(count) if owner[t] != last_owner[t] or armies[t] != last_armies[t]]
    rows: tuple[list[list[int]], list[list[int]], list[list[int]]] | None = None  # copied on write
    for seat in range(seats):
        was, now = before[seat], after[seat]
        # Territories whose memory may change: those that changed, in sight before or after, and
        # those coming into or out of sight.
        looked = (
            changed
            if was is now or was == now
            else sorted({*changed, *(t for t in range(count) if was[t] != now[t])})
        )
        touched = [t for t in looked if was[t] or now[t]]
        if not touched:
            continue
        if rows is None:
            rows = (game.seen_owner[:], game.seen_armies[:], game.seen_turn[:])
        seen_owner = rows[0][seat] = rows[0][seat][:]
        seen_armies = rows[1][seat] = rows[1][seat][:]
        seen_turn = rows[2][seat] = rows[2][seat][:]
        for t in touched:
            seen_owner[t], seen_armies[t], seen_turn[t] = owner[t], armies[t], turn
    if rows is not None:
        game.seen_owner, game.seen_armies, game.seen_turn = rows
    game.fog_last = (owner[:], armies[:], inputs)
    history, witnessed = game.history, game.witnessed
    last_mask = EVERYONE
    settled = False
    for index in range(len(witnessed), len(history)):
        entry = history[index]
        kind, who, value = entry
        if kind == "action":
            settled = isinstance(value, _BATTLE_ACTIONS)
            names = named_territories(game, entry)
            if names is None:
                last_mask = EVERYONE
            else:
                last_mask = 0
                for seat in range(seats):
                    if seat == who or all(before[seat][t] or after[seat][t] for t in names):
                        last_mask |= 1 << seat
            if last_mask != EVERYONE and game.phase == Phase.DEFEND and 0 <= game.to_act < seats:
                last_mask |= 1 << game.to_act  # it chooses the defence's dice (a neutral's, too)
            witnessed.append(last_mask)
        elif who in ("dice", "die"):
            witnessed.append(last_mask)  # the battle's dice: seen with the action that rolled them
        else:
            witnessed.append(EVERYONE)
    # A battle settled by this action (none is while the defender or the attacker's dice are awaited):
    # the seats that witnessed it remember it.
    if (
        settled
        and game.last_battle is not None
        and game.pending_attack is None
        and game.pending_roll is None
        and last_mask != EVERYONE
    ):
        seen = game.seen_battle[:] if game.seen_battle else [None] * seats
        for seat in range(seats):
            if last_mask >> seat & 1:
                seen[seat] = game.last_battle
        game.seen_battle = seen
    game.in_sight = after


def sees(mask: int, seat: int) -> bool:
    """Whether ``seat`` witnessed an entry of ``mask``."""
    return mask == EVERYONE or (seat >= 0 and bool(mask >> seat & 1))


def sample_board(real: Any, game: Any, me: int, rng: random.Random) -> None:
    """Determinisation: owners and armies of the territories out of ``me``'s sight, from its memory.

    A territory it saw keeps the owner it saw there while that player is still in the game (else
    another player still in it, at random) and the armies it saw; one it never saw goes to a player
    still in the game at random, with the median of the opposing armies it sees. Every player still
    in the game holds at least one territory (an elimination is public)."""
    count = len(real.board)
    sight = real.in_sight[me] if me >= 0 else [0] * count
    seen_owner = real.seen_owner[me] if me >= 0 else [-1] * count
    seen_armies = real.seen_armies[me] if me >= 0 else [0] * count
    rivals = [
        p
        for p in range(len(real.players))
        if p != me and real.alive[p] and (real.team is None or me < 0 or real.team[p] != real.team[me])
    ]
    hidden = [t for t in range(count) if not sight[t]]
    if rivals and hidden:
        visible_rivals = sorted(real.armies[t] for t in range(count) if sight[t] and real.owner[t] in rivals)
        typical = visible_rivals[len(visible_rivals) // 2] if visible_rivals else 3
        for t in hidden:
            owner = seen_owner[t]
            if owner in rivals:
                game.owner[t], game.armies[t] = owner, max(1, seen_armies[t])
            else:
                game.owner[t] = rivals[int(rng.random() * len(rivals))]
                game.armies[t] = max(1, seen_armies[t] if owner >= 0 else typical)
        held = [0] * len(real.players)
        for t in range(count):
            if game.owner[t] >= 0:
                held[game.owner[t]] += 1
        for p in rivals:
            if held[p] == 0:  # still in the game: it holds something out of sight
                spare = [t for t in hidden if held[game.owner[t]] > 1]
                if spare:
                    t = spare[int(rng.random() * len(spare))]
                    held[game.owner[t]] -= 1
                    game.owner[t] = p
                    held[p] = 1
    if game.units is not None:  # Team RISK: a sampled territory's armies are its owner's
        for t in hidden:
            row = [0] * len(real.players)
            if game.owner[t] >= 0:
                row[game.owner[t]] = game.armies[t]
            game.units[t] = row
    game.territory_count = [0] * len(real.players)
    for owner in game.owner:
        if owner >= 0:
            game.territory_count[owner] += 1
    if game.current != me and game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        game.pending = 0 if game.phase != Phase.REINFORCE else game.reinforcement_for(game.current)
    game.last_battle = None


def step_hidden(game: Any, seat: int) -> bool:
    """Another player's turn of play, whose step ``seat`` may not know. Its own turn, a step it must
    act in (a defence), its teammate's turn (Team RISK: every step of it is in the team's sight) and
    the setup (turn by turn, in the open) are shown."""
    if game.turn == 0 or game.is_over:  # the setup, or everything shown
        return False
    if seat == game.current or seat == game.to_act:
        return False
    team = game.team
    return team is None or seat < 0 or team[seat] != team[game.current]


class Fog(Variant[FogState]):
    name = "fog"

    def setup(self, game: FogState) -> None:
        game.seen_owner, game.seen_armies, game.seen_turn, game.in_sight = [], [], [], []
        game.witnessed, game.seen_battle = [], []

    def observe(self, game: FogState) -> None:
        observe(game)

    # -- the hidden board, as the view, the records and determinisation ask it ------------------------
    def in_sight(self, game: FogState, seat: int) -> list[int]:
        return game.in_sight[seat]

    def memory(self, game: FogState, seat: int) -> tuple[list[int], list[int], list[int]]:
        return game.seen_owner[seat], game.seen_armies[seat], game.seen_turn[seat]

    def seen_battle(self, game: FogState, seat: int) -> Battle | None:
        seen = game.seen_battle
        return seen[seat] if 0 <= seat < len(seen) else None

    def step_hidden(self, game: FogState, seat: int) -> bool:
        return step_hidden(game, seat)

    def witnessed(self, game: FogState, index: int, seat: int) -> bool:
        return sees(game.witnessed[index], seat)

    def sample_board(self, real: FogState, sample: FogState, seat: int, rng: random.Random) -> None:
        sample_board(real, sample, seat, rng)

    def in_the_open(self, game: FogState) -> Rules:
        game.seen_owner, game.seen_armies, game.seen_turn, game.in_sight, game.witnessed = [], [], [], [], []
        return game.rules.with_options(fog="off")
