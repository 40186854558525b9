"""The line protocol: the example bots (Python, and JavaScript for Node) play whole games; the
board message; bots' debugging output in their log files; crashing, hanging and illegal bots are
logged, replaced by the random bot, and never break a game or a tournament.

Without Node the JavaScript bot's test skips on a developer's machine and fails under CI=true,
where it must run (.ci/run installs Debian's nodejs)."""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from fogged import fogged_positions, fogged_rules, hidden_territories, perturb_fogged
from risk.bots import make_bot
from risk.bots.protocol import BOT_LOG_CAP, ExternalBot, external_command, is_external, legal_lines
from risk.maps import load_map
from risk.play.tournament import run_tournament
from risk.record import read_record_file
from risk.rules.actions import Attack, Place
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"
EXAMPLE_BOT = EXAMPLES / "simple_bot.py"
JAVASCRIPT_BOT = EXAMPLES / "simple_bot.js"


def need_node() -> None:
    if shutil.which("node") is None:
        reason = "no `node` on PATH (Debian: apt-get install nodejs)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"the JavaScript bot cannot run: {reason}; CI must run it (.ci/run installs it)")
        pytest.skip(f"JavaScript example bot skipped: {reason}")


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
    "traceback": "        print(1 / 0)",
}


def write_bot(folder: Path, kind: str) -> Path:
    path = folder / f"{kind}_bot.py"
    path.write_text(PREAMBLE + MISBEHAVIOURS[kind] + "\n")
    return path


def play_with(
    bot: ExternalBot, seed: int = 3, players: int = 3, max_turns: int = 300, rules: Rules | None = None
) -> Game:
    game = Game(rules or Rules.preset("2008"), players, seed=seed)
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


def test_example_bot_plays_a_whole_fogged_game() -> None:
    """Under fog of war a view's territories out of sight have no armies: the example bot copes."""
    bot = ExternalBot(str(EXAMPLE_BOT), seed=1, time_budget=5.0)
    game = play_with(bot, rules=fogged_rules("2008"), max_turns=60)
    assert not bot.failed and bot.log_lines == []
    assert bot.decisions > 50 and game.turn > 30


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
    assert "(seat 0, turn " in logged[0]  # the seat as the protocol numbers it: the bot was told "seat 0"
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
        [crash, hang, illegal, "quick"],
        Rules.preset("2008"),
        4,
        workers=2,
        seed=5,
        time_budget=0.3,
        max_turns=300,
        out=tmp_path / "out",
    )
    assert len(result.results) == 4
    # Every external seat failed once per game: 3 log lines per game, each in the log file too.
    assert len(result.log) == 12
    log_file = (tmp_path / "out" / "tournament.log").read_text()
    for kind in ("crash_bot.py", "hang_bot.py", "illegal_bot.py"):
        assert kind in log_file
    assert {standing.name for standing in result.standings} == {crash, hang, illegal, "quick"}
    # Each bot's own log (one per game and seat) ends with why it was stopped, seat numbered as in
    # the protocol, the same line as in tournament.log.
    for game in result.results:
        for seat, spec in enumerate(game.seats):
            if spec == "quick":
                continue
            own_log = tmp_path / "out" / "log" / f"game-{game.index:04d}-seat-{seat}-{Path(spec).stem}.log"
            last = own_log.read_text().splitlines()[-1]
            assert last.startswith(f"risk: bot {spec} (seat {seat}, turn ")
            assert f"game {game.index}: {last.removeprefix('risk: ')}" in game.log


# A bot that writes down every line it is sent, logs, and plays the first legal line.
RECORDING_BOT = """
import sys
seen = open(sys.argv[1], "w")
legal = []
print("hello from stderr", file=sys.stderr, flush=True)
for raw in sys.stdin:
    seen.write(raw); seen.flush()
    line = raw.strip()
    if line.startswith("risk-protocol"):
        print("info starting up", flush=True)
        print("ready recorder", flush=True)
    elif line.startswith("view"):
        legal = []
    elif line.startswith("legal "):
        legal.append(line[6:])
    elif line.startswith("go"):
        words = legal[0].split()
        words[-1] = words[-1].split("..")[0]
        print("action " + " ".join(words), flush=True)
    elif line == "quit":
        break
"""


