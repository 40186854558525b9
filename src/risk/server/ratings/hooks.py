"""Rating a rated game once it is over: heard from the master after the commit of the move that ends
it (never before: a commit that fails rates nothing), and, for a game that ended just before a server
stopped, when the game is next loaded (a plug-in's ``loaded`` hook; the store's ``rated_games`` row
says whether it was rated). A rated game whose seats are not each bound to an account of its own, or
that has a bot, is marked not rated, with the reason."""

from __future__ import annotations

import logging
from collections.abc import Callable

from risk.rules.game import Game
from risk.server.hooks import Table, TableHooks
from risk.server.live import LiveGame
from risk.server.master import Announcement, GameMaster
from risk.server.ratings.model import family_of, finishing_order, pace_of
from risk.server.ratings.store import Rated, RatingStore, RatingStoreError
from risk.server.storage import GameRecord

log = logging.getLogger("risk.server")


def is_rated(record: GameRecord) -> bool:
    return bool(record.settings.get("rated", False))


class RatingHooks(TableHooks):
    def __init__(self, store: RatingStore, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    def listen_to(self, master: GameMaster) -> None:
        """Hear every committed move of ``master`` (in the thread that made it, after its commit)."""

        def listener(announcement: Announcement) -> None:
            if announcement.kind == "moved":
                shown = master.live(announcement.game_id).published
                if shown.game.is_over and is_rated(shown.record):
                    self.rate(shown.record, shown.game)

        master.subscribe(listener)

    def loaded(self, table: Table, live: LiveGame, opening: int) -> None:
        if live.game.is_over and is_rated(live.record):
            try:
                done = self.store.is_done(live.record.id)
            except RatingStoreError:
                return  # tried again at the next load
            if not done:
                self.rate(live.record, live.game)

    def rate(self, record: GameRecord, game: Game) -> None:
        """Rate the game (once: a second call changes nothing). A store that fails is logged; the
        game is rated when it is next loaded."""
        family = family_of(game.rules)
        pace = pace_of(float(record.settings.get("turn_time", 0.0) or 0.0))
        seats = record.seats[: game.humans]
        owners = [seat.account for seat in seats]
        try:
            if any(seat.kind != "human" for seat in seats) or any(o is None for o in owners):
                self.store.not_rated(record.id, family, pace, "a seat without an account", self.clock())
                return
            if len(set(owners)) != len(owners):
                self.store.not_rated(record.id, family, pace, "one account in two seats", self.clock())
                return
            left = [seat.seat for seat in seats if seat.stand_in is not None]
            places = tuple(finishing_order(game, left))
            teams = None if game.team is None else tuple(game.team[: game.humans])
            accounts = tuple(o for o in owners if o is not None)
            self.store.apply(Rated(record.id, family, pace, accounts, places, teams), self.clock())
        except RatingStoreError as error:
            log.warning(
                "the ratings of game %s could not be stored now (tried again when it is loaded): %s",
                record.id,
                error,
            )
