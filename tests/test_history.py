"""After the game (risk.history): the series, the luck meter and the timelapse frames.

- a small game written by hand as a record: every series value checked against what happened;
- the luck meter against risk.odds' exact expectations on known rolls, with the 1993 experts'
  re-roll and commander;
- whole bot games of every game type: the frames replay to the final board, the luck adds up;
- nothing secret: the summary of a game (running or over) is the same when everything a player
  could not see is changed (cards drawn, missions, headquarters not yet revealed, the seed).
"""

from __future__ import annotations

import json
import random
from collections import deque
from fractions import Fraction
from typing import Any

import pytest

from risk import load_map
from risk.errors import RecordError, RiskError
from risk.history import (
    FRAME_FIELDS,
    PHASES,
    SERIES,
    expected_losses,
    summarize,
    summarize_history,
    summarize_record,
)
from risk.odds import roll_outcomes
from risk.play.simulate import play_game
from risk.record import write_record
from risk.rules.actions import Capital, ClaimMission, Trade
from risk.rules.game import PHASE_NAMES, Game, Phase, battle_losses
from risk.rules.options import Rules
from risk.view import SPECTATOR, public_history
from tiers import only_in_test_all

BOARD = load_map("classic")
CONTINENT = {c.name: [BOARD.slug_of(t) for t in c.territories] for c in BOARD.continents}
# The deal of the hand-written games: Ann holds Australia and South America, Bob Africa, Cy the rest.
ANN = CONTINENT["Australia"] + CONTINENT["South America"] + [
    "siam", "india", "china", "afghanistan", "ural", "siberia"
]  # fmt: skip
BOB = CONTINENT["Africa"] + [
    "alaska", "greenland", "iceland", "ukraine", "scandinavia", "great-britain", "northern-europe",
    "southern-europe",
]  # fmt: skip
CY = [BOARD.slug_of(t) for t in range(len(BOARD)) if BOARD.slug_of(t) not in ANN + BOB]


def hand_record(rules: str, body: str) -> str:
    """A record of Ann, Bob and Cy: Ann first, the deal above, every setup army on each one's first
    territory (21 each), then ``body``."""
    deal = [slug for trio in zip(ANN, BOB, CY, strict=True) for slug in trio]
    lines = ["risk-record 1", f"rules: {rules}", "board: classic", "players: Ann, Bob, Cy", "---"]
    lines += ["~ first 0", "~ deal " + ",".join(deal)]
    lines += [f"place {(ANN, BOB, CY)[i % 3][0]}" for i in range(63)]
    return "\n".join(lines) + "\n" + body.strip() + "\n"


THREE_TURNS = hand_record(
    "2008 setup=deal",
    """
    place india 8
    attack india middle-east 3
    ~ dice 6,5,4 3
    move 3
    endattack
    ~ draw kamchatka
    endturn
    place egypt 7
    attack egypt middle-east 3
    defend 2
    ~ dice 6,6,1 5,5
    attack egypt middle-east 3
    ~ dice 3,2,2 6
    endattack
    endturn
    place northwest-territory 4
    endattack
    endturn
    """,
)


def balance(attack: tuple[int, ...], defence: tuple[int, ...]) -> Fraction:
    """The attacker's luck on one roll, straight from risk.odds: actual balance minus expected."""
    lost_a, lost_d = battle_losses(attack, defence)
    expected = sum(p * (d - a) for (a, d), p in roll_outcomes(len(attack), len(defence)).items())
    return (lost_d - lost_a) - expected


def close(value: float, exact: Fraction | int) -> bool:
    return abs(value - float(exact)) < 1e-4


