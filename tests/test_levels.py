"""Levels for people (easy, normal, hard, expert) and the beginner bot behind easy."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from risk.bots import BOTS, LEVELS, bot_label, is_bot_name, make_bot
from risk.bots.base import Bot
from risk.bots.battle_odds import win_probability
from risk.bots.beginner import RECKLESS_ODDS, USUAL_ODDS, WORST_ODDS, BeginnerBot
from risk.bots.search import SearchBot
from risk.play.simulate import bot_seed, play_game
from risk.play.tournament import run_tournament
from risk.record import write_record
from risk.rules.actions import Attack, EndTurn, Fortify, Place
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.tui.command import register
from risk.view import View


# -- the levels -----------------------------------------------------------------------------------
def test_levels_easiest_first_each_a_bot_with_a_description() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "expert"]
    for level in LEVELS.values():
        assert level.bot_name in BOTS
        assert level.description and "\n" not in level.description
        # A level never hides another bot of the same name (the expert level is the expert bot).
        assert level.name not in BOTS or level.bot_name == level.name
    assert LEVELS["easy"].bot == "beginner"


@pytest.mark.parametrize("name", list(LEVELS))
def test_a_level_makes_its_bot(name: str) -> None:
    level = LEVELS[name]
    bot = make_bot(f"  {name.upper()} ", seed=3)
    assert isinstance(bot, BOTS[level.bot_name]) and bot.seed == 3
    assert is_bot_name(name) and is_bot_name(level.bot_name)
    assert bot_label(name) == (name if level.bot_name == name else f"{name} · {level.bot_name}")
    assert bot_label(level.bot_name) == level.bot_name


def test_expert_decides_in_under_a_second_by_its_settings() -> None:
    """The expert level's bot is a search bot at its default budget, with a time cap under a second."""
    bot = make_bot("expert")
    assert isinstance(bot, SearchBot) and bot.max_seconds < 1.0


def test_unknown_level_is_refused_with_the_names() -> None:
    assert not is_bot_name("grandmaster")
    with pytest.raises(ValueError, match="levels: easy, normal, hard, expert; bots: random, beginner"):
        make_bot("grandmaster")


