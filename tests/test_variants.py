"""The registry of game variants (risk/rules/variants/): each game's variants are chosen once from its
rules, a world-domination game runs through no variant hook, and combinations work together."""

from __future__ import annotations

import dataclasses

import pytest

from risk.errors import IllegalActionError, RulesError
from risk.rules.game import Game
from risk.rules.hooks import Hooks
from risk.rules.options import Rules
from risk.rules.variants import hooks_for, variants_for


def names(description: str) -> set[str]:
    return {v.name for v in variants_for(Rules.from_description(description))}


def test_world_domination_runs_through_no_variant_hook() -> None:
    for preset in ("1993", "2003", "2008"):
        hooks = hooks_for(Rules.preset(preset))
        assert variants_for(Rules.preset(preset)) == ()
        for field in dataclasses.fields(Hooks):
            if field.name not in ("actions", "refusals", "effects"):  # the core's own action rules
                assert not getattr(hooks, field.name), field.name


def test_each_game_of_the_rulebooks_has_its_variant() -> None:
    assert names("2003 game=team") == {"team"}
    assert names("1993 game=capital") == {"capital"}
    assert names("2008 game=secret-mission") == {"secret-mission"}
    assert names("2003 game=mission") == {"mission"}
    assert names("2008 game=two-player") == {"neutral-armies", "two-player"}


def test_two_player_active_neutrals_and_the_expert_options_play_together() -> None:
    description = "2003 game=two-player neutral-mode=active army-cap=12 attack-advantage=on commanders=on"
    expected = {"neutral-armies", "two-player", "active-neutrals", "army-cap", "dice-options"}
    assert names(description) == expected
    game = Game(Rules.from_description(description), 2, seed=4)
    while not game.is_over and game.turn < 15:
        game.apply(next(iter(game.legal_actions())))
    assert game.turn >= 15 or game.is_over


def test_variants_that_replace_the_same_rule_cannot_be_played_together() -> None:
    rules = Rules.from_description("2003 game=team neutrals=2 neutral-armies=10 neutral-mode=active")
    with pytest.raises(RulesError, match="cannot be played together: Team and ActiveNeutrals"):
        hooks_for(rules)


def test_a_variant_action_in_a_game_without_it_is_refused_with_its_reason() -> None:
    game = Game("2008", 3, seed=1)
    with pytest.raises(IllegalActionError, match="mission cards are claimed in Mission RISK"):
        game.apply("mission captain-australia")
    with pytest.raises(IllegalActionError, match="only active neutrals"):
        game.apply("calloff")


def test_a_new_variant_plugs_in_through_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules-core.md, "How to add a game variant": a turn limit, written as that page says."""
    from risk.rules import variants
    from risk.rules.state import Outcome, State
    from risk.rules.variants.base import Variant

    class TurnLimit(Variant[State]):
        name = "turn-limit"
        limit = 6

        def after_action(self, game: State) -> None:
            if game.turn > self.limit:  # the turn after the last has begun
                seats = range(game.humans)
                leader = max(seats, key=lambda p: (game.alive[p], game.territory_count[p], -p))
                game.end_game(leader)

        def outcome(self, game: State, winner: int, last_standing: bool) -> Outcome | None:
            if last_standing:
                return None
            return Outcome(winner, f"held the most territories after {self.limit} turns", (winner,))

    rules = Rules.preset("2008").with_options(army_cap=1000)  # a ruleset of its own for the registry
    monkeypatch.setattr(variants, "REGISTRY", (*variants.REGISTRY, (TurnLimit, lambda r: r == rules)))
    variants.hooks_for.cache_clear()
    try:
        game = Game(rules, 3, seed=2)
        while not game.is_over:
            game.apply(next(iter(game.legal_actions())))
        outcome = game.outcome()
        assert game.turn == TurnLimit.limit + 1 and outcome is not None
        assert outcome.reason == "held the most territories after 6 turns"
        assert game.territory_count[outcome.winner] == max(game.territory_count)
        assert not Game(Rules.preset("2008"), 3, seed=2).is_over  # other rules: no turn limit
    finally:
        variants.hooks_for.cache_clear()


def test_variant_modules_import_the_state_and_the_interface_never_the_turn_machine() -> None:
    import ast
    from pathlib import Path

    import risk.rules.variants as package

    allowed = {
        "risk.errors",
        "risk.rules.actions",
        "risk.rules.goal",
        "risk.rules.hooks",
        "risk.rules.missions",
        "risk.rules.options",
        "risk.rules.state",
        "risk.rules.variants.base",
    }
    folder = Path(package.__file__).parent
    for path in sorted(folder.glob("*.py")):
        if path.name == "__init__.py":
            continue  # the registry: it joins the variants to the machine's tables
        tree = ast.parse(path.read_text())
        imported = {
            node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
        }
        imported |= {
            alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        ours = {name for name in imported if name.startswith("risk")}
        assert ours <= allowed, f"{path.name} imports {sorted(ours - allowed)}"
