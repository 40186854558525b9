"""The game master: the one place that accepts or refuses a move, in layers, each a module (bottom up):

- ``specs``: what a new game is made of, checked where it enters; a game's public summary;
- ``base``: the store, the games in memory, the plug-ins, and transactions: a move and every
  consequence in one commit, announced to the listeners (the hub) once committed;
- ``loading``: games read from the store and replayed when needed, caught up with other processes;
- ``bots``: the moves the server makes itself (bots, stand-ins, standing orders) and their pace;
- ``seeing``: who is asking and what each seat sees (state messages read without the game's lock);
- ``pipeline``: a move checked once, applied, stored with its consequences;
- ``fastplay``: blitz and undo;
- ``games``: :class:`GameMaster`, creating and joining games.

A plain class, no HTTP. Every refusal is a :class:`Refusal` with a code and a message that says what
was wrong; a refusal changes nothing. Games are read through :class:`~risk.view.View` only.
"""

from risk.server.auth import hash_token, new_token
from risk.server.errors import Refusal
from risk.server.live import LiveGame
from risk.server.master.base import Announcement
from risk.server.master.games import GameMaster
from risk.server.master.specs import (
    DEFAULT_BOT_DELAY,
    DEFAULT_DEFEND_TIMEOUT,
    MAX_NAME,
    SEAT_KINDS,
    SPECTATOR_VIEWS,
    CreatedSeat,
    GameSpec,
    SeatSpec,
    game_summary,
    new_game_id,
    new_host,
    record_board,
    spec_board,
)

__all__ = [
    "DEFAULT_BOT_DELAY",
    "DEFAULT_DEFEND_TIMEOUT",
    "MAX_NAME",
    "SEAT_KINDS",
    "SPECTATOR_VIEWS",
    "Announcement",
    "CreatedSeat",
    "GameMaster",
    "GameSpec",
    "LiveGame",
    "Refusal",
    "SeatSpec",
    "game_summary",
    "hash_token",
    "new_game_id",
    "new_host",
    "new_token",
    "record_board",
    "spec_board",
]