def test_a_tournament_of_levels_names_them(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = run_tournament(["easy", "normal", "hard"], Rules.preset("2008"), 3, out=tmp_path)
    assert {standing.name for standing in result.standings} == {"easy", "normal", "hard"}
    assert sum(standing.wins for standing in result.standings) + result.unfinished == 3
    assert "easy-1" in (tmp_path / "game-0000-seed-1.risk").read_text()


# -- the beginner ---------------------------------------------------------------------------------
def beginner_games(count: int, opponents: str = "quick", players: int = 4) -> list[tuple[Game, list[dict]]]:
    """World games with one beginner (seat rotating) against ``opponents``; each beginner decision
    is noted with the position it was taken in."""
    games = []
    for seed in range(count):
        seat = seed % players
        names = [opponents] * players
        names[seat] = "beginner"
        game = Game(Rules.preset("2008"), [f"p{i}" for i in range(players)], seed=100 + seed)
        bots: list[Bot] = [make_bot(name, bot_seed(100 + seed, i)) for i, name in enumerate(names)]
        notes: list[dict] = []
        while not game.is_over and game.turn <= 300:
            actor = game.to_act
            action = bots[actor].choose(View(game, actor))
            if actor == seat:
                note: dict = {
                    "phase": game.phase,
                    "action": action,
                    "pending": game.pending,
                    "turn": game.turn,
                }
                if isinstance(action, Attack):
                    note["odds"] = win_probability(game.armies[action.source] - 1, game.armies[action.target])
                if game.phase == Phase.FORTIFY:
                    note["could_fortify"] = any(isinstance(a, Fortify) for a in game.legal_actions())
                notes.append(note)
            game.apply(action)
        games.append((game, notes))
    return games


@pytest.fixture(scope="module")
def played() -> list[tuple[Game, list[dict]]]:
    return beginner_games(8)


def test_the_beginner_never_starts_a_hopeless_invasion(played) -> None:  # type: ignore[no-untyped-def]
    odds = [note["odds"] for _, notes in played for note in notes if "odds" in note]
    assert len(odds) > 100
    assert min(odds) >= WORST_ODDS  # never 2 against 10, over and over
    # ... but it does take bad risks on some turns, as a beginner does.
    risky = [o for o in odds if RECKLESS_ODDS <= o < USUAL_ODDS]
    assert risky and len(risky) < len(odds) / 2


def test_the_beginner_sometimes_forgets_to_fortify(played) -> None:  # type: ignore[no-untyped-def]
    # The first fortification decision of each turn where a move was possible.
    first: dict[tuple[int, int], dict] = {}
    for number, (_, notes) in enumerate(played):
        for note in notes:
            if note.get("could_fortify"):
                first.setdefault((number, note["turn"]), note)
    forgot = sum(isinstance(note["action"], EndTurn) for note in first.values())
    assert len(first) > 20 and 0.15 * len(first) < forgot < 0.85 * len(first)


def test_the_beginner_places_its_armies_in_a_few_large_lots(played) -> None:  # type: ignore[no-untyped-def]
    notes = [note for _, game_notes in played for note in game_notes]
    places = [n for n in notes if n["phase"] == Phase.REINFORCE and isinstance(n["action"], Place)]
    assert places
    for note in places:
        assert note["action"].armies >= min(note["pending"], (note["pending"] + 1) // 2)


def test_the_beginner_replays_exactly() -> None:
    rules = Rules.preset("2008")
    first, _ = play_game(rules, ["beginner", "quick", "beginner"], seed=9)
    again, _ = play_game(rules, ["beginner", "quick", "beginner"], seed=9)
    assert write_record(first) == write_record(again)


@pytest.mark.parametrize(
    ("edition", "game", "seats"),
    [
        ("2008", "two-player", 2),
        ("2003", "two-player", 2),  # active neutrals
        ("2008", "secret-mission", 4),
        ("2008", "capital", 3),
        ("2003", "mission", 4),
        ("2003", "team", 4),
        ("1993", "world", 6),
    ],
)
def test_the_beginner_plays_every_game(edition: str, game: str, seats: int) -> None:
    rules = Rules.preset(edition).for_game(game)
    names = ["beginner" if seat % 2 == 0 else "quick" for seat in range(seats)]
    played_game, report = play_game(rules, names, seed=5, max_turns=200)
    assert report.actions > 50 and played_game.turn > 1


def test_the_beginner_is_between_random_and_quick() -> None:
    """Seeded games, seats rotating: it beats random players and loses to the quick bot."""
    rules = Rules.preset("2008")
    against_random = run_tournament(["beginner", "random", "random"], rules, 9)
    assert next(s for s in against_random.standings if s.name == "beginner").wins >= 8
    against_quick = run_tournament(["beginner", "quick", "quick"], rules, 9)
    assert next(s for s in against_quick.standings if s.name == "beginner").wins < 3  # chance: 3 of 9


def test_beginner_is_a_bot_with_a_description() -> None:
    assert BOTS["beginner"] is BeginnerBot and BeginnerBot.description


def test_risk_play_takes_a_level_and_shows_it_with_its_bot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = typer.Typer(add_completion=False)
    register(app)

    @app.callback()
    def main() -> None:
        """Two levels, like `risk`."""

    save = tmp_path / "game.risk"
    arguments = ["play", "--level", "Hard", "--seed", "3", "--save", str(save)]
    result = CliRunner().invoke(app, arguments, input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "Bob (bot: hard · warlord), Cy (bot: hard · warlord)" in result.output
    assert "# risk play seats: human,hard,hard" in save.read_text()
    resumed = CliRunner().invoke(app, ["play", "--load", str(save)], input="quit\ny\n")
    assert "Bob (bot: hard · warlord)" in resumed.output