def test_bot_is_sent_the_board_before_its_first_view(tmp_path: Path) -> None:
    program = tmp_path / "recorder.py"
    program.write_text(RECORDING_BOT)
    seen = tmp_path / "seen.txt"
    bot = ExternalBot([sys.executable, str(program), str(seen)], seed=4, time_budget=5.0)
    game = Game(Rules.preset("2008"), 3, seed=1)
    view = View(game, game.to_act)
    game.apply(bot.choose(view))
    bot.close()
    lines = seen.read_text().splitlines()
    assert [line.split()[0] for line in lines[:5]] == ["risk-protocol", "seat", "seed", "board", "view"]
    assert lines[1] == f"seat {view.player}"
    board = json.loads(lines[3].removeprefix("board "))
    first_view = json.loads(lines[4].removeprefix("view "))
    classic = load_map("classic")
    assert board["name"] == "classic" and len(board["territories"]) == len(classic) == 42
    # The view's territories are the board's, in the same order: display names, and slugs for actions.
    assert [t["name"] for t in board["territories"]] == [t["name"] for t in first_view["territories"]]
    by_slug = {t["slug"]: t for t in board["territories"]}
    assert by_slug["northwest-territory"]["name"] == "Northwest Territory"
    assert sorted(by_slug["kamchatka"]["neighbours"]) == ["alaska", "irkutsk", "japan", "mongolia", "yakutsk"]
    assert all(slug in by_slug[n]["neighbours"] for slug, t in by_slug.items() for n in t["neighbours"])
    assert by_slug["kamchatka"]["continent"] == "Asia" and by_slug["kamchatka"]["card"] in (
        "infantry",
        "cavalry",
        "artillery",
    )
    assert {c["name"]: c["bonus"] for c in board["continents"]} == {
        "North America": 5,
        "South America": 2,
        "Europe": 5,
        "Africa": 3,
        "Asia": 7,
        "Australia": 2,
    }
    assert sorted(s for c in board["continents"] for s in c["territories"]) == sorted(by_slug)
    assert board["wild_cards"] == 2
    assert lines[-2:] == ["gameover none", "quit"]


def test_info_lines_and_stderr_go_to_the_bot_log(tmp_path: Path) -> None:
    program = tmp_path / "recorder.py"
    program.write_text(RECORDING_BOT)
    log_file = tmp_path / "log" / "bot.log"
    bot = ExternalBot(
        [sys.executable, str(program), str(tmp_path / "seen.txt")], seed=4, time_budget=5.0, log_file=log_file
    )
    game = Game(Rules.preset("2008"), 3, seed=1)
    game.apply(bot.choose(View(game, game.to_act)))
    bot.close()
    assert sorted(log_file.read_text().splitlines()) == ["info starting up", "stderr hello from stderr"]


def test_bot_log_is_capped_and_a_flood_of_stderr_does_not_block_the_bot(tmp_path: Path) -> None:
    # Three times the cap on stderr before the greeting: a bot whose error pipe were not drained
    # would block there (the pipe holds 64 KB) and miss its startup time.
    program = tmp_path / "flood.py"
    program.write_text(
        "import runpy, sys\n"
        f"sys.stderr.write(('x' * 99 + '\\n') * {3 * BOT_LOG_CAP // 100})\n"
        f"runpy.run_path({str(EXAMPLE_BOT)!r}, run_name='__main__')\n"
    )
    log_file = tmp_path / "flood.log"
    bot = ExternalBot(str(program), seed=1, time_budget=5.0, startup_timeout=5.0, log_file=log_file)
    game = play_with(bot, max_turns=3)
    assert not bot.failed and game.turn > 3
    text = log_file.read_text()
    assert BOT_LOG_CAP - 200 <= len(text) <= BOT_LOG_CAP + 200
    assert text.splitlines()[0] == "stderr " + "x" * 99
    assert text.splitlines()[-1] == (
        f"risk: this log reached its cap of {BOT_LOG_CAP} bytes; the rest is dropped"
    )


