"""Every part outside the web app on a board other than the classic one (docs/boards.md, "Where a
board is used"): records (digest, embedded board, replay with --board), `risk replay`, `risk play
--board`, `risk simulate --map`, `risk tournament --map`, the bot protocol's board message, the
research environment, each on a generated board and on a small hand-written one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from risk.errors import RecordError
from risk.maps import Board, load_map, shipped_board
from risk.maps.generate import generate_board
from risk.play.simulate import play_game
from risk.record import BOARD_DIGEST, BOARD_JSON, read_record, write_record
from risk.rules.options import Rules


def small_board() -> dict[str, Any]:
    """A hand-written board: 8 territories in 3 continents (one a single island), for 2 to 4 players;
    colours hold a "#" (a record's comment mark)."""
    names = {
        "Hill": ["Vale", "Ford"],
        "Vale": ["Hill", "Ford", "Moor"],
        "Ford": ["Hill", "Vale", "Dock"],
        "Moor": ["Vale", "Dock", "Fen"],
        "Dock": ["Ford", "Moor", "Fen"],
        "Fen": ["Moor", "Dock"],
        "Cape": [],
        "Isle": [],
    }
    continent = {
        "Hill": "Uplands",
        "Vale": "Uplands",
        "Ford": "Uplands",
        "Moor": "Lowlands",
        "Dock": "Lowlands",
        "Fen": "Lowlands",
        "Cape": "Lowlands",
        "Isle": "Isle",
    }
    cards = ["infantry", "cavalry", "artillery"]
    return {
        "format": 1,
        "name": "shire",
        "title": "A small hand-written board",
        "players": {"min": 2, "max": 4},
        "starting_armies": {"3": 10, "4": 8},
        "deck": {"wilds": 1},
        "continents": [
            {"name": "Uplands", "bonus": 2, "colour": "#aa3300"},
            {"name": "Lowlands", "bonus": 3, "colour": "#0033aa"},
            {"name": "Isle", "bonus": 1},
        ],
        "territories": [
            {"name": name, "continent": continent[name], "card": cards[k % 3], "neighbours": near}
            for k, (name, near) in enumerate(names.items())
        ],
        "links": [
            {"between": ["Fen", "Cape"], "by": "sea"},
            {"between": ["Cape", "Isle"], "by": "sea"},
            {"between": ["Isle", "Hill"], "by": "sea"},
        ],
    }


def generated_board(players: tuple[int, int] = (2, 10)) -> dict[str, Any]:
    return generate_board(60, 7, seed=3, players=players)


BOARDS = {"generated": generated_board, "hand-written": small_board}


@pytest.fixture(params=list(BOARDS))
def board_data(request: pytest.FixtureRequest) -> dict[str, Any]:
    return BOARDS[request.param]()


def write_board(tmp_path: Path, data: dict[str, Any], name: str = "board.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def played(board: Board, seats: int = 3, seed: int = 5, max_turns: int = 30) -> Any:
    game, _ = play_game(Rules.preset("2003"), ["quick"] * seats, seed, max_turns=max_turns, board=board)
    return game


def run_risk(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "risk", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "100"},
    )


def one_line_error(result: subprocess.CompletedProcess[str], *parts: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("risk: error: "), result.stderr
    assert "Traceback" not in result.stderr
    for part in parts:
        assert part in result.stderr


# -- records ----------------------------------------------------------------------------------------
def test_a_record_names_its_board_and_digest_and_holds_a_board_not_shipped(
    board_data: dict[str, Any],
) -> None:
    board = Board(board_data)
    text = write_record(played(board))
    header = text.split("\n---\n")[0].splitlines()
    assert f"board: {board.name}" in header
    assert f"{BOARD_DIGEST}: {board.digest}" in header
    embedded = [line for line in header if line.startswith(f"{BOARD_JSON}: ")]
    assert len(embedded) == 1 and json.loads(embedded[0].split(": ", 1)[1]) == board_data
    # Alone: the record replays on the board it holds, to the same game.
    replayed = read_record(text)
    assert replayed.board.digest == board.digest and replayed.board.name == board.name
    assert write_record(replayed) == text


def test_the_digest_is_the_boards_whatever_the_files_layout(board_data: dict[str, Any]) -> None:
    shuffled = json.loads(json.dumps(board_data, indent=3, sort_keys=False))
    reordered = dict(reversed(list(shuffled.items())))
    assert Board(reordered).digest == Board(board_data).digest
    changed = json.loads(json.dumps(board_data))
    changed["continents"][0]["bonus"] += 1
    assert Board(changed).digest != Board(board_data).digest


def test_a_classic_record_keeps_its_old_header() -> None:
    """The golden records stay byte for byte: no digest line for the shipped classic board."""
    classic = load_map("classic")
    assert shipped_board(classic)
    text = write_record(played(classic))
    assert BOARD_DIGEST not in text and BOARD_JSON not in text
    assert text.splitlines()[2] == "board: classic" and text.splitlines()[3].startswith("players: ")


def test_a_board_that_borrows_the_classic_name_is_not_the_classic_board() -> None:
    data = json.loads(json.dumps(small_board()))
    data["name"] = "classic"
    board = Board(data)
    assert not shipped_board(board)
    text = write_record(played(board))
    assert f"{BOARD_DIGEST}: {board.digest}" in text and f"{BOARD_JSON}: " in text
    assert read_record(text).board.digest == board.digest
    # Without its embedded board, the record is not replayed on the shipped classic board.
    bare = "\n".join(line for line in text.splitlines() if not line.startswith(BOARD_JSON)) + "\n"
    with pytest.raises(RecordError, match="that is not the shipped one"):
        read_record(bare)


def test_replay_takes_the_board_given_and_refuses_another(board_data: dict[str, Any]) -> None:
    board = Board(board_data)
    text = write_record(played(board))
    bare = "\n".join(line for line in text.splitlines() if not line.startswith(BOARD_JSON)) + "\n"
    with pytest.raises(RecordError, match="not shipped with risk and not in the record: give its file"):
        read_record(bare)
    assert read_record(bare, board=Board(json.loads(json.dumps(board_data)))).board.digest == board.digest
    other = generate_board(30, 4, seed=9)
    with pytest.raises(RecordError, match=r"line 3: the record was played on the .* another one"):
        read_record(bare, board=Board(other))
    with pytest.raises(RecordError, match="another one"):
        read_record(text, board=load_map("classic"))


def test_an_embedded_board_changed_by_hand_is_refused(board_data: dict[str, Any]) -> None:
    board = Board(board_data)
    text = write_record(played(board))
    changed = json.loads(json.dumps(board_data))
    changed["continents"][0]["bonus"] += 1
    forged = text.replace(board.canonical_json, Board(changed).canonical_json)
    assert forged != text
    with pytest.raises(RecordError, match=f"line 5: the record's {BOARD_JSON} is not the board of its"):
        read_record(forged)
    broken = text.replace(board.canonical_json, board.canonical_json[:-40])
    with pytest.raises(RecordError, match=f"line 5: the record's {BOARD_JSON} is not valid JSON"):
        read_record(broken)


def test_an_old_record_without_a_digest_still_replays() -> None:
    game = played(load_map("classic"))
    text = write_record(game)
    assert read_record(text).history == game.history
    # A record from before digests of a board that was a file: replayed on the file given, by name.
    board = Board(small_board())
    old = (
        "\n".join(
            line for line in write_record(played(board)).splitlines() if not line.startswith(("board-",))
        )
        + "\n"
    )
    assert read_record(old, board=board).board is board
    with pytest.raises(RecordError, match="played on the 'shire' board, not on 'classic'"):
        read_record(old, board=load_map("classic"))


def test_risk_replay_with_board_and_its_errors(tmp_path: Path) -> None:
    data = generated_board()
    board_file = write_board(tmp_path, data)
    board = Board(data)
    text = write_record(played(board, seats=8, max_turns=3))
    record = tmp_path / "game.risk"
    record.write_text(text, encoding="utf-8")
    alone = run_risk("replay", str(record), "--json")
    assert alone.returncode == 0, alone.stderr
    assert json.loads(alone.stdout)["board_sha256"] == board.digest
    bare = tmp_path / "bare.risk"
    bare.write_text(
        "".join(line + "\n" for line in text.splitlines() if not line.startswith(BOARD_JSON)),
        encoding="utf-8",
    )
    given = run_risk("replay", str(bare), "--board", str(board_file))
    assert given.returncode == 0 and f"board {board.name};" in given.stdout, given.stderr
    one_line_error(run_risk("replay", str(bare)), "not shipped with risk", "--board FILE")
    other = write_board(tmp_path, small_board(), "other.json")
    one_line_error(run_risk("replay", str(bare), "--board", str(other)), "another one ('shire'")
    invalid = json.loads(json.dumps(data))
    invalid["territories"][0]["continent"] = "Nowhere"
    bad_file = write_board(tmp_path, invalid, "bad.json")
    one_line_error(run_risk("replay", str(bare), "--board", str(bad_file)), "bad.json", "Nowhere")


# -- the terminal game -------------------------------------------------------------------------------
def test_risk_play_on_a_board_file_with_eight_bots_plays_to_the_end_and_saves_a_replayable_game(
    tmp_path: Path,
) -> None:
    board_file = write_board(tmp_path, generated_board())
    save = tmp_path / "eight.risk"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "risk",
            "play",
            "--board",
            str(board_file),
            "-r",
            "2003",
            "-p",
            "8",
            "--humans",
            "none",
            "--seed",
            "4",
            "--save",
            str(save),
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert result.returncode == 0, result.stderr
    assert "wins the world" in result.stdout and "Hal" in result.stdout  # the eighth default name
    assert "Traceback" not in result.stdout + result.stderr
    board = Board(generated_board())
    replayed = run_risk("replay", str(save), "--json")
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["board"] == board.name, replayed.stderr


def test_risk_play_on_the_small_board_and_its_errors(tmp_path: Path) -> None:
    board_file = write_board(tmp_path, small_board())
    save = tmp_path / "small.risk"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "risk",
            "play",
            "--board",
            str(board_file),
            "-p",
            "4",
            "--humans",
            "none",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        input="",
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert result.returncode == 0 and "wins the world" in result.stdout, result.stderr
    one_line_error(run_risk("play", "--board", str(board_file), "-p", "5"), "the shire board is for 2 to 4")
    invalid = small_board()
    invalid["links"].append({"between": ["Fen", "Nowhere"]})
    one_line_error(
        run_risk("play", "--board", str(write_board(tmp_path, invalid, "bad.json"))), "bad.json", "Nowhere"
    )
    other = write_board(tmp_path, generated_board(), "other.json")
    one_line_error(run_risk("play", "--load", str(save), "--board", str(other)), "another one")


def test_the_map_view_shows_long_continent_names_beside_short_territory_names() -> None:
    from risk.rules.game import Game
    from risk.tui.render import MapView, Palette, render_text
    from risk.view import View

    data = small_board()
    data["continents"][1]["name"] = "The Great Lowlands"
    for territory in data["territories"]:
        if territory["continent"] == "Lowlands":
            territory["continent"] = "The Great Lowlands"
    game = Game("2003", ["Ann", "Bob", "Cy"], seed=1, board=Board(data))
    text = render_text([MapView(View(game, 0), Palette.for_players(game.players))], width=80)
    assert "The Great Lowlands +3" in text and "Uplands +2" in text


def test_ten_players_get_ten_colours_and_tags() -> None:
    from risk.tui.render import Palette

    names = [f"Bot {k}" for k in range(1, 11)]  # initials clash: seat numbers instead
    palette = Palette.for_players(names)
    assert len(set(palette.tags)) == 10 and len(set(palette.colours)) == 10


# -- simulate, tournament, the bot protocol ------------------------------------------------------------
def test_risk_simulate_plays_ten_players_on_a_board_that_declares_them(tmp_path: Path) -> None:
    board_file = write_board(tmp_path, generated_board())
    result = run_risk(
        "simulate",
        "--map",
        str(board_file),
        "-r",
        "2003",
        "-p",
        "10",
        "-n",
        "2",
        "--record",
        str(tmp_path / "records"),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["players"] == 10 and report["failed"] == 0 and len(report["games"]) == 2
    for record in sorted((tmp_path / "records").iterdir()):
        assert run_risk("replay", str(record)).returncode == 0
    one_line_error(
        run_risk("simulate", "--map", str(board_file), "-r", "2003", "-p", "11"),
        "is for 2 to 10 players, not 11",
    )
    small = write_board(tmp_path, small_board(), "small.json")
    result = run_risk("simulate", "--board", str(small), "-p", "4", "-n", "3", "--json")  # --map's alias
    assert result.returncode == 0 and json.loads(result.stdout)["failed"] == 0, result.stderr
    bad = small_board()
    bad["starting_armies"]["4"] = 1
    one_line_error(
        run_risk("simulate", "--map", str(write_board(tmp_path, bad, "bad.json"))),
        "bad.json",
        "starting_armies",
    )


def test_the_board_message_carries_the_whole_board(board_data: dict[str, Any]) -> None:
    from risk.bots.protocol import board_message

    board = Board(board_data)
    message = json.loads(json.dumps(board_message(board)))
    slugs = [board.slug_of(t) for t in range(len(board))]
    assert [t["slug"] for t in message["territories"]] == slugs
    for t, row in enumerate(message["territories"]):
        assert row["name"] == board.name_of(t)
        assert row["continent"] == board.continents[board.continent_of[t]].name
        assert sorted(row["neighbours"]) == sorted(slugs[n] for n in board.neighbours[t])
        assert row["card"] == board_data["territories"][t].get("card", row["card"])
        assert row["island"] == (t in board.islands)
    assert [(c["name"], c["bonus"], c["territories"]) for c in message["continents"]] == [
        (c.name, c.bonus, [slugs[t] for t in c.territories]) for c in board.continents
    ]
    assert message["wild_cards"] == len(board.wild_cards)


def test_the_example_bots_play_a_tournament_of_eight_on_a_generated_board(tmp_path: Path) -> None:
    """The Python and JavaScript example bots (docs/protocol.md) get the board and play it through."""
    from test_protocol import EXAMPLES, need_node

    need_node()
    board_file = write_board(tmp_path, generated_board())
    bots = [str(EXAMPLES / "simple_bot.py"), str(EXAMPLES / "simple_bot.js"), *["quick"] * 6]
    out = tmp_path / "out"
    result = run_risk(
        "tournament",
        "--map",
        str(board_file),
        "-r",
        "2003",
        "--bots",
        ",".join(bots),
        "--games",
        "2",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["failed"] == 0 and results["seats"] == 8 and len(results["results"]) == 2
    for game in results["results"]:
        assert game["error"] is None
        assert run_risk("replay", game["record"]).returncode == 0


# -- the research environment and risk.play.batch -----------------------------------------------------------
@pytest.mark.parametrize(("name", "seats"), [("generated", 8), ("hand-written", 4)])
def test_the_environment_sizes_its_actions_by_the_board_and_plays_it(name: str, seats: int) -> None:
    import warnings

    import numpy as np
    from pettingzoo.test import api_test

    from risk.env import AGENT, RiskEnv

    board = Board(BOARDS[name]())
    env = RiskEnv("2003", "world", [AGENT] * seats, board=board, max_turns=60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=100)
    env.reset(seed=2)
    observation, *_ = env.last()
    links = sum(len(near) for near in board.neighbours)  # directed
    assert observation["owner"].shape == (len(board),) and observation["edge_index"].shape == (2, links)
    assert observation["hand"].shape == (board.card_count,) and observation["seats"].shape[0] == seats
    assert env.codec.size == env.action_space("player_0").n == observation["action_mask"].shape[0]
    # Every masked action decodes to a legal one on this board: random play runs to the end or the cap.
    rng = np.random.default_rng(2)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps > 0 and env.game is not None


@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize(("edition", "game"), [("2003", "mission"), ("2008", "secret-mission")])
def test_the_environment_numbers_the_boards_own_missions(name: str, edition: str, game: str) -> None:
    """Mission RISK cards and secret missions made from the board: the action space's mission block,
    the observation's mission_cards columns and its mission index are the board's, and random play
    runs to the end or the cap (the classic numbering refused the board's keys)."""
    import numpy as np

    from risk.env import AGENT, RiskEnv, secret_mission_names
    from risk.rules.missions import base_missions, effective_mission, ranked_missions
    from risk.view import View

    board = Board(BOARDS[name]())
    env = RiskEnv(edition, game, [AGENT] * 3, board=board, max_turns=40)
    keys = tuple(m.key for m in ranked_missions(board))
    assert env.codec.mission_keys == keys and env.codec.blocks["mission"].size == len(keys)
    start = env.codec.blocks["mission"].start
    assert [env.codec.describe(start + i) for i in range(len(keys))] == [f"mission {k}" for k in keys]
    names = secret_mission_names(3, board)
    assert names[1 : 1 + len(base_missions(board))] == tuple(m.key for m in base_missions(board))
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    claimed = 0
    for agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.seat_of[agent]
        view = View(env.game, seat)
        assert observation["mission_cards"].shape == (3, len(keys))
        if game == "mission":
            own = {keys[i] for i in np.flatnonzero(observation["mission_cards"][0] == 1)}
            assert own == set(view.mission_cards[seat] or ())
        else:
            mission = effective_mission(view.mission, seat, board)
            index = int(observation["mission"][0])
            assert names[index] == mission.key or names[index].startswith("destroy-seat-")
        legal = np.flatnonzero(observation["action_mask"])
        missions = [i for i in legal if start <= i < start + len(keys)]
        claimed += bool(missions)
        env.step(int(missions[0] if missions else rng.choice(legal)))
    assert (claimed > 0) == (game == "mission")  # cards were claimed through the board's indices


def test_batch_writes_the_games_of_a_board_file_with_its_digest(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from risk.play.batch import simulate_to_parquet, turns_path

    data = generated_board()
    board_file = write_board(tmp_path, data)
    out = tmp_path / "runs.parquet"
    played_games = simulate_to_parquet(
        out, Rules.preset("2003"), ["quick"] * 8, 2, max_turns=40, board=str(board_file)
    )
    assert all(game.error is None for game in played_games)
    metadata = pq.read_schema(out).metadata
    assert metadata[b"risk.board"] == str(board_file).encode()
    assert metadata[b"risk.board_sha256"] == Board(data).digest.encode()
    for turn in pq.read_table(turns_path(out)).to_pylist():
        assert len(turn["owner"]) == len(turn["armies"]) == 60 and len(turn["seat_armies"]) == 8


def test_a_game_on_a_board_that_is_not_shipped_saves_and_restores_with_its_board() -> None:
    """Game.to_dict keeps a board that is not shipped whole (a shipped one by name, as before), so
    the snapshot restores without the board's file; it plays on identically."""
    from risk.maps import Board, load_map
    from risk.maps.generate import generate_board
    from risk.rules.game import Game
    from risk.rules.options import Rules

    board = Board(generate_board(30, 4, 9, (2, 6)))
    game = Game(Rules.preset("1993"), 4, seed=3, board=board)
    for action in list(game.legal_actions())[:1]:
        game.apply(action)
    data = json.loads(json.dumps(game.to_dict()))  # through JSON, as a file keeps it
    assert isinstance(data["board"], dict) and data["board"]["name"] == board.name
    restored = Game.from_dict(data)
    assert restored.board.digest == board.digest and restored.owner == game.owner
    assert Game(Rules.preset("1993"), 4, seed=3).to_dict()["board"] == "classic"
    assert load_map("classic").name == "classic"
