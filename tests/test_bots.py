"""The bots: legal play to the end under every preset and player count, seeded replays, the secrecy
of determinisation, and the search bot's budget discipline."""

from __future__ import annotations

import ast
import random
import time
from pathlib import Path

import pytest

from risk.bots import BOTS, DEFAULT_BOT, LADDER, make_bot
from risk.bots.base import Bot
from risk.bots.battle_odds import win_probability
from risk.bots.expert import ExpertBot
from risk.bots.heuristic import ContinentalBot, FortressBot, fallback_action
from risk.bots.search import SearchBot, evaluate
from risk.odds import invasion
from risk.rules.actions import Action, Attack, Defend
from risk.rules.game import Game, Phase
from risk.rules.options import PRESETS, Rules
from risk.view import View


def small_search(seed: int) -> Bot:
    return SearchBot(seed, iterations=2)


def bot_for(name: str, seed: int) -> Bot:
    if name == "expert":
        return ExpertBot(seed, iterations=2)
    return small_search(seed) if name == "search" else make_bot(name, seed)


def play(game: Game, bots: list[Bot], max_turns: int = 400) -> int:
    """Play with checked actions (an illegal choice raises); returns the number of actions."""
    actions = 0
    while not game.is_over and game.turn <= max_turns:
        actor = game.to_act
        action = bots[actor].choose(View(game, actor))
        game.apply(action)
        actions += 1
    return actions


def play_to_turn(game: Game, bots: list[Bot], turn: int) -> None:
    while not game.is_over and game.turn < turn:
        actor = game.to_act
        game.apply(bots[actor].choose(View(game, actor)))


# -- the ladder ---------------------------------------------------------------------------------
def test_ladder_names_and_descriptions() -> None:
    assert list(BOTS) == [
        "random",
        "beginner",
        "quick",
        "fortress",
        "continental",
        "warlord",
        "search",
        "expert",
    ]
    assert [cls.name for cls in LADDER] == [name for name in BOTS if name != "beginner"]
    assert DEFAULT_BOT == "quick"
    for cls in LADDER:
        assert cls.description and "\n" not in cls.description


def test_make_bot_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="no bot or level called 'nobody'"):
        make_bot("nobody")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_plays_legal_games_to_the_end(preset: str) -> None:
    rules = Rules.preset(preset)
    low, high = rules.players
    names = [name for name in BOTS if name != "expert"]  # expert: its own test below
    for count in range(max(3, low), min(6, high) + 1):
        # Each bot takes every seat over the player counts; search keeps a tiny budget here.
        seats = [names[(count + seat) % len(names)] for seat in range(count)]
        game = Game(rules, [f"{name}-{seat}" for seat, name in enumerate(seats)], seed=count)
        play(game, [bot_for(name, seat) for seat, name in enumerate(seats)])
        assert game.is_over, f"{preset} with {seats} did not finish"
        assert game.winner is not None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_expert_plays_legal_games_to_the_end(preset: str) -> None:
    rules = Rules.preset(preset)
    count = max(4, rules.players[0])
    seats = ["expert", "quick", "fortress", "continental", "warlord", "fortress"][:count]
    game = Game(rules, [f"{name}-{seat}" for seat, name in enumerate(seats)], seed=count)
    play(game, [bot_for(name, seat) for seat, name in enumerate(seats)])
    assert game.winner is not None, f"{preset} with {seats} did not finish"


# Four random bots would wander for ever: random is covered by the mixed tables above.
@pytest.mark.parametrize("name", ["quick", "fortress", "continental", "warlord"])
def test_each_bot_alone_finishes_a_game(name: str) -> None:
    game = Game(Rules.preset("2008"), 4, seed=7)
    play(game, [make_bot(name, seat) for seat in range(4)], max_turns=1000)
    assert game.winner is not None


def test_same_seed_same_game() -> None:
    def history(seed: int) -> list[object]:
        game = Game(Rules.preset("1993"), 4, seed=seed)
        seats = ["search", "continental", "fortress", "quick"]
        play(game, [bot_for(name, 10 + seat) for seat, name in enumerate(seats)], max_turns=50)
        return game.history

    assert history(3) == history(3)