def test_a_crash_traceback_is_in_the_bot_log_before_the_reason(tmp_path: Path) -> None:
    log_file = tmp_path / "crash.log"
    bot = ExternalBot(str(write_bot(tmp_path, "traceback")), seed=2, time_budget=5.0, log_file=log_file)
    play_with(bot, max_turns=2)
    lines = log_file.read_text().splitlines()
    assert lines[0] == "stderr Traceback (most recent call last):"
    assert lines[-2] == "stderr ZeroDivisionError: division by zero"
    assert lines[-1] == f"risk: {bot.log_lines[0]}" and "the bot exited (code 1)" in lines[-1]


def test_javascript_example_bot_plays_whole_games_in_a_tournament(tmp_path: Path) -> None:
    need_node()
    assert external_command(str(JAVASCRIPT_BOT))[-1] == str(JAVASCRIPT_BOT)
    result = run_tournament(
        [str(JAVASCRIPT_BOT), "quick", "random"],
        Rules.preset("2008"),
        3,
        seed=1,
        time_budget=5.0,
        out=tmp_path,
    )
    assert result.log == []  # never a crash, a timeout or an illegal action: the random bot never stood in
    assert result.unfinished == 0  # every game played to its end
    for game in result.results:
        assert read_record_file(game.record).is_over  # type: ignore[arg-type]
        seat = game.seats.index(str(JAVASCRIPT_BOT))
        own_log = (tmp_path / "log" / f"game-{game.index:04d}-seat-{seat}-simple_bot.log").read_text()
        assert own_log.splitlines() == [
            "info board classic: 42 territories",
            f"info game over, winner: {game.winner_seat}",
        ]


def test_example_bot_in_a_tournament(tmp_path: Path) -> None:
    result = run_tournament(
        [str(EXAMPLE_BOT), "random", "quick"],
        Rules.preset("1993"),
        3,
        seed=2,
        time_budget=5.0,
        out=tmp_path,
    )
    assert result.log == []
    assert sum(standing.wins for standing in result.standings) + result.unfinished == 3
    assert any(standing.name == str(EXAMPLE_BOT) for standing in result.standings)


# -- fog of war -------------------------------------------------------------------------------------


def recorded_messages(tmp_path: Path, game: Game, seat: int, name: str) -> list[str]:
    """Every line a fresh external bot in ``seat`` is sent for one decision of ``game`` (a copy of
    it is played, so ``game`` stays as it was), to the end of its conversation."""
    program = tmp_path / "recorder.py"
    program.write_text(RECORDING_BOT)
    seen = tmp_path / f"{name}.txt"
    bot = ExternalBot([sys.executable, str(program), str(seen)], seed=4, time_budget=5.0)
    played = game.copy()
    try:
        played.apply(bot.choose(View(played, seat)))
    finally:
        bot.close()
    assert not bot.failed, bot.log_lines
    return seen.read_text().splitlines()


def assert_shows_only_what_is_in_sight(message: dict[str, Any], game: Game, seat: int) -> None:
    """A view message of a fogged game against the engine's truth: the owner and armies of the
    territories in ``seat``'s sight, what it last saw of the others, and nothing more."""
    assert message["fog"] is True
    for territory, shown in enumerate(message["territories"]):
        if game.in_sight[seat][territory]:
            assert (shown["owner"], shown["armies"]) == (game.owner[territory], game.armies[territory])
            continue
        assert shown["hidden"] is True and not {"owner", "armies", "units"} & shown.keys(), shown
        if game.seen_turn[seat][territory] < 0:
            assert "seen" not in shown
        else:
            assert shown["seen"] == {
                "owner": game.seen_owner[seat][territory],
                "armies": game.seen_armies[seat][territory],
                "turn": game.seen_turn[seat][territory],
            }
    for other, player in enumerate(message["players"]):
        assert ("territories" in player) == (other == seat)
    assert ("pending" in message) == (game.current == seat or game.phase.name in ("CLAIM", "SETUP_PLACE"))


