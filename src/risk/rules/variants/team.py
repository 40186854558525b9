"""Team RISK (2003): two teams of alternating seats; teammates share cards and may share territories.

"For 4 or 6 Players in 2 Teams". Each territory holds units by seat (a teammate may move in); "The
player that has the most units in a territory controls that territory. If two players tie for the
most, then NO ONE controls that territory" (owner ``TIED``). "Territory cards are shared by the
team": teammates hold one hand. "You may not attack another player on your team." "The game is over
when ONE player on a team is eliminated. The other team wins."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from mypy_extensions import trait

from risk.errors import RulesError
from risk.rules.actions import Attack, Fortify
from risk.rules.goal import Goal, GoalKind
from risk.rules.state import DERIVED, LISTS, TIED, Battle, Outcome, Phase, State, battle_losses
from risk.rules.variants.base import Variant


@trait
class TeamState(State):
    """Team RISK's fields: each seat's team ("two alternating teams", so seat % 2) and each
    territory's units by seat."""

    __slots__ = ()
    team: Annotated[list[int] | None, DERIVED.when_absent(lambda seats: None)]
    units: Annotated[list[list[int]] | None, LISTS.when_absent(lambda seats: None)]


def _units(game: TeamState) -> list[list[int]]:
    assert game.units is not None
    return game.units


def _teams(game: TeamState) -> list[int]:
    assert game.team is not None
    return game.team


def team_at(game: TeamState, territory: int) -> int:
    """The team whose units hold ``territory`` (a territory never holds both teams), or -1."""
    for seat, count in enumerate(_units(game)[territory]):
        if count:
            return _teams(game)[seat]
    return -1


def recontrol(game: TeamState, territory: int) -> None:
    """The controller of ``territory``: whoever has the most units there, no one (TIED) on a tie."""
    stack = _units(game)[territory]
    most = max(stack)
    holders = [p for p, c in enumerate(stack) if c == most]
    controller = holders[0] if len(holders) == 1 and most > 0 else TIED
    previous = game.owner[territory]
    if controller != previous:
        if previous >= 0:
            game.territory_count[previous] -= 1
        if controller >= 0:
            game.territory_count[controller] += 1
        game.owner[territory] = controller


def _eliminate(game: TeamState, seat: int) -> bool:
    """A player is out when no unit of theirs is left on the board: the other team wins."""
    if not game.alive[seat] or any(stack[seat] for stack in _units(game)):
        return False
    game.alive[seat] = False
    game.end_game(game.current)
    return True


def _mates(game: TeamState, winner: int) -> tuple[list[str], tuple[int, ...]]:
    team = _teams(game)
    seats = tuple(p for p in range(game.humans) if team[p] == team[winner])
    return [game.players[p] for p in seats], seats


