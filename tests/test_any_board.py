"""Every game on every board (issue 26 item 4, the rules part): the missions of Secret Mission and
Mission RISK made from the board (the classic board keeps the book's), Capital, Team and 2-player
RISK (passive and active neutrals) played by bots to an end on generated boards, degenerate ones
included, and a game the board cannot support refused at creation with why."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from risk.bots import make_bot
from risk.bots.base import Bot
from risk.bots.expert import ExpertBot
from risk.bots.search import SearchBot
from risk.errors import RulesError
from risk.maps import Board, load_map
from risk.maps.generate import generate_board
from risk.rules.game import Game
from risk.rules.missions import (
    BASE_MISSIONS,
    BOOK_BONUSES,
    BOOK_TERRITORIES,
    MAX_SHARE,
    MIN_SHARE,
    PAIR_SHARE,
    PLUS_ONE_SHARE,
    RANKED_MISSIONS,
    RANKS,
    base_missions,
    continent_share,
    mission_deck,
    ranked_mission,
    ranked_missions,
)
from risk.rules.options import Rules
from risk.view import View

# (shape, territories, continents, seed): 6 to 150 territories, and the degenerate boards.
BOARDS = [
    ("world", 6, 1, 0),
    ("world", 6, 6, 1),  # every continent one territory
    ("world", 8, 2, 2),
    ("world", 12, 3, 3),
    ("world", 20, 20, 4),
    ("world", 30, 4, 5),
    ("world", 42, 6, 6),
    ("world", 60, 8, 7),
    ("world", 100, 10, 8),
    ("world", 100, 24, 9),
    ("world", 150, 12, 10),
    ("chain", 9, 3, 11),
    ("chain", 20, 20, 12),
    ("star", 12, 5, 13),
    ("star", 40, 4, 14),
]
BOARD_IDS = [f"{shape}-{t}-{c}" for shape, t, c, _ in BOARDS]


def undeclared_board(territories: int, continents: int, seed: int) -> Board:
    """A generated board that declares no player counts: the rules' counts and starting armies apply."""
    data = generate_board(territories, continents, seed)
    del data["players"], data["starting_armies"]
    return Board(data)


def board_of(shape: str, territories: int, continents: int, seed: int) -> Board:
    """A generated board for 2 to 6 players (fewer on a board of fewer territories)."""
    return Board(generate_board(territories, continents, seed, (2, min(6, territories)), shape=shape))


# -- the classic board keeps the book's cards --------------------------------------------------------


def test_the_classic_board_keeps_the_books_missions_in_the_books_order() -> None:
    classic = load_map("classic")
    assert base_missions(classic) is BASE_MISSIONS
    assert [m.text for m in mission_deck(6, classic)] == [m.text for m in mission_deck(6)]
    assert mission_deck(4, classic)[-1].text == (
        "Destroy all yellow armies. If they are your own, occupy 24 territories instead."
    )
    assert ranked_missions(classic) is RANKED_MISSIONS
    assert all(ranked_mission(m.key, classic) is m for m in RANKED_MISSIONS)


def test_the_shares_generated_missions_aim_at_are_the_books_on_the_classic_board() -> None:
    classic = load_map("classic")
    assert (len(classic), sum(c.bonus for c in classic.continents)) == (BOOK_TERRITORIES, BOOK_BONUSES)
    pairs = [m for m in BASE_MISSIONS if m.continents and not m.any_other_continent]
    plus_one = [m for m in BASE_MISSIONS if m.any_other_continent]

    def mean_share(missions: Sequence[object]) -> tuple[float, float]:
        shares = [continent_share(classic, [classic.continent(n) for n in m.continents]) for m in missions]  # type: ignore[attr-defined]
        return sum(s[0] for s in shares) / len(shares), sum(s[1] for s in shares) / len(shares)

    assert mean_share(pairs) == pytest.approx(PAIR_SHARE)
    assert mean_share(plus_one) == pytest.approx(PLUS_ONE_SHARE)