def test_heuristics_defend_with_the_most_dice_and_attack_with_the_most() -> None:
    game = Game(Rules.preset("2008"), 3, seed=2)
    bots: list[Bot] = [ContinentalBot(0), FortressBot(1), ContinentalBot(2)]
    seen_defence = seen_attack = False
    while not game.is_over and game.turn < 60 and not (seen_defence and seen_attack):
        actor = game.to_act
        action = bots[actor].choose(View(game, actor))
        if isinstance(action, Defend):
            assert game.pending_attack is not None
            assert action.dice == min(2, game.armies[game.pending_attack[1]])
            seen_defence = True
        if isinstance(action, Attack):
            assert action.dice == min(3, game.armies[action.source] - 1)
            seen_attack = True
        game.apply(action)
    assert seen_attack and seen_defence


def test_win_probability_comes_from_the_exact_odds() -> None:
    assert win_probability(3, 2) == pytest.approx(invasion(3, 2).attacker_wins)
    assert win_probability(0, 5) == 0.0
    # Huge stacks are scaled down, keeping the ratio: still the right side of a coin toss.
    assert win_probability(300, 100) > 0.99


def bot_imports() -> dict[str, set[str]]:
    """Each module of risk.bots with the risk.bots modules it imports (anywhere in the file)."""
    folder = Path(__file__).resolve().parents[1] / "src" / "risk" / "bots"
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        name = "risk.bots" if path.stem == "__init__" else f"risk.bots.{path.stem}"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
        graph[name] = {module for module in found if module.startswith("risk.bots.")} - {name}
    return graph


def test_bot_modules_import_no_cycle() -> None:
    graph = bot_imports()
    assert "risk.bots.heuristic" in graph and "risk.bots.neutrals" in graph
    cycles: list[list[str]] = []

    def visit(module: str, path: list[str]) -> None:
        for imported in sorted(graph.get(module, ())):
            if imported in path:
                cycles.append([*path[path.index(imported) :], imported])
            elif imported in graph:
                visit(imported, [*path, imported])

    for module in sorted(graph):
        visit(module, [module])
    assert cycles == []


def test_fallback_action_is_legal_in_every_phase() -> None:
    game = Game(Rules.preset("2003"), 3, seed=4)
    bots = [make_bot("quick", seat) for seat in range(3)]
    rng = random.Random(0)
    phases: set[Phase] = set()
    while not game.is_over and game.turn < 40:
        view = View(game, game.to_act)
        action = fallback_action(view, rng)
        assert game.is_legal(action), (game.phase, action)
        phases.add(game.phase)
        game.apply(bots[game.to_act].choose(view))
    assert {Phase.CLAIM, Phase.REINFORCE, Phase.ATTACK, Phase.FORTIFY} <= phases


# -- determinisation ----------------------------------------------------------------------------
def mid_game(seed: int = 5) -> Game:
    game = Game(Rules.preset("2008"), 4, seed=seed)
    play_to_turn(game, [make_bot("continental", seat) for seat in range(4)], 25)
    assert not game.is_over
    assert sum(len(hand) for hand in game.hands) > 3, "want hidden cards in the position"
    return game


def rearrange_hidden_parts(game: Game, me: int, seed: int) -> Game:
    """The same public position with other players' hands, the draw pile and generator changed."""
    other = game.copy()
    rng = random.Random(seed)
    pool = [card for player, hand in enumerate(other.hands) if player != me for card in hand] + other.deck
    rng.shuffle(pool)
    for player in range(len(other.players)):
        if player != me:
            size = len(other.hands[player])
            other.hands[player], pool = pool[:size], pool[size:]
    other.deck = pool
    other._rng = random.Random(seed)
    other.seed = seed
    return other