def test_series_of_a_game_written_by_hand() -> None:
    summary, verified = summarize_record(THREE_TURNS)
    assert not verified  # no seed: nothing to check the dice against
    series = summary["series"]
    # One point at the start of each turn (the first: right after the setup) and none repeated at the end.
    assert series["turn"] == [1, 2, 3, 4]
    assert series["round"] == [1, 1, 1, 2]
    assert series["player"] == [0, 1, 2, 0]
    # The setup is 63 placements: frame 63 is the board as turn 1 starts.
    assert series["frame"][0] == 63 and summary["frames"]["steps"][63][FRAME_FIELDS.index("turn")] == 1
    # Turn 1: Ann places 14 // 3 + 2 (Australia) + 2 (South America) = 8, takes Middle East (Cy's
    # single army) and draws a card. Turn 2: Bob places 4 + 3 (Africa) = 7, kills 2 of Ann's
    # 3 armies in Middle East and loses 1. Turn 3: Cy (13 territories) places 4.
    assert series["armies"] == [[35, 35, 35], [43, 35, 34], [41, 41, 34], [41, 41, 38]]
    assert series["territories"] == [[14, 14, 14], [15, 14, 13], [15, 14, 13], [15, 14, 13]]
    assert series["cards"] == [[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert series["continents"] == [[2, 1, 0]] * 4
    assert set(series) == {"turn", "round", "player", "frame", *SERIES}
    assert summary["turns"] == 4 and summary["rounds"] == 2 and summary["actions"] == 63 + 14
    assert summary["over"] is False and summary["winner"] is None
    assert [p["name"] for p in summary["players"]] == ["Ann", "Bob", "Cy"]


def test_luck_of_known_rolls_against_the_odds() -> None:
    luck = summarize_record(THREE_TURNS)[0]["luck"]
    first = balance((6, 5, 4), (3,))  # Ann's conquest: 3 dice against 1, the defender loses 1
    second = balance((6, 6, 1), (5, 5))  # Bob: 3 against 2, Ann loses 2
    third = balance((3, 2, 2), (6,))  # Bob: 3 against 1, Bob loses 1
    ann, bob, cy = luck["seats"]
    assert close(ann["luck"], first - second - third)
    assert close(ann["attacking"], first) and close(ann["defending"], -second - third)
    assert close(bob["luck"], second + third) and close(cy["luck"], -first)
    assert all(s["edge"] == 0 for s in luck["seats"])
    # Luck is zero-sum, and "luck = (expected - actual own losses) + (actual - expected enemy losses)".
    assert close(sum(s["luck"] for s in luck["seats"]), 0)
    for seat in luck["seats"]:
        own = seat["expected_lost"] - seat["lost"]
        enemy = seat["killed"] - seat["expected_killed"]
        assert abs(seat["luck"] - (own + enemy)) < 1e-3
    e31, e32 = expected_losses(3, 1), expected_losses(3, 2)
    # Ann's own losses: attacking with 3 dice against 1, then defending against 3 with 2 dice and 1.
    assert close(ann["expected_lost"], e31[0] + e32[1] + e31[1]) and ann["lost"] == 2
    assert close(bob["expected_killed"], e32[1] + e31[1]) and bob["killed"] == 2
    # The battles: Ann's one roll on Middle East (taken), Bob's two rolls on it (held).
    names = summarize_record(THREE_TURNS)[0]["territories"]
    first_battle, second_battle = luck["battles"]
    assert (first_battle["attacker"], first_battle["defender"], first_battle["rolls"]) == (0, 2, 1)
    assert (names[first_battle["from"]], names[first_battle["to"]]) == ("india", "middle-east")
    assert first_battle["armies"] == [9, 1] and first_battle["conquered"] is True
    assert (second_battle["attacker"], second_battle["defender"], second_battle["rolls"]) == (1, 0, 2)
    assert second_battle["armies"] == [8, 3] and second_battle["conquered"] is False
    assert second_battle["lost"] == [1, 2]
    assert close(second_battle["expected"][0], e32[0] + e31[0])
    assert close(second_battle["luck"], second + third)
    total = luck["total"]
    assert (total["rolls"], total["battles"]) == (3, 2)
    assert (total["attackers_lost"], total["defenders_lost"]) == (1, 3)
    assert close(total["attackers_luck"], first + second + third)


def test_expected_losses_are_the_odds_of_one_roll() -> None:
    for attack in (1, 2, 3):
        for defence in (1, 2):
            outcomes = roll_outcomes(attack, defence)
            lost_a, lost_d = expected_losses(attack, defence)
            assert lost_a == sum(p * a for (a, _), p in outcomes.items())
            assert lost_a + lost_d == min(attack, defence)  # every compared pair costs someone an army
    assert expected_losses(1, 1) == (Fraction(7, 12), Fraction(5, 12))


def test_the_experts_reroll_is_luck_and_the_commander_is_edge() -> None:
    record = hand_record(
        "1993 setup=deal attack-advantage=on commanders=on",
        """
        place india 8
        attack india middle-east 3
        ~ dice 6,5,4 3
        accept
        move 3
        endattack
        endturn
        ~ draw ukraine
        place egypt 7
        attack egypt middle-east 3
        defend 2
        ~ dice 5,3,1 5,4
        commander 3
        endattack
        endturn
        place northwest-territory 4
        endattack
        endturn
        place afghanistan 9
        attack afghanistan ukraine 3
        ~ dice 2,2,1 3
        reroll defender 1
        ~ die 1
        accept
        move 3
        endattack
        endturn
        ~ draw kamchatka
        """,
    )
    luck = summarize_record(record)[0]["luck"]
    accepted, commanded, rerolled = luck["battles"]
    assert close(accepted["luck"], balance((6, 5, 4), (3,))) and accepted["edge"] == 0
    # The commander turns Bob's 1 into a 6: 5-3-1 against 5-4 (Bob loses 2) becomes 6-5-3 (Ann loses
    # 2). The dice Bob threw are his luck; the commander's swing of 4 armies is edge, not luck.
    assert close(commanded["luck"], balance((5, 3, 1), (5, 4))) and close(commanded["edge"], 4)
    assert commanded["lost"] == [0, 2]
    # Ann holds Ukraine's card: she re-rolls Bob's 3 and gets a 1. Choosing to re-roll turns an
    # expected -1 into an expected (1 - 5) / 6 (edge); the 1 against that average is luck.
    reroll_average = Fraction(1 * 1 + 5 * -1, 6)
    assert close(rerolled["edge"], reroll_average - (-1))
    assert close(rerolled["luck"], balance((2, 2, 1), (3,)) + (1 - reroll_average))
    assert rerolled["conquered"] is True and rerolled["lost"] == [0, 1]
    ann, bob, _ = luck["seats"]
    assert close(ann["edge"], -4 + (reroll_average + 1)) and close(bob["edge"], -ann["edge"])
    for seat in luck["seats"]:  # luck + edge is the whole difference from the expectation
        whole = seat["expected_lost"] - seat["lost"] + seat["killed"] - seat["expected_killed"]
        assert abs(seat["luck"] + seat["edge"] - whole) < 1e-3


def replay_frames(summary: dict[str, Any]) -> tuple[list[int], list[int]]:
    frames = summary["frames"]
    owner, armies = list(frames["initial"]["owner"]), list(frames["initial"]["armies"])
    changes = FRAME_FIELDS.index("changes")
    for frame in frames["steps"]:
        flat = frame[changes]
        for i in range(0, len(flat), 3):
            owner[flat[i]], armies[flat[i]] = flat[i + 1], flat[i + 2]
    return owner, armies


# (edition, game, options, seats): every game type, as in the server's secrets test.
GAMES = [
    ("2008", "world", {}, 3),
    ("1993", "secret-mission", {}, 4),
    ("2008", "capital", {}, 4),
    ("2003", "two-player", {"neutral_mode": "active"}, 2),
    ("1993", "two-player", {}, 2),
    ("2003", "mission", {}, 3),
    ("2003", "team", {}, 4),
    ("1993", "world", {"attack_advantage": "on", "commanders": "on"}, 3),
]


def bot_game(edition: str, game: str, options: dict[str, str], seats: int, seed: int = 11) -> Game:
    rules = Rules.preset(edition)
    if game != "world":
        rules = rules.for_game(game)
    if options:
        rules = rules.with_options(**options)
    played, _ = play_game(rules, ["quick"] * seats, seed=seed, max_turns=400)
    return played


@pytest.mark.parametrize(("edition", "game", "options", "seats"), GAMES)
def test_whole_bot_games(edition: str, game: str, options: dict[str, str], seats: int) -> None:
    played = bot_game(edition, game, options, seats)
    before = (list(played.history), list(played.owner), list(played.armies), played.phase)
    summary = summarize(played)
    assert (played.history, played.owner, played.armies, played.phase) == before  # left as it was
    json.dumps(summary)  # plain JSON data
    steps = summary["frames"]["steps"]
    assert len(steps) == summary["actions"] + 1 == sum(1 for e in played.history if e[0] == "action") + 1
    assert replay_frames(summary) == (list(played.owner), list(played.armies))
    last = steps[-1]
    assert PHASES[last[FRAME_FIELDS.index("phase")]] == PHASE_NAMES[played.phase]
    assert last[FRAME_FIELDS.index("turn")] == played.turn == summary["series"]["turn"][-1]
    assert summary["over"] == played.is_over and summary["winner"] == played.winner
    # The last point of the series is the final board.
    series = summary["series"]
    for seat in range(len(played.players)):
        assert series["territories"][-1][seat] == played.territory_count[seat]
        assert series["cards"][-1][seat] == len(played.hands[seat])
    # Luck: zero-sum, every roll counted once per side, the battles add up to the seats.
    luck = summary["luck"]
    assert abs(sum(s["luck"] for s in luck["seats"])) < 1e-3
    assert sum(s["rolls"] for s in luck["seats"]) == 2 * luck["total"]["rolls"] > 0
    rolled = sum(1 for kind, who, _ in played.history if kind == "chance" and who == "dice")
    assert luck["total"]["rolls"] == rolled == sum(b["rolls"] for b in luck["battles"])
    total = luck["total"]
    assert sum(s["lost"] for s in luck["seats"]) == total["attackers_lost"] + total["defenders_lost"]
    rounding = 5e-5 * (len(luck["battles"]) + 1)  # each figure is rounded to 4 decimals
    assert abs(sum(b["luck"] for b in luck["battles"]) - total["attackers_luck"]) < rounding
    for battle in luck["battles"]:
        assert battle["attacker"] != battle["defender"] or game == "team"
        assert 0 <= battle["frame"] < len(steps)
    # The same from the game's record.
    assert summarize_record(write_record(played))[0] == summary


def test_frames_follow_each_action() -> None:
    summary = summarize_record(THREE_TURNS)[0]
    steps = summary["frames"]["steps"]
    names = summary["territories"]
    field = {name: i for i, name in enumerate(FRAME_FIELDS)}
    opening = steps[0]
    assert opening[field["seat"]] == -1 and opening[field["changes"]] == []
    assert "dealt" in opening[field["log"]]
    attack = steps[64 + 1]  # place india 8, then the attack (a single defender: rolled at once)
    assert attack[field["log"]].startswith("Ann attacks Middle East (Cy) from India with 3 dice.")
    assert "Cy loses 1 army" in attack[field["log"]]
    assert "Ann conquers Middle East from Cy" in attack[field["log"]]
    assert [names[attack[field["arrow"]][0]], names[attack[field["arrow"]][1]]] == ["india", "middle-east"]
    assert attack[field["arrow"]][2] == "attack"
    middle_east, india = names.index("middle-east"), names.index("india")
    flat = attack[field["changes"]]
    assert sorted(zip(flat[::3], flat[1::3], flat[2::3], strict=True)) == sorted(
        [(middle_east, 0, 3), (india, 0, 6)]
    )
    assert PHASES[attack[field["phase"]]] == "occupy" and attack[field["seat"]] == 0
    defend = steps[64 + 7]  # Bob's attack waits for Ann's dice: the roll is in Ann's "defend 2"
    assert defend[field["seat"]] == 0 and defend[field["player"]] == 1
    assert defend[field["log"]].startswith("Ann defends with 2 dice. Bob rolls 6-6-1, Ann rolls 5-5")


def test_a_record_that_does_not_replay_is_refused_with_its_line() -> None:
    with pytest.raises(RecordError, match="line 1"):
        summarize_record("not a record\n")
    broken = THREE_TURNS.replace("attack india middle-east 3", "attack india alaska 3")
    with pytest.raises(RecordError, match=r"line 72: .*not adjacent"):
        summarize_record(broken)
    # A board is a shipped board's name, never a file the server would read.
    for board in ("/etc/passwd.json", "../maps/classic.json", "atlantis"):
        with pytest.raises(RecordError, match="line 3: no board"):
            summarize_record(THREE_TURNS.replace("board: classic", f"board: {board}"))
    hidden = THREE_TURNS.replace("~ draw kamchatka", "~ draw ?")
    with pytest.raises(RecordError, match="written for one player"):
        summarize_record(hidden)


# -- secrets ---------------------------------------------------------------------------------------


def replay(rules: Rules, players: list[str], history: list[tuple[str, Any, Any]]) -> Game:
    game = Game(rules, players, seed=0, _script=deque((k, v) for e, k, v in history if e == "chance"))
    for entry, _, action in history:
        if entry == "action":
            game.apply(action)
    return game


def unseen_variant(game: Game, history: list[tuple[str, Any, Any]], rng: random.Random) -> list[Any]:
    """``history`` with what no player could see changed: the cards drawn that no one has shown
    (never traded nor given) swapped for others that no one has shown, the secret missions and
    mission cards dealt again among the players (until the end, when everyone sees them), the
    headquarters not yet revealed moved."""
    shown = {c for e, _, a in history if e == "action" for c in getattr(a, "cards", ())}
    shown |= {a.card for e, _, a in history if e == "action" and hasattr(a, "card")}
    unseen = [c for c in range(BOARD.card_count) if c not in shown]
    swapped = dict(zip(unseen, rng.sample(unseen, len(unseen)), strict=True))
    claimed = {seat for e, seat, a in history if e == "action" and isinstance(a, ClaimMission)}
    changed = []
    for entry, kind, value in history:
        if entry == "chance" and kind == "draw":
            value = swapped.get(value, value)  # a card traded later is shown: it stays
        elif entry == "chance" and kind in ("missions", "mission-cards") and not game.is_over:
            free = [seat for seat in range(len(value)) if seat not in claimed]
            dealt = list(value)
            for seat, other in zip(free, rng.sample(free, len(free)), strict=True):
                dealt[seat] = value[other]
            value = tuple(dealt)
        changed.append((entry, kind, value))
    if game.phase == Phase.CHOOSE_CAPITAL:
        for index, (entry, seat, action) in enumerate(changed):
            if entry == "action" and isinstance(action, Capital):
                changed[index] = (entry, seat, Capital(rng.choice(game.territories_of(seat))))
    return changed


# The 2-player game with active neutrals (the longest) only in `make test-all`: 1993's is in both.
@pytest.mark.parametrize(("edition", "game", "options", "seats"), only_in_test_all(GAMES, slow=[3]))
def test_the_summary_shows_nothing_secret(
    edition: str, game: str, options: dict[str, str], seats: int
) -> None:
    played = bot_game(edition, game, options, seats, seed=23)
    players = list(played.players[: played.humans])
    rng = random.Random(3)
    action_at = [i for i, entry in enumerate(played.history) if entry[0] == "action"]
    # Points all through the game (the history up to an action), the choosing of headquarters, the end.
    cuts = [action_at[len(action_at) * k // 5] for k in range(1, 5)] + [len(played.history)]
    capitals = [i for i, (e, _, a) in enumerate(played.history) if e == "action" and isinstance(a, Capital)]
    cuts += capitals[1:2]
    varied = 0
    for cut in cuts:
        history = played.history[:cut]
        position = replay(played.rules, players, history)
        expected = summarize_history(played.rules, players, "classic", history)
        assert expected == summarize(position)
        for _ in range(4):
            other = unseen_variant(position, history, rng)
            try:
                changed = replay(played.rules, players, other)
            except RiskError:  # this variant breaks the rules (a secret mission completed sooner)
                continue
            # Only secrets changed: what the spectator saw is the same, the summary too.
            assert public_history(changed, SPECTATOR) == public_history(position, SPECTATOR)
            if other != history:
                varied += 1
            assert summarize_history(played.rules, players, "classic", other) == expected
        # The seed is not used at all.
        reseeded = position.copy()
        reseeded.seed = 987_654_321_987
        assert summarize(reseeded) == expected
    assert varied >= 4
    # Trades name their cards: those cards are public and kept; so the checks above changed only draws
    # of cards never shown.
    assert any(isinstance(a, Trade) for e, _, a in played.history if e == "action") or game == "capital"


def test_a_player_resigning_out_of_turn_is_summarized() -> None:
    """A resignation may come from a seat that is not to act (docs/rules.md, "Resigning"): the
    summary replays it, and the resigned player's armies stay on the board."""
    game, _ = play_game(Rules.preset("2008"), ["quick"] * 3, seed=31, max_turns=6)
    assert not game.is_over
    bystander = next(seat for seat in range(3) if seat != game.to_act)
    game.apply(game.parse(f"resign {bystander}"))
    summary = summarize_record(write_record(game))[0]
    assert summary["frames"]["steps"][-1][FRAME_FIELDS.index("seat")] == bystander
    last = {name: series[-1] for name, series in summary["series"].items() if name in SERIES}
    assert last["territories"][bystander] > 0