def test_an_external_bot_under_fog_is_sent_only_what_it_sees(tmp_path: Path) -> None:
    """A whole fogged game with a recording bot in seat 0: every view it is sent is checked against
    the engine's truth at that moment; no other message names a territory's owner or armies."""
    program = tmp_path / "recorder.py"
    program.write_text(RECORDING_BOT)
    seen = tmp_path / "seen.txt"
    bot = ExternalBot([sys.executable, str(program), str(seen)], seed=4, time_budget=5.0)
    game = Game(fogged_rules("2008"), 3, seed=5)
    bots = [bot, make_bot("quick", 1), make_bot("quick", 2)]
    slugs = {game.board.slug_of(t) for t in range(len(game.board))}
    checked = hidden = 0
    try:
        while not game.is_over and game.turn <= 30:
            actor = game.to_act
            action = bots[actor].choose(View(game, actor))
            if actor == 0:
                lines = seen.read_text().splitlines()
                start = max(i for i, line in enumerate(lines) if line.startswith("view "))
                assert_shows_only_what_is_in_sight(json.loads(lines[start].removeprefix("view ")), game, 0)
                legal = [line for line in lines[start + 1 :] if line.startswith("legal ")]
                named = {word for line in legal for word in line.split()}
                assert all(game.in_sight[0][game.board.territory(slug)] for slug in named & slugs)
                checked += 1
                hidden += game.in_sight[0].count(0)
            game.apply(action)
    finally:
        bot.close()
    assert not bot.failed, bot.log_lines
    assert checked > 50 and hidden > 100  # decisions taken with part of the board out of sight
    words = {line.split()[0] for line in seen.read_text().splitlines()}
    assert words == {"risk-protocol", "seat", "seed", "board", "view", "legal", "go", "gameover", "quit"}


def test_fogged_games_differing_only_in_hidden_facts_send_a_bot_the_same_bytes(tmp_path: Path) -> None:
    """At positions all through a fogged game, the seat to act is sent byte-identical messages when
    everything it may not see changes: the board out of its sight, the other seats' memories, the
    other hands, the deck, the generator."""
    rng = random.Random(8)
    compared = 0
    for game in fogged_positions(fogged_rules("2008"), 3, seed=12, every=29, turns=25):
        seat = game.to_act
        if not hidden_territories(game, seat):
            continue  # the claim: every territory is in sight
        changed = perturb_fogged(game, seat, rng)
        assert changed.to_dict() != game.to_dict()
        expected = recorded_messages(tmp_path, game, seat, "real")
        assert recorded_messages(tmp_path, changed, seat, "changed") == expected
        compared += 1
    assert compared >= 6


# -- what the bot says: its name, a set's cards in any order ------------------------------------------------
# A bot that gives the name in argv[1] (the greeting's "ready NAME") and plays the first legal line.
NAMED_BOT = """
import sys
legal = []
for raw in sys.stdin:
    line = raw.strip()
    if line.startswith("risk-protocol"):
        print(("ready " + sys.argv[1]).strip(), flush=True)
    elif line.startswith("view"):
        legal = []
    elif line.startswith("legal "):
        legal.append(line[6:])
    elif line.startswith("go"):
        words = legal[0].split()
        words[-1] = words[-1].split("..")[0]
        print("action " + " ".join(words), flush=True)
    elif line == "quit":
        break
"""


