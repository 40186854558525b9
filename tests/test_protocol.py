"""The line protocol: the example bot plays whole games; crashing, hanging and illegal bots are
logged, replaced by the random bot, and never break a game or a tournament."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from risk.bots import make_bot
from risk.protocol import ExternalBot, external_command, is_external, legal_lines
from risk.rules.actions import Attack, Place
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.tournament import run_tournament
from risk.view import View

EXAMPLE_BOT = Path(__file__).resolve().parents[1] / "examples" / "bots" / "simple_bot.py"

# The start of every misbehaving bot: answers the greeting like a good one.
PREAMBLE = """
import sys
def lines():
    for raw in sys.stdin:
        yield raw.strip()
for line in lines():
    if line.startswith("risk-protocol"):
        print("ready bad", flush=True)
    elif line.startswith("go"):
"""

MISBEHAVIOURS = {
    "crash": "        sys.exit(3)",
    "hang": "        import time; time.sleep(60)",
    "illegal": '        print("action attack alaska alaska 3", flush=True)',
    "garbage": '        print("action fly me to the moon", flush=True)',
}


def write_bot(folder: Path, kind: str) -> Path:
    path = folder / f"{kind}_bot.py"
    path.write_text(PREAMBLE + MISBEHAVIOURS[kind] + "\n")
    return path


def play_with(bot: ExternalBot, seed: int = 3, players: int = 3, max_turns: int = 300) -> Game:
    game = Game(Rules.preset("2008"), players, seed=seed)
    bots = [bot, *(make_bot("quick", seat) for seat in range(1, players))]
    try:
        while not game.is_over and game.turn <= max_turns:
            actor = game.to_act
            game.apply(bots[actor].choose(View(game, actor)))
    finally:
        bot.close()
    return game


def test_bot_specifications() -> None:
    assert is_external("./mybot") and is_external("bots/x.py") and not is_external("quick")
    assert external_command(str(EXAMPLE_BOT))[-1] == str(EXAMPLE_BOT)
    with pytest.raises(ValueError, match="no bot program"):
        external_command("./no/such/bot")


def test_legal_lines_merge_counts_into_ranges() -> None:
    game = Game(Rules.preset("2008"), 3, seed=1)
    view = View(game, game.to_act)
    board = game.board
    alaska, kamchatka = board.territory("alaska"), board.territory("kamchatka")
    places = [Place(alaska, n) for n in (1, 2, 3, 5)]
    actions = [*places, Attack(kamchatka, alaska, 1), Attack(kamchatka, alaska, 2)]
    assert legal_lines(actions, view) == [
        "legal place alaska 1..3",
        "legal place alaska 5",
        "legal attack kamchatka alaska 1..2",
    ]
    assert legal_lines(game.legal_actions(), view)[0] == "legal claim alaska"


def test_example_bot_plays_a_whole_game() -> None:
    bot = ExternalBot(str(EXAMPLE_BOT), seed=1, time_budget=5.0)
    game = play_with(bot)
    assert game.is_over
    assert not bot.failed and bot.log_lines == []
    assert bot.bot_name == "simple"
    assert bot.decisions > 50
    assert bot._process is None  # closed


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("crash", "the bot exited (code 3)"),
        ("hang", "no answer to decision 1 (claim) within 0.3 s"),
        ("illegal", "sent an illegal action 'attack alaska alaska 3'"),
        ("garbage", "sent 'fly me to the moon', which is not an action"),
    ],
)
def test_misbehaving_bot_is_replaced_and_logged(tmp_path: Path, kind: str, reason: str) -> None:
    logged: list[str] = []
    bot = ExternalBot(str(write_bot(tmp_path, kind)), seed=2, time_budget=0.3, log=logged.append)
    game = play_with(bot, max_turns=200)
    assert bot.failed
    assert len(logged) == 1 and logged == bot.log_lines
    assert reason in logged[0]
    assert "the random bot plays this seat for the rest of the game" in logged[0]
    assert "seat 1" in logged[0]
    assert bot._process is None
    assert game.is_over or game.turn > 200


def test_bot_that_never_greets_times_out(tmp_path: Path) -> None:
    path = tmp_path / "mute.py"
    path.write_text("import time\ntime.sleep(60)\n")
    bot = ExternalBot([sys.executable, str(path)], seed=0, startup_timeout=0.3)
    game = Game(Rules.preset("2008"), 3, seed=1)
    action = bot.choose(View(game, game.to_act))
    assert game.is_legal(action)
    assert "no answer to the greeting within 0.3 s" in bot.log_lines[0]
    bot.close()


def test_tournament_survives_broken_bots(tmp_path: Path) -> None:
    crash, hang, illegal = (str(write_bot(tmp_path, kind)) for kind in ("crash", "hang", "illegal"))
    result = run_tournament(
        [crash, hang, illegal, "quick"], Rules.preset("2008"), 4, workers=2, seed=5,
        time_budget=0.3, max_turns=300, out=tmp_path / "out",
    )
    assert len(result.results) == 4
    # Every external seat failed once per game: 3 log lines per game, each in the log file too.
    assert len(result.log) == 12
    log_file = (tmp_path / "out" / "tournament.log").read_text()
    for kind in ("crash_bot.py", "hang_bot.py", "illegal_bot.py"):
        assert kind in log_file
    assert {standing.name for standing in result.standings} == {crash, hang, illegal, "quick"}


def test_example_bot_in_a_tournament(tmp_path: Path) -> None:
    result = run_tournament(
        [str(EXAMPLE_BOT), "random", "quick"], Rules.preset("1993"), 3, seed=2, time_budget=5.0,
        out=tmp_path,
    )
    assert result.log == []
    assert sum(standing.wins for standing in result.standings) + result.unfinished == 3
    assert any(standing.name == str(EXAMPLE_BOT) for standing in result.standings)