class Team(Variant[TeamState]):
    name = "team"
    goal = Goal(GoalKind.TEAM)

    def setup(self, game: TeamState) -> None:
        n = len(game.players)
        if n not in (4, 6):
            raise RulesError(f"Team RISK is for 4 or 6 players in two teams, not {n}")
        game.units = [[0] * n for _ in range(len(game.board))]
        self.restore(game)

    def restore(self, game: TeamState) -> None:
        n = len(game.players)
        game.team = [seat % 2 for seat in range(n)]
        game.hands = [game.hands[seat % 2] for seat in range(n)]  # one hand per team

    # -- armies by seat --------------------------------------------------------------------------------
    def force(self, game: TeamState, territory: int, seat: int) -> int:
        return _units(game)[territory][seat]

    def defending_seat(self, game: TeamState, territory: int) -> int:
        """The seat with the most units there rolls and loses units first (on a tie, the first in
        seat order; our reading: the book is silent)."""
        stack = _units(game)[territory]
        return stack.index(max(stack))

    def taken(self, game: TeamState, territory: int, seat: int, count: int) -> None:
        stack = _units(game)[territory]
        stack[:] = [0] * len(stack)
        stack[seat] = count

    def added(self, game: TeamState, territory: int, seat: int, count: int) -> None:
        _units(game)[territory][seat] += count
        recontrol(game, territory)

    def lose_defenders(self, game: TeamState, territory: int, count: int) -> None:
        for _ in range(count):
            game.add_armies(territory, self.defending_seat(game, territory), -1)

    def mover(self, game: TeamState, territory: int) -> int:
        return game.current  # only your own units move

    def may_reinforce(self, game: TeamState, territory: int, player: int) -> bool:
        """Our reading where the book is silent: a player who controls no territory at all places
        its reinforcements where it has armies ("You must place ALL of these reinforcements")."""
        return game.territory_count[player] == 0 and _units(game)[territory][player] > 0

    def fortify_targets(self, game: TeamState, source: int) -> list[int]:
        """ "You may fortify from one territory where you have units to any other territory where you
        or other team members have units", through territories of the team."""
        team = _teams(game)[game.current]
        seen = {source}
        stack = [source]
        while stack:
            for n in game.board.neighbours[stack.pop()]:
                if n not in seen and team_at(game, n) == team:
                    seen.add(n)
                    stack.append(n)
        seen.discard(source)
        return sorted(seen)

    def settle_battle(
        self,
        game: TeamState,
        source: int,
        target: int,
        dice: int,
        attack: tuple[int, ...],
        defence: tuple[int, ...],
    ) -> None:
        attacker_losses, defender_losses = battle_losses(attack, defence)
        player = game.current
        game.add_armies(source, player, -attacker_losses)
        game.lose_defenders(target, defender_losses)
        conquered = game.armies[target] == 0
        game.last_battle = Battle(
            source, target, attack, defence, attacker_losses, defender_losses, conquered
        )
        if not conquered:
            game.phase = Phase.ATTACK
            if defender_losses:
                for seat in range(game.humans):  # the losses may have fallen on any defender there,
                    _eliminate(game, seat)  # and may have taken the last armies of more than one
            return
        game.conquered_this_turn = True
        game.conquests_this_turn += 1
        game.take_territory(target, player, dice)
        game.add_armies(source, player, -dice)
        game._occupy = (source, target, dice, False)
        game.phase = Phase.OCCUPY
        units = _units(game)
        out = [seat for seat in range(game.humans) if game.alive[seat] and not any(u[seat] for u in units)]
        if units[source][player] == 1 or out:
            game.move_in(dice)  # nothing more can move, or the game is about to end
            for seat in out:  # a shared territory: teammates may go out together
                _eliminate(game, seat)

    # -- refusals ----------------------------------------------------------------------------------------
    def target_refusal(self, game: TeamState, source: int, target: int, name: str) -> str:
        if team_at(game, target) == _teams(game)[game.to_act]:
            return (
                f"{game.board.name_of(target)} is held by {name}'s team: "
                "'You may not attack another player on your team'"
            )
        defender = game.owner[target]
        if defender in (game.to_act, game.owner[source]):
            return (
                f"{game.board.name_of(target)} is held by {game.players[defender]}: attack an enemy territory"
            )
        return ""

    def attack_armies_refusal(self, game: TeamState, source: int, seat: int, dice: int, name: str) -> str:
        force = _units(game)[source][seat]
        where = game.board.name_of(source)
        if force < 2:
            return f"{where} has only {force} of {name}'s armies: it takes at least 2 to attack"
        most = min(3, force - 1)
        if not 1 <= dice <= most:
            return f"{where} has {force} armies, so it may roll 1 to {most} dice"
        return ""

    def placement_refusal(self, game: TeamState, territory: int, player: int, name: str) -> str:
        """ "place ALL of them into territories that you control", where "If two players tie for the
        most, then NO ONE controls that territory"."""
        where = game.board.name_of(territory)
        if game.may_reinforce(territory, player):
            return ""
        if game.territory_count[player] == 0:
            return f"{name} has no armies in {where}"
        controller = game.owner[territory]
        why = (
            f"{game.players[controller]} has the most armies there"
            if controller >= 0
            else "a tie for the most armies: 'NO ONE controls that territory'"
        )
        return (
            f"{where} is not controlled by {name} ({why}): "
            "reinforcements go 'into territories that you control'"
        )

    def fortify_refusal(self, game: TeamState, action: Fortify, name: str) -> str:
        board, player = game.board, game.to_act
        source, target = board.name_of(action.source), board.name_of(action.target)
        mine = game.force(action.source, player)
        if mine == 0:
            return f"{name} has no armies in {source}"
        if action.source == action.target:
            return "the armies must move to another territory"
        if action.target not in self.fortify_targets(game, action.source):
            return f"{target} is not connected to {source} through territories of {name}'s team"
        # Only your own units move, and the territory is never left empty.
        most = min(mine, game.armies[action.source] - 1)
        if not 1 <= action.armies <= most:
            return f"{name} can move 1 to {most} armies out of {source} (a territory is never empty)"
        return ""

    # -- legal actions -----------------------------------------------------------------------------------
    def attack_actions(self, game: TeamState) -> Iterator[Attack]:
        player = game.to_act
        owner, armies, adjacent = game.owner, game.armies, game.board.neighbours
        mine = _teams(game)[player]
        for s in range(len(owner)):
            if owner[s] == player and armies[s] >= 2:
                most = min(3, game.force(s, player) - 1)
                for t in adjacent[s]:
                    if owner[t] == player or team_at(game, t) == mine:
                        continue  # no attacks on teammates
                    for d in range(1, most + 1):
                        yield Attack(s, t, d)

    def fortify_actions(self, game: TeamState) -> Iterator[Fortify]:
        player, armies = game.to_act, game.armies
        for s in range(len(game.owner)):
            most = min(game.force(s, player), armies[s] - 1)
            if most >= 1:
                for t in self.fortify_targets(game, s):
                    yield from (Fortify(s, t, n) for n in range(1, most + 1))

    # -- the end ------------------------------------------------------------------------------------------
    def resigned(self, game: TeamState, seat: int, was_to_act: bool) -> bool:
        """A player who resigns is out all the same: the other team wins."""
        team = _teams(game)
        later = [(seat + i) % game.humans for i in range(1, game.humans)]
        game.end_game(next(p for p in later if team[p] != team[seat]))
        return True

    def outcome(self, game: TeamState, winner: int, last_standing: bool) -> Outcome | None:
        team = _teams(game)
        out = [game.players[p] for p in range(game.humans) if team[p] != team[winner] and not game.alive[p]]
        names, seats = _mates(game, winner)
        mates = ", ".join(names[:-1]) + " and " + names[-1]
        gone = out[0] if len(out) == 1 else ", ".join(out[:-1]) + " and " + out[-1]
        return Outcome(
            winner, f"the team of {mates}: {gone} {'was' if len(out) == 1 else 'were'} eliminated", seats
        )

    def resignation_outcome(self, game: TeamState, winner: int, gone: str) -> Outcome | None:
        names, seats = _mates(game, winner)
        return Outcome(winner, f"the team of {', '.join(names[:-1])} and {names[-1]}: {gone} resigned", seats)
