"""How a game is won, as front ends ask it (risk/rules/goal.py): each game's variant declares its goal,
and nothing outside the rules core decides anything by the game's name (issue 22, item 1)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import risk
from risk.errors import RulesError
from risk.rules.game import Game
from risk.rules.goal import WORLD_DOMINATION, Goal, GoalKind
from risk.rules.options import GAMES, Rules
from risk.rules.state import State
from risk.rules.variants import game_goal, game_title, goal_of, hooks_for
from risk.rules.variants.base import Variant
from risk.view import SPECTATOR, View

PACKAGE = Path(risk.__file__).parent
# Functions that show a game's name (a title, a save's file name): not a decision.
SHOWN_BY = ("game_title", "new_save_path")

EXPECTED = {
    "world": Goal(GoalKind.WORLD),
    "two-player": Goal(GoalKind.OPPONENT),
    "team": Goal(GoalKind.TEAM),
    "secret-mission": Goal(GoalKind.SECRET_MISSION, secret=True, names_colours=True),
    "capital": Goal(GoalKind.HEADQUARTERS, secret=True),
    "mission": Goal(GoalKind.MISSION_CARDS, secret=True),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_of_the_rulebooks_declares_how_it_is_won(game: str) -> None:
    edition = GAMES[game][0]
    rules = Rules.preset(edition).for_game(game)
    assert goal_of(rules) == game_goal(game) == EXPECTED[game]
    players = {"two-player": 2, "team": 4}.get(game, 3)
    played = Game(rules, players, seed=5)
    assert played.goal == EXPECTED[game]
    view = View(played, SPECTATOR)
    assert view.goal == EXPECTED[game]
    data = view.to_dict()
    assert data["goal"] == EXPECTED[game].to_dict()
    assert data["goal"]["kind"] == EXPECTED[game].kind.value
    assert data["has_teams"] is (game == "team")
    assert data["game"] == game  # the websocket's field stays as it was


def test_options_that_set_no_goal_leave_world_domination() -> None:
    rules = Rules.from_description("1993 army-cap=12 attack-advantage=on commanders=on")
    assert goal_of(rules) is WORLD_DOMINATION
    active = Rules.from_description("2003 game=two-player neutral-mode=active")
    assert goal_of(active).kind is GoalKind.OPPONENT


def test_two_variants_that_set_the_goal_cannot_be_played_together(monkeypatch: pytest.MonkeyPatch) -> None:
    from risk.rules import variants

    class Conquest(Variant[State]):
        name = "conquest"
        goal = Goal(GoalKind.WORLD)

    rules = Rules.preset("2008").for_game("capital").with_options(army_cap=999)
    monkeypatch.setattr(variants, "REGISTRY", (*variants.REGISTRY, (Conquest, lambda r: r == rules)))
    variants.hooks_for.cache_clear()
    try:
        with pytest.raises(RulesError, match="cannot be played together: Capital and Conquest"):
            hooks_for(rules)
    finally:
        variants.hooks_for.cache_clear()


def test_the_title_of_a_game_is_for_display() -> None:
    assert game_title("capital") == "Capital RISK"
    assert game_title("world") == "world domination"
    assert all(game_title(game) != game for game in GAMES)


def _name_tests(tree: ast.AST) -> list[int]:
    """Lines comparing a game's name: ``x.rules.game == ...``, ``x.game != "world"``, ``x.game in (...)``."""
    names = set(GAMES)
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        games = [o for o in operands if isinstance(o, ast.Attribute) and o.attr == "game"]
        if not games:
            continue
        of_rules = any(isinstance(o.value, ast.Attribute) and o.value.attr == "rules" for o in games)
        named = any(
            isinstance(c, ast.Constant) and c.value in names
            for o in operands
            for c in ([o] if isinstance(o, ast.Constant) else getattr(o, "elts", []))
        )
        if of_rules or named:
            lines.append(node.lineno)
    return lines


def _name_reads(tree: ast.AST) -> list[int]:
    """Lines reading ``x.rules.game`` for anything but display or data: the title
    (``game_title(x.rules.game)``), a save's file name, a value in a JSON-ready dict."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr == "game"):
            continue
        if not (isinstance(node.value, ast.Attribute) and node.value.attr == "rules"):
            continue
        parent = parents[node]
        shown = isinstance(parent, ast.Call) and getattr(parent.func, "id", "") in SHOWN_BY
        if not (shown or isinstance(parent, ast.Dict)):
            lines.append(node.lineno)
    return lines


def test_nothing_outside_the_rules_core_decides_by_the_game_s_name() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "rules"):
            continue
        tree = ast.parse(path.read_text())
        lines = sorted({*_name_tests(tree), *_name_reads(tree)})
        found += [f"{path.relative_to(PACKAGE)}:{line}" for line in lines]
    assert not found, f"ask the game's goal (risk.rules.goal) instead: {found}"


def test_the_web_app_s_game_pages_ask_the_view_not_the_game_s_name() -> None:
    # The lobby chooses a game by its name; the pages that show a game ask its goal.
    games = "|".join(map(re.escape, GAMES))
    pattern = re.compile(rf"""\.game\s*[!=]==?\s*["']({games})["']""")
    found = [
        f"{path.name}:{number}"
        for path in sorted((PACKAGE / "web" / "js").glob("*.js"))
        if path.name != "lobby.js"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, found


def test_the_checks_find_what_they_look_for() -> None:
    source = 'a = view.rules.game == "capital"\nb = spec.game != "world"\nc = g.game in ("team",)\nd = x.game'
    assert _name_tests(ast.parse(source)) == [1, 2, 3]
    source = 'kind = game.rules.game\nt = game_title(game.rules.game)\nd = {"game": game.rules.game}'
    assert _name_reads(ast.parse(source)) == [1]
