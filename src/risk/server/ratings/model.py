"""What a rated game changes: its players' finishing order, the family and pace it is rated in, and the
new ratings (OpenSkill's Plackett-Luce model, `openskill`; teams in Team RISK).

The finishing order: the winners first (a whole team in Team RISK); then the players still in the game
at the end, tied; then the players knocked out, the last one out first; a player who resigned, or whose
seat a stand-in bot was playing at the end (their clock ran out, or they handed it over), comes below
every player who played on, whatever their seat did after (resigning and abandoning cost what a
loss does), those who left last above those who left first.

Damping: the Nth rated game within :data:`DAMPING_WINDOW_S` among exactly the same accounts moves each
rating by 1/N of what the model says (the 1st fully, the 2nd half, the 3rd a third...), so a pair or a
group playing each other over and over to farm points moves little.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from risk.rules.actions import Resign
from risk.rules.game import Game
from risk.rules.options import Rules

DAMPING_WINDOW_S = 24 * 3_600.0
DAYS_TURN_S = 3_600.0  # a turn clock of an hour or more: a game that lasts days
PACES = ("live", "days")
_MODEL = PlackettLuce()
MU, SIGMA = _MODEL.mu, _MODEL.sigma  # a new player's rating: 25 +- 8.33


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def conservative(self) -> float:
        """What the leaderboard ranks by: mu - 3 sigma, the rating the player is almost surely above
        (0 for a new player)."""
        return self.mu - 3 * self.sigma


def family_of(rules: Rules) -> str:
    """The game family a game is rated in: its game (world, two-player, secret-mission, capital,
    mission, team, ...), whatever the edition and options."""
    return rules.game


def pace_of(turn_time: float) -> str:
    """``days`` for a turn clock of an hour or more, else ``live``."""
    return "days" if turn_time >= DAYS_TURN_S else "live"


def finishing_order(game: Game, left: Sequence[int] = ()) -> list[int]:
    """Each human seat's place, 1 the best, ties sharing a place (see the module's text); ``left``:
    the seats whose stand-in bot was playing at the end because they stopped playing. The game's
    history is replayed (from its recorded chance outcomes) to see who went out when."""
    humans = game.humans
    outcomes = deque((kind, value) for entry, kind, value in game.history if entry == "chance")
    replay = Game(game.rules, list(game.players[:humans]), seed=0, board=game.board, _script=outcomes)
    out_at: dict[int, int] = {}  # seat -> the action after which it was out
    resigned: set[int] = set()
    step = 0
    for entry, seat, action in game.history:
        if entry != "action":
            continue
        replay.apply(action)
        step += 1
        if isinstance(action, Resign):
            resigned.add(seat)
        for other in range(humans):
            if other not in out_at and not replay.alive[other]:
                out_at[other] = step
    outcome = game.outcome()
    winners = set(outcome.winners) if outcome is not None else set()
    gone = {seat for seat in range(humans) if seat in resigned or seat in left} - winners
    # Sort keys: winners, then those still in, then those out (later out is better), then those gone.
    end = step + 1

    def key(seat: int) -> tuple[int, int]:
        if seat in winners:
            return (0, 0)
        if seat in gone:
            return (3, -out_at.get(seat, end))
        if seat not in out_at:
            return (1, 0)
        return (2, -out_at[seat])

    keys = {seat: key(seat) for seat in range(humans)}
    ordered = sorted(set(keys.values()))
    return [ordered.index(keys[seat]) + 1 for seat in range(humans)]


def rate(
    ratings: Sequence[Rating],
    places: Sequence[int],
    teams: Sequence[int] | None = None,
    damping: Sequence[float] = (),
) -> list[Rating]:
    """The new rating of each player after a game where player ``i`` finished at ``places[i]`` (1 the
    best); ``teams``: each player's team (Team RISK: a team finishes together and is rated as one);
    ``damping``: each player's factor (1.0: the model's whole move)."""
    players = range(len(ratings))
    team_ids = list(teams) if teams is not None else list(players)
    groups = sorted(set(team_ids))
    members = {group: [p for p in players if team_ids[p] == group] for group in groups}
    model_teams = [
        [_MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma) for p in members[g]] for g in groups
    ]
    ranks = [float(min(places[p] for p in members[g])) for g in groups]
    moved = _MODEL.rate(model_teams, ranks=ranks)
    after: dict[int, Rating] = {}
    for group, team in zip(groups, moved, strict=True):
        for p, new in zip(members[group], team, strict=True):
            factor = damping[p] if p < len(damping) else 1.0
            old = ratings[p]
            after[p] = Rating(
                old.mu + factor * (new.mu - old.mu),
                old.sigma + factor * (new.sigma - old.sigma),
                old.games + 1,
            )
    return [after[p] for p in players]