def test_records_and_tables_name_a_bot_by_the_name_it_gives(tmp_path: Path) -> None:
    program = tmp_path / "named_bot.py"
    program.write_text(NAMED_BOT)
    named = f"{program} 'My Bot 2.0, the best!'"
    hostile = f"{program} '../../evil\tname #1'"
    result = run_tournament(
        [named, hostile, "quick"],
        Rules.preset("2008"),
        3,
        seed=3,
        time_budget=5.0,
        max_turns=40,
        out=tmp_path / "out",
    )
    assert result.log == []
    labels = {standing.name: standing.label for standing in result.standings}
    assert labels == {named: "My-Bot-2.0-the-best", hostile: "evil-name-1", "quick": "quick"}
    table = json.loads((tmp_path / "out" / "results.json").read_text())
    assert {row["label"] for row in table["bots"]} == set(labels.values())
    for game in result.results:
        assert game.record is not None
        recorded = read_record_file(game.record).players
        expected = [f"{labels[spec]}-{seat + 1}" for seat, spec in enumerate(game.seats)]
        assert list(recorded) == expected == list(game.players)
    nameless = f"{program} ''"  # "ready" alone: the program's name, as before
    alone = run_tournament([nameless, "quick", "random"], Rules.preset("2008"), 1, seed=1, max_turns=5)
    assert alone.results[0].players[0] == "named_bot-1"
    assert {s.label for s in alone.standings} == {nameless, "quick", "random"}  # as given to --bots


def test_two_bots_that_give_one_name_are_told_apart_in_the_table(tmp_path: Path) -> None:
    program = tmp_path / "named_bot.py"
    program.write_text(NAMED_BOT)
    first, second = f"{program} twin", f"{program} 'twin' --second"
    result = run_tournament([first, second, "quick"], Rules.preset("2008"), 1, seed=2, max_turns=5)
    labels = sorted(standing.label for standing in result.standings)
    assert len(set(labels)) == 3 and all(label.startswith(("twin", "quick")) for label in labels)


# A bot that answers its first decision with the action in argv[1].
FIXED_BOT = """
import sys
for raw in sys.stdin:
    line = raw.strip()
    if line.startswith("risk-protocol"):
        print("ready fixed", flush=True)
    elif line.startswith("go"):
        print("action " + sys.argv[1], flush=True)
    elif line == "quit":
        break
"""


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 1, 0), (1, 2, 0), (2, 0, 1)])
def test_a_sets_cards_may_be_sent_in_any_order_and_the_first_held_one_gets_the_two(
    tmp_path: Path, order: tuple[int, int, int]
) -> None:
    from positions import make_position
    from risk.rules.actions import Trade
    from risk.rules.game import Phase

    board = load_map("classic")
    infantry = [board.card_name(c) for c in range(len(board)) if board.card_symbols[c] == 0][:3]
    held = {infantry[0]: (0, 3), infantry[2]: (0, 3)}  # the player holds two of the cards' territories
    game = make_position("2008", owners=held, phase=Phase.REINFORCE, pending=3, hands={0: infantry})
    sent = [infantry[i] for i in order]
    program = tmp_path / "fixed.py"
    program.write_text(FIXED_BOT)
    bot = ExternalBot([sys.executable, str(program), "trade " + " ".join(sent)], seed=1, time_budget=5.0)
    try:
        action = bot.choose(View(game, 0))
    finally:
        bot.close()
    assert not bot.failed, bot.log_lines
    assert action == Trade(tuple(board.card(name) for name in sent))
    game.apply(action)
    first_held = next(name for name in sent if name in held)
    assert {name: game.armies[board.territory(name)] for name in held} == {
        name: 5 if name == first_held else 3 for name in held
    }


def test_a_bot_plays_one_game_and_is_told_gameover_then_quit(tmp_path: Path) -> None:
    program = tmp_path / "recorder.py"
    program.write_text(RECORDING_BOT)
    seen = tmp_path / "seen.txt"
    bot = ExternalBot([sys.executable, str(program), str(seen)], seed=4, time_budget=5.0)
    game = play_with(bot, max_turns=30)
    lines = seen.read_text().splitlines()
    assert lines.count("risk-protocol 1") == 1 and lines.count("quit") == 1
    winner = "none" if game.winner is None else str(game.winner)
    assert lines[-2:] == [f"gameover {winner}", "quit"]
    assert bot._process is None  # the process is gone: a next game starts another
