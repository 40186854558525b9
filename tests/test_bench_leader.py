"""benchmarks/bench_leader.py: the scripted runaway start is a legal position as described (the leader
holds both continents, the armies on the board as many as the played game had, shared equally), and
games from it play to their end with what the benchmark reports about them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from risk.rules.game import Phase
from risk.rules.options import Rules
from risk.rules.scenario import rearrange

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
try:
    import bench_leader
    from bench_leader import Table, leader_territories, play_leader_game, runaway_position, schedule
finally:
    sys.path.pop(0)


@pytest.mark.parametrize(
    ("players", "rules", "start_round"), [(4, "2008", 0), (6, "1993", 0), (4, "2008", 2)]
)
def test_the_scripted_start_is_the_position_described(players: int, rules: str, start_round: int) -> None:
    for job in schedule(
        players, "quick", "quick", players, seed=7, rules=Rules.preset(rules), start_round=start_round
    ):
        table = Table(job)
        table.play_to_script(start_round)
        game, leader = table.game, job.leader_seat
        played_owner, played_total = list(game.owner), sum(game.armies)
        owner, armies = runaway_position(game, leader, job.continents)
        rearrange(game, owner, armies)
        board = game.board
        ours = set(leader_territories(game, job.continents))
        held_continents = sorted(board.continents[c].name for c in game.continents_of(leader))
        assert held_continents == ["Africa", "South America"]
        assert {t for t in range(len(board)) if game.owner[t] == leader} == ours
        # Each other player keeps what it held outside the leader's continents.
        assert all(
            game.owner[t] == played_owner[t]
            for t in range(len(board))
            if t not in ours and played_owner[t] != leader
        )
        assert sum(game.armies) == played_total
        if start_round == 0:
            assert played_total == Rules.preset(rules).starting_armies_for(players) * players
        held = [
            sum(a for a, o in zip(game.armies, game.owner, strict=True) if o == seat)
            for seat in range(players)
        ]
        assert max(held) - min(held) <= 1  # shared equally
        assert min(game.armies) >= 1 and all(game.territory_count)
        # The leader's extra armies stand on its borders; inside, one army each.
        for t in ours:
            inner = all(game.owner[n] == leader for n in board.neighbours[t])
            assert (game.armies[t] == 1) if inner else (game.armies[t] > 1)
        # The first player's turn, as the played game had it, with reinforcements for the new map.
        assert game.phase == Phase.REINFORCE and game.pending == game.reinforcement_for(game.current)
        assert game.legal_actions()
        table.close()


def test_games_from_the_scripted_start_play_to_their_end() -> None:
    jobs = schedule(4, "quick", "quick", 4, seed=3, rules=Rules.preset("2008"), max_turns=400)
    results = [play_leader_game(job) for job in jobs]
    assert [r.leader_seat for r in results] == [0, 1, 2, 3]  # the leader's seat rotates
    for result in results:
        assert result.winner_seat is not None
        if result.winner_seat != result.leader_seat:  # whoever won took the leader's continents
            assert result.first_loss_round is not None
        if result.first_loss_round is not None:
            assert 1 <= result.first_loss_round <= result.rounds
    assert play_leader_game(jobs[1]) == results[1]  # deterministic per seed


def test_the_command_reports_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "4", "--others", "quick", "--games", "4", "--workers", "1", "--json"]
    assert bench_leader.main(argv) == 0
    (run,) = json.loads(capsys.readouterr().out)["runs"]
    assert run["games"] == 4 and run["leader"] == run["others"] == "quick" and run["chance"] == 0.25
    assert 0 <= run["leader_wins"] <= 4 and run["ci95"][0] <= run["leader_win_rate"] <= run["ci95"][1]
    assert run["held_both_after_3_rounds"] >= run["held_both_after_6_rounds"]
    assert "--others quick --games 4 --seed 1" in run["command"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--others", "nobody"], "no bot or level called 'nobody'"),
        (["--continents", "Atlantis"], "no continent called 'Atlantis'"),
        (["--players", "6", "--rules", "2008"], "3 to 5 players"),
        (["--workers", "3"], "--workers must be 1 to 2"),
    ],
)
def test_bad_options_say_what_was_wrong(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench_leader.main(argv) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.err.count("\n") == 1 and captured.out == ""