def test_determinisation_depends_only_on_what_the_player_knows() -> None:
    game = mid_game()
    me = game.current
    twin = rearrange_hidden_parts(game, me, seed=99)
    assert twin.hands != game.hands or twin.deck != game.deck
    for rng_seed in range(5):
        first = View(game, me).determinise(random.Random(rng_seed))
        second = View(twin, me).determinise(random.Random(rng_seed))
        assert first.hands == second.hands
        assert first.deck == second.deck
        assert first._rng.getstate() == second._rng.getstate()
        assert first.owner == second.owner and first.armies == second.armies


def test_determinisation_is_consistent_with_the_view() -> None:
    game = mid_game(seed=8)
    me = game.current
    sample = View(game, me).determinise(random.Random(1))
    assert sample.hands[me] == game.hands[me]
    assert [len(hand) for hand in sample.hands] == [len(hand) for hand in game.hands]
    assert sample.discard == game.discard
    everything = sorted(card for hand in sample.hands for card in hand) + sample.deck + sample.discard
    assert sorted(everything) == sorted([*game.deck, *game.discard, *(c for h in game.hands for c in h)])
    assert sample.history == [] and sample.seed == 0
    # Different samples do differ in the hidden parts.
    other = View(game, me).determinise(random.Random(2))
    assert (other.hands, other.deck) != (sample.hands, sample.deck)
    # The sample is a playable game.
    bots = [make_bot("quick", seat) for seat in range(4)]
    play(sample, bots, max_turns=sample.turn + 20)


# -- the search bot -----------------------------------------------------------------------------
def test_search_leaves_trivial_decisions_to_the_heuristic() -> None:
    game = Game(Rules.preset("2008"), 3, seed=11)
    search = SearchBot(0, iterations=1000, max_seconds=60)
    # Setup decisions are never searched: a thousand iterations would take far longer than this.
    started = time.perf_counter()
    for _ in range(60):
        game.apply(search.choose(View(game, game.to_act)))
    assert game.phase in (Phase.CLAIM, Phase.SETUP_PLACE)
    assert time.perf_counter() - started < 5.0


def test_search_candidates_include_ending_the_phase() -> None:
    game = mid_game(seed=12)
    bots = [make_bot("continental", seat) for seat in range(4)]
    while game.phase != Phase.ATTACK:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    search = SearchBot(3, iterations=8)
    view = View(game, game.to_act)
    default = search.policy.choose(view)
    candidates = search.candidates(view, game.to_act, default)
    assert candidates[0] == default
    assert any(type(c).__name__ == "EndAttack" for c in candidates)
    assert all(game.is_legal(c) for c in candidates)
    assert len(candidates) == len(set(candidates))
    chosen: Action = search.choose(view)
    assert game.is_legal(chosen)


def test_evaluation_is_a_share_between_zero_and_one() -> None:
    game = mid_game(seed=13)
    values = [evaluate(View(game, player)) for player in range(4)]
    assert all(0.0 <= value <= 1.0 for value in values)
    assert sum(values) == pytest.approx(1.0)


def test_determinisation_redraws_secret_missions() -> None:
    rules = Rules.preset("2008").for_game("secret-mission")
    game = Game(rules, 4, seed=3)
    play_to_turn(game, [make_bot("continental", seat) for seat in range(4)], 6)
    me = game.current
    others = set()
    for rng_seed in range(12):
        sample = View(game, me).determinise(random.Random(rng_seed))
        assert sample.missions[me] == game.missions[me]
        keys = [m.key for m in sample.missions if m is not None]
        assert len(keys) == 4  # (two may read "occupy 24": a destroy card naming its holder)
        others.add(tuple(keys))
    assert len(others) > 1  # other players' missions are sampled, not copied


@pytest.mark.parametrize("game_name", ["two-player", "secret-mission", "capital", "mission", "team"])
def test_bots_play_the_other_games(game_name: str) -> None:
    rules = Rules.preset("2003" if game_name in ("mission", "team") else "2008").for_game(game_name)
    count = rules.players[0]
    seats = ["continental", "fortress", "search", "quick"][:count]
    game = Game(rules, count, seed=2)
    play(game, [bot_for(name, seat) for seat, name in enumerate(seats)], max_turns=150)
    assert game.is_over or game.turn > 150
