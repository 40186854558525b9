"""Games played in-process through the game master, for the fuzz and security tests."""

from __future__ import annotations

from risk import View
from risk.bots import make_bot
from risk.server.master import GameMaster, GameSpec, SeatSpec


def human_game(
    master: GameMaster, names: list[str], seed: int, edition: str = "2008"
) -> tuple[str, list[str]]:
    """A game of humans only: its id and each seat's token."""
    spec = GameSpec(
        edition=edition, seats=[SeatSpec("human", name) for name in names], seed=seed, bot_delay=0
    )
    record, seats = master.create_game(spec)
    return record.id, [s.token or "" for s in seats]


def play_moves(master: GameMaster, game_id: str, moves: int | None = None) -> None:
    """Play every seat with the quick bot (seeded by seat), ``moves`` actions or to the end."""
    bots: dict[int, object] = {}
    played = 0
    while moves is None or played < moves:
        live = master.live(game_id)
        game = live.game
        if game.is_over:
            return
        seat = game.to_act
        bot = bots.setdefault(seat, make_bot("quick", seat))
        view = View(game.copy(), seat)
        master.submit_as(game_id, seat, view.action_text(bot.choose(view)), live.state_id)  # type: ignore[attr-defined]
        played += 1
