"""A game that quick match makes at the days pace is one its players leave and come back to: each
player whose account has an e-mail address is subscribed to their seat's e-mail (docs/web.md,
"Notifications"), so the first "your move" reaches them without their opening the game first."""

from __future__ import annotations

import logging
from collections.abc import Callable

from risk.server.master import GameMaster
from risk.server.notify.outbox import Outbox, OutboxError
from risk.server.notify.sender import Notifier
from risk.server.quickmatch.store import Entry, QuickMatchStore

log = logging.getLogger(__name__)

EVERY_S = 15 * 60.0  # at most a message a quarter of an hour, as the page's own default


def mail_days_games(
    store: QuickMatchStore, outbox: Outbox, notifier: Notifier, master: GameMaster, clock: Callable[[], float]
) -> Callable[[str, list[Entry]], None]:
    """What quick match calls with each game it made: the days pace's e-mail subscriptions."""

    def placed(game_id: str, entries: list[Entry]) -> None:
        if entries[0].queue.pace != "days":
            return
        addresses = store.addresses([e.account for e in entries])
        try:
            for entry in entries:
                if entry.account in addresses and entry.seat is not None and entry.token is not None:
                    address, site = addresses[entry.account]
                    outbox.subscribe(
                        game_id, entry.seat, "email", address, entry.token, site, EVERY_S, clock()
                    )
        except OutboxError as error:  # the game stands; its players subscribe on its page
            log.warning("quick match game %s: no e-mail subscription: %s", game_id, error)
            return
        shown = master.live(game_id).published
        notifier.heard(shown.record, shown.game)  # whose move it is now goes out at once

    return placed