# -- generated Secret Missions ------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "territories", "continents", "seed"), BOARDS, ids=BOARD_IDS)
def test_generated_secret_missions_are_achievable_distinct_comparable_and_deterministic(
    shape: str, territories: int, continents: int, seed: int
) -> None:
    board = board_of(shape, territories, continents, seed)
    missions = base_missions(board)
    assert missions == base_missions(board_of(shape, territories, continents, seed))  # same board, same set
    deck = mission_deck(6, board)
    assert len({m.key for m in deck}) == len(deck) and len({m.text for m in deck}) == len(deck)
    for mission in missions:
        if mission.continents:
            named = [board.continent(name) for name in mission.continents]  # every name is on the board
            others = sorted(
                set(range(continents)) - set(named), key=lambda c: len(board.continents[c].territories)
            )
            least = named + (others[:1] if mission.any_other_continent else [])
            assert len(set(least)) < continents, f"{mission.text} asks for the whole board"
            assert MIN_SHARE <= continent_share(board, least)[0] <= MAX_SHARE, mission.text
    occupy = [m for m in missions if m.territories and m.armies_each == 1]
    strongholds = [m for m in missions if m.territories and m.armies_each == 2]
    assert len(occupy) == len(strongholds) == 1
    for mission in occupy + strongholds:
        # Achievable, and more than a 3-player deal gives anyone (nobody starts with it complete).
        assert math.ceil(territories / 3) < mission.territories <= territories
    assert occupy[0].territories >= strongholds[0].territories
    assert deck[-1].text.endswith(f"occupy {occupy[0].territories} territories instead.")
    if continents >= 6 and shape != "star":
        # A board of several balanced continents gets the book's six continent missions.
        assert sum(1 for m in missions if m.continents and not m.any_other_continent) == 4
        assert sum(1 for m in missions if m.any_other_continent) == 2


def test_a_classic_sized_board_gets_pairs_near_the_books_size() -> None:
    board = board_of("world", 42, 6, 6)
    pairs = [m for m in base_missions(board) if m.continents and not m.any_other_continent]
    assert [len(m.continents) for m in pairs] == [2, 2, 2, 2]
    for m in pairs:
        share = continent_share(board, [board.continent(n) for n in m.continents])
        assert abs(share[0] - PAIR_SHARE[0]) < 0.1 and abs(share[1] - PAIR_SHARE[1]) < 0.1, m.text


def test_the_occupy_missions_follow_the_books_share_of_the_board() -> None:
    board = board_of("world", 150, 12, 10)
    keys = [m.key for m in base_missions(board) if m.territories]
    assert keys == [f"occupy-{round(150 * 24 / 42)}", f"occupy-{round(150 * 18 / 42)}-with-2"]


# -- generated Mission RISK cards ---------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "territories", "continents", "seed"), BOARDS, ids=BOARD_IDS)
def test_generated_mission_risk_cards_are_achievable_distinct_and_deterministic(
    shape: str, territories: int, continents: int, seed: int
) -> None:
    board = board_of(shape, territories, continents, seed)
    cards = ranked_missions(board)
    assert cards == ranked_missions(board_of(shape, territories, continents, seed))
    assert len({c.key for c in cards}) == len(cards)
    book = {(m.rank, m.timing) for m in RANKED_MISSIONS}
    for card in cards:
        assert (card.rank, card.timing) in book and ranked_mission(card.key, board) is card
        assert card.territories <= territories and card.islands <= len(board.islands)
        assert card.continent_count < continents or card.continent_count == 0
        named = {board.continent(name) for name in card.continents}
        assert len(named) < continents or not named
        assert card.conquests < territories
    assert all(any(c.rank == rank for c in cards) for rank in RANKS)


def test_mission_risk_cards_scale_with_the_board() -> None:
    board = board_of("world", 150, 12, 10)
    texts = {c.key: c.text for c in ranked_missions(board)}
    assert (
        texts[f"general-{round(24 * 150 / 42)}-territories"] == f"Control {round(24 * 150 / 42)} territories."
    )
    assert texts["general-6-continents"] == "Control 6 whole continents."  # 3 of 6: half the continents
    assert texts["major-5-conquests"] == "Conquer 5 territories this turn."  # a turn's: the book's
    star = board_of("star", 12, 5, 13)
    islands = {c.key: c.islands for c in ranked_missions(star) if c.islands}
    scaled = [round(n * len(star.islands) / 7) for n in (5, 4, 3, 2)]  # the classic board has 7 islands
    assert islands == {f"{rank}-{n}-islands": n for rank, n in zip(RANKS, scaled, strict=True)}


# -- bots play every game on generated boards ------------------------------------------------------


def rules_for(edition: str, game: str, board: Board) -> Rules:
    """A game's rules with starting armies enough for the board (1.5 territories' worth a seat where
    that is more than the book's), as tests/test_generate.py gives them."""
    rules = Rules.preset(edition).for_game(game)
    counts = tuple((p, max(armies, math.ceil(1.5 * len(board) / p))) for p, armies in rules.starting_armies)
    rules = rules.with_options(starting_armies=counts)
    if rules.neutrals:
        seats = 2 + rules.neutrals
        rules = rules.with_options(
            neutral_armies=max(rules.neutral_armies, math.ceil(1.5 * len(board) / seats))
        )
    return rules


def make(name: str, seed: int) -> Bot:
    bot, _, budget = name.partition(":")
    if budget:
        return (ExpertBot if bot == "expert" else SearchBot)(seed, iterations=int(budget))
    return make_bot(name, seed)


