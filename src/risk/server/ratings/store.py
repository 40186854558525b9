"""The ratings in the game database: each account's rating per family and pace, every change, and the
games rated. A game is rated once: its ``rated_games`` row is written in the transaction that changes
the ratings, and a second attempt (another server process, a restart) meets the row's key and changes
nothing."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from risk.server.accounts.store import EngineStore
from risk.server.ratings.model import DAMPING_WINDOW_S, Rating, rate
from risk.server.sql import accounts, rated_games, rating_history, ratings

RATED = "rated"


class RatingStoreError(Exception):
    """The database could not be reached."""


@dataclass(frozen=True)
class Rated:
    """A game's players (account ids, seat order), their places and teams (None: each on its own)."""

    game_id: str
    family: str
    pace: str
    accounts: tuple[str, ...]
    places: tuple[int, ...]
    teams: tuple[int, ...] | None = None


class RatingStore(EngineStore):
    failure = RatingStoreError

    def is_done(self, game_id: str) -> bool:
        with self._begin() as connection:
            return (
                connection.execute(
                    sa.select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)
                ).first()
                is not None
            )

    def not_rated(self, game_id: str, family: str, pace: str, why: str, now: float) -> None:
        """A game marked rated that could not be (``why``): said once, nothing changed."""
        with contextlib.suppress(IntegrityError), self._begin(write=True) as connection:
            connection.execute(
                rated_games.insert().values(
                    game_id=game_id, family=family, pace=pace, accounts="", outcome=why, at=now
                )
            )

    def apply(self, game: Rated, now: float) -> list[tuple[Rating, Rating, float]] | None:
        """Rate ``game``: each player's (before, after, damping); None if it was rated already."""
        key = ",".join(sorted(game.accounts))
        try:
            with self._begin(write=True) as connection:
                connection.execute(
                    rated_games.insert().values(
                        game_id=game.game_id,
                        family=game.family,
                        pace=game.pace,
                        accounts=key,
                        outcome=RATED,
                        at=now,
                    )
                )
                # Damping: the games among exactly these accounts within the window, this one included.
                repeats = connection.execute(
                    sa.select(sa.func.count()).where(
                        rated_games.c.accounts == key,
                        rated_games.c.outcome == RATED,
                        rated_games.c.family == game.family,
                        rated_games.c.pace == game.pace,
                        rated_games.c.at >= now - DAMPING_WINDOW_S,
                    )
                ).scalar_one()
                damping = 1.0 / max(1, repeats)
                before = [
                    self._rating(connection, account, game.family, game.pace) for account in game.accounts
                ]
                after = rate(before, game.places, game.teams, [damping] * len(before))
                for account, place, new in zip(game.accounts, game.places, after, strict=True):
                    self._save(connection, account, game.family, game.pace, new, now)
                    connection.execute(
                        rating_history.insert().values(
                            account_id=account,
                            family=game.family,
                            pace=game.pace,
                            game_id=game.game_id,
                            place=place,
                            players=len(game.accounts),
                            mu=new.mu,
                            sigma=new.sigma,
                            damping=damping,
                            at=now,
                        )
                    )
        except IntegrityError:  # rated already (by another process, or before a restart)
            return None
        return [(b, a, damping) for b, a in zip(before, after, strict=True)]

    @staticmethod
    def _rating(connection: Connection, account: str, family: str, pace: str) -> Rating:
        row = connection.execute(
            sa.select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.account_id == account, ratings.c.family == family, ratings.c.pace == pace
            )
        ).first()
        return Rating() if row is None else Rating(row.mu, row.sigma, row.games)

    @staticmethod
    def _save(
        connection: Connection, account: str, family: str, pace: str, rating: Rating, now: float
    ) -> None:
        where = (ratings.c.account_id == account, ratings.c.family == family, ratings.c.pace == pace)
        values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games, "updated": now}
        if connection.execute(ratings.update().where(*where).values(**values)).rowcount == 0:
            connection.execute(
                ratings.insert().values(account_id=account, family=family, pace=pace, **values)
            )

    # -- what players are shown ---------------------------------------------------------------------
    def leaderboard(self, family: str, pace: str, limit: int = 100) -> list[dict[str, Any]]:
        """The accounts rated in this family and pace, by conservative rating (mu - 3 sigma)."""
        conservative = ratings.c.mu - 3 * ratings.c.sigma
        with self._begin() as connection:
            rows = connection.execute(
                sa.select(
                    accounts.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games, conservative.label("c")
                )
                .join(accounts, accounts.c.id == ratings.c.account_id)
                .where(ratings.c.family == family, ratings.c.pace == pace, ratings.c.games > 0)
                .order_by(conservative.desc(), accounts.c.name_key)
                .limit(limit)
            ).all()
        return [_shown(row.name, row.mu, row.sigma, row.games) for row in rows]

    def profile(self, account_id: str) -> dict[str, Any]:
        """An account's ratings (each family and pace) and their history, oldest first."""
        with self._begin() as connection:
            now_rows = connection.execute(
                sa.select(ratings)
                .where(ratings.c.account_id == account_id)
                .order_by(ratings.c.family, ratings.c.pace)
            ).all()
            past = connection.execute(
                sa.select(rating_history)
                .where(rating_history.c.account_id == account_id)
                .order_by(rating_history.c.at, rating_history.c.id)
            ).all()
        return {
            "ratings": [
                {"family": r.family, "pace": r.pace, **_shown(None, r.mu, r.sigma, r.games)} for r in now_rows
            ],
            "history": [
                {
                    "family": h.family,
                    "pace": h.pace,
                    "game": h.game_id,
                    "place": h.place,
                    "players": h.players,
                    "damping": h.damping,
                    "at": h.at,
                    **_shown(None, h.mu, h.sigma, None),
                }
                for h in past
            ],
        }

    def account_named(self, name_key: str) -> tuple[str, str] | None:
        """The id and the name of the account whose name has this key."""
        with self._begin() as connection:
            row = connection.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name_key)
            ).first()
        return None if row is None else (str(row.id), str(row.name))


def _shown(name: str | None, mu: float, sigma: float, games: int | None) -> dict[str, Any]:
    shown: dict[str, Any] = {"rating": round(mu - 3 * sigma, 2), "mu": round(mu, 2), "sigma": round(sigma, 2)}
    if name is not None:
        shown["name"] = name
    if games is not None:
        shown["games"] = games
    return shown