def play_checked(rules: Rules, board: Board, bots: Sequence[str], seed: int, max_turns: int) -> Game:
    """Bots play to the end or the turn cap; after every turn every territory is held, with an army,
    by a seat in the game (Team RISK: by no one on a tie); a turn of 5,000 actions is a stall."""
    game = Game(rules, [f"{name}-{i + 1}" for i, name in enumerate(bots)], seed=seed, board=board)
    players = [make(name, seed * 101 + i) for i, name in enumerate(bots)]
    views = [View(game, i) for i in range(len(bots))]
    turn, actions = game.turn, 0
    while not game.is_over and game.turn <= max_turns:
        seat = game.to_act
        game.apply(players[seat].choose(views[seat]))
        actions += 1
        assert actions < 5000, f"turn {game.turn} stalls: {actions} actions by {bots[seat]}"
        if game.turn != turn:
            if turn > 0:
                team = rules.game == "team"
                assert all(game.alive[o] if o >= 0 else team for o in game.owner), "a territory unowned"
                assert min(game.armies) >= 1, "a territory without armies"
            turn, actions = game.turn, 0
    return game


# (edition, game, seat counts): the fast test plays the first count, the slow one any.
GAMES = [
    ("1993", "world", (3, 4, 5, 6)),
    ("1993", "secret-mission", (4, 3, 5, 6)),
    ("2008", "secret-mission", (3, 4, 5)),
    ("2003", "mission", (3, 4, 5, 6)),
    ("1993", "capital", (3, 4, 5, 6)),
    ("2003", "team", (4, 6)),
    ("1993", "two-player", (2,)),
    ("2003", "two-player", (2,)),
]
GAMES_A_BOARD = len(GAMES) + 2  # the 2-player games with passive and with active neutrals


def sweep(
    boards: Sequence[tuple[str, int, int, int]],
    bot_names: Sequence[str],
    seed: int,
    cap: int,
    vary: bool = False,
) -> dict[str, int]:
    """Every game (and active neutrals) on each board a board supports; the count of games by how
    each ended ("refused" for a board the game cannot be played on)."""
    ended: dict[str, int] = {}
    rng = random.Random(seed)
    for index, (shape, territories, continents, board_seed) in enumerate(boards):
        board = board_of(shape, territories, continents, board_seed)
        for edition, name, counts in GAMES:
            seats = rng.choice(counts) if vary else counts[0]
            modes = ("passive", "active") if name == "two-player" else ("",)
            for mode in modes:
                rules = rules_for(edition, name, board)
                if mode:
                    rules = rules.with_options(neutral_mode=mode)
                bots = [bot_names[rng.randrange(len(bot_names))] for _ in range(seats)]
                try:
                    game = play_checked(rules, board, bots, seed * 1000 + index, cap)
                except RulesError as refused:
                    smallest_pile = min(sum(1 for c in ranked_missions(board) if c.rank == r) for r in RANKS)
                    expected = {"capital": territories < 2 * seats, "mission": smallest_pile < seats}
                    assert expected.get(name), f"{name} refused on {shape}-{territories}: {refused}"
                    ended["refused"] = ended.get("refused", 0) + 1
                    continue
                outcome = game.outcome()
                reason = "cap" if outcome is None else f"{name}: {outcome.reason.split(':')[0]}"
                ended[reason] = ended.get(reason, 0) + 1
    return ended


def test_every_game_plays_to_an_end_on_generated_boards_degenerate_ones_included() -> None:
    ended = sweep(BOARDS, ("quick", "continental", "beginner"), seed=1, cap=150)
    played = sum(n for reason, n in ended.items() if reason != "refused")
    assert played >= 0.9 * len(BOARDS) * GAMES_A_BOARD, ended
    assert ended.get("cap", 0) <= 0.1 * played, ended
    # Each game is won by its own goal somewhere, the missions' games by a mission.
    assert {reason.split(":")[0] for reason in ended} >= {name for _, name, _ in GAMES}, ended
    assert "secret-mission: completed the secret mission" in ended, ended
    assert "mission: completed all four missions" in ended, ended


# -- games a board cannot support are refused, with why ---------------------------------------------


def test_claiming_a_board_with_too_few_starting_armies_is_refused_with_what_to_do() -> None:
    board = undeclared_board(150, 12, 1)
    with pytest.raises(RulesError) as refused:
        Game(Rules.preset("1993"), 3, seed=1, board=board)
    assert str(refused.value) == (
        f"3 players with 35 starting armies each cannot claim the 150 territories of the {board.name} "
        "board: give more with the rule option starting-armies (at least starting-armies=3:50) or play "
        "a board that declares enough starting armies"
    )
    Game(Rules.preset("1993").with_options(starting_armies="3:50"), 3, seed=1, board=board)  # enough


def test_a_deal_with_more_territories_than_armies_is_refused_for_players_and_neutrals() -> None:
    board = undeclared_board(150, 12, 1)
    with pytest.raises(
        RulesError,
        match=r"the deal gives Player 1 63 of the 150 territories .* more than "
        r"its 36 starting armies: .* starting-armies=2:63",
    ):
        Game(Rules.preset("2003").for_game("two-player"), 2, seed=1, board=board)
    rules = Rules.preset("1993").for_game("two-player").with_options(starting_armies="2:50")
    with pytest.raises(
        RulesError, match=r"the deal gives Neutral 50 .* 40 starting armies: .* neutral-armies=50"
    ):
        Game(rules, 2, seed=1, board=board)
    Game(rules.with_options(neutral_armies=50), 2, seed=1, board=board)


def test_more_seats_than_territories_is_refused() -> None:
    board = undeclared_board(6, 2, 1)
    rules = Rules.preset("1993").with_options(players="3-8", starting_armies="7:10")
    with pytest.raises(RulesError, match=f"the {board.name} board has 6 territories, too few for 7 seats"):
        Game(rules, 7, seed=1, board=board)


def test_capital_risk_needs_two_territories_a_player_for_a_secret_headquarters() -> None:
    board = board_of("world", 11, 3, 1)
    rules = rules_for("1993", "capital", board)
    with pytest.raises(RulesError) as refused:
        Game(rules, 6, seed=1, board=board)
    assert str(refused.value) == (
        "Capital RISK needs at least 12 territories for 6 players, two each so that a headquarters is a "
        f"secret choice: the {board.name} board has 11"
    )
    Game(rules, 5, seed=1, board=board)


def test_mission_risk_is_refused_where_a_pile_has_fewer_cards_than_players() -> None:
    board = board_of("world", 6, 1, 0)  # one continent, no islands: the general pile has 2 cards
    rules = rules_for("2003", "mission", board)
    with pytest.raises(RulesError) as refused:
        Game(rules, 3, seed=1, board=board)
    assert str(refused.value) == (
        f"Mission RISK on the {board.name} board is for at most 2 players, not 3: each player draws a "
        "card from each pile, and the general pile has 2 cards"
    )


# -- the larger sweep: every bot, every game, many boards -------------------------------------------
# One sweep for issue 26's "no bot crashes or stalls on any board" and item 4's "every game on every
# board" (tests/test_generate.py had its own, of world domination alone). `make test` plays a sample
# (one chunk, a few boards); `make test-all` the whole of it, marked slow: 200 boards in 20 chunks
# (a chunk a test, so that a parallel run shares them out), every game on each.
CHEAP_BOTS = ("random", "beginner", "quick", "fortress", "continental")
SEARCH_BOTS = ("expert:4", "search:4")  # the search bots at a small budget: every decision, quickly
SWEEP_CHUNKS, SWEEP_BOARDS_A_CHUNK, SAMPLE_BOARDS = 20, 10, 4


def sweep_boards(chunk: int, count: int, largest: bool = True) -> list[tuple[str, int, int, int]]:
    """``count`` boards of chunk ``chunk``: world boards of 6 to 150 territories, chains and stars,
    one continent to one a territory; with ``largest``, the first is a world of 150 territories."""
    rng = random.Random(chunk)
    boards = []
    for i in range(count):
        shape = ("world", "chain", "world", "star")[i % 4]
        sizes = (6, 8, 12, 20, 30, 42, 60, 80, 100, 150) if shape == "world" else (6, 9, 12, 20, 30, 40)
        territories = 150 if i == 0 and largest else rng.choice(sizes)
        boards.append((shape, territories, rng.randint(1, min(12, territories)), 700 + chunk * 100 + i))
    return boards


def check_sweep(chosen: list[tuple[str, int, int, int]], chunk: int) -> None:
    """Every bot plays every game (seat counts varied) on each board: each game is played to its end
    or the cap (80 turns), or refused for a board it cannot be played on."""
    ended = sweep(chosen, CHEAP_BOTS + SEARCH_BOTS, seed=50 + chunk, cap=80, vary=True)
    assert sum(ended.values()) == len(chosen) * GAMES_A_BOARD
    assert ended.get("cap", 0) <= 0.2 * sum(ended.values()), ended


def test_every_bot_plays_every_game_on_a_sample_of_generated_boards() -> None:
    # Boards of their own (a chunk the slow sweep has not; 8 to 40 territories, a world, a chain and a
    # star): the 15-board test above plays the largest.
    check_sweep(sweep_boards(SWEEP_CHUNKS, SAMPLE_BOARDS, largest=False), SWEEP_CHUNKS)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(SWEEP_CHUNKS))
def test_every_bot_plays_every_game_on_two_hundred_generated_boards(chunk: int) -> None:
    check_sweep(sweep_boards(chunk, SWEEP_BOARDS_A_CHUNK), chunk)
