"""The rulebooks' worked examples, one test each, with the line they come from."""

from __future__ import annotations

import pytest

from positions import make_position
from risk.errors import IllegalActionError
from risk.rules.game import Game, Phase, battle_losses, fixed_set_value, is_set
from risk.rules.options import Rules

# -- reinforcements ---------------------------------------------------------------------------

# 2003 "TERRITORIES / REINFORCEMENTS" table.
TABLE_2003 = [
    ((1, 11), 3),
    ((12, 14), 4),
    ((15, 17), 5),
    ((18, 20), 6),
    ((21, 23), 7),
    ((24, 26), 8),
    ((27, 29), 9),
    ((30, 32), 10),
    ((33, 35), 11),
    ((36, 38), 12),
    ((39, 41), 13),
]


def territories_for(player: int, count: int) -> dict[str, tuple[int, int]]:
    """``count`` territories for ``player`` chosen so that no continent is complete."""
    game = Game("2003", 3, seed=0)
    board = game.board
    # Skip one territory of every continent so that no bonus applies.
    skipped = {c.territories[0] for c in board.continents}
    names = [board.name_of(t) for t in range(42) if t not in skipped][:count]
    return {name: (player, 1) for name in names}


@pytest.mark.parametrize(("span", "armies"), TABLE_2003)
def test_2003_reinforcement_table(span: tuple[int, int], armies: int) -> None:
    for count in range(span[0], min(span[1], 36) + 1):
        game = make_position("2003", owners=territories_for(0, count))
        assert game.reinforcement_for(0) == armies, count


@pytest.mark.parametrize(("count", "armies"), [(9, 3), (11, 3), (14, 4), (17, 5), (13, 4), (5, 3)])
def test_1993_2003_2008_examples(count: int, armies: int) -> None:
    # 1993: 9 or fewer 3, 11 -> 3, 14 -> 4, 17 -> 5 (also 2008's examples);
    # 2003: "Green controls 13 territories ... gains 4"; "Red controls 5 ... Red gains 3".
    for preset in ("1993", "2003", "2008"):
        game = make_position(preset, owners=territories_for(0, count))
        assert game.reinforcement_for(0) == armies


def test_continent_examples() -> None:
    # 2003 Example 1: "Red controls Australia ... also gets 2 reinforcements".
    australia = {n: (0, 1) for n in ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia")}
    game = make_position("2003", owners=australia)
    assert game.continents_of(0) == [game.board.continent("Australia")]
    assert game.reinforcement_for(0) == 3 + 2
    # 2003 Example 2: "Gray controls Europe and Africa ... receives 8 (5 for Europe and 3 for Africa)".
    board = game.board
    europe_africa = {
        board.name_of(t): (0, 1)
        for c in ("Europe", "Africa")
        for t in board.continents[board.continent(c)].territories
    }
    game = make_position("2003", owners=europe_africa)
    assert game.reinforcement_for(0) == 13 // 3 + 8


# -- cards --------------------------------------------------------------------------------------


def test_escalating_set_values() -> None:
    # 1993: 4, 6, 8, 10, 12, 15, then +5 each; 2008: "the seventh set will be worth 20 troops; the
    # eighth will be worth 25".
    game = Game("1993", 3, seed=0)
    assert [game.set_value((), k) for k in range(10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


def test_third_set_is_worth_8_and_moves_the_cavalry_to_10() -> None:
    # 2003: "Although this is the first card set she has turned in, it is the third card set turned in
    # so far this game. Therefore, Red gets 8 reinforcements ... The next player ... will get 10."
    game = make_position(
        "2003",
        owners={"Alaska": (0, 3)},
        phase=Phase.REINFORCE,
        pending=3,
        sets_traded=2,
        hands={0: ["Kamchatka", "Peru", "Ontario", "Brazil"]},  # infantry, infantry, cavalry, artillery
    )
    assert game.next_set_value() == 8
    game.apply("trade kamchatka ontario brazil")
    assert game.pending == 3 + 8
    assert game.next_set_value() == 10
    assert len(game.hands[0]) == 1


def test_expert_and_fixed_set_values() -> None:
    # 1993 experts: "increase by only 1 per set: 4, 5, 6, 7, 8"
    plus_one = Game(Rules.preset("1993").with_options(card_values="plus-one"), 3, seed=0)
    assert [plus_one.set_value((), k) for k in range(5)] == [4, 5, 6, 7, 8]
    # 2003 Mission/Team chart: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10.
    assert fixed_set_value((0, 0, 0)) == 4
    assert fixed_set_value((1, 1, 1)) == 6
    assert fixed_set_value((2, 2, 2)) == 8
    assert fixed_set_value((0, 1, 2)) == 10
    assert fixed_set_value((1, 2, 3)) == 10  # a wild completes one of each


# 2003 Mission RISK (and Team RISK, "the same chart"): "3 Infantry 4, 3 Cavalry 6, 3 Artillery 8, 1 of
# each 10", and for every set "(Remember: A wild card can be used for any one of the above cards.)"
WILD_SETS = [
    ((0, 0, 3), 4),  # two infantry and a wild can only be 3 infantry
    ((1, 3, 1), 6),  # 3 cavalry
    ((3, 2, 2), 8),  # 3 artillery
    ((0, 2, 3), 10),  # two different and a wild: one of each
    ((0, 3, 3), 10),  # two wilds and an infantry: 3 infantry (4) or one of each (10), the best
    ((2, 3, 3), 10),
]


@pytest.mark.parametrize(("symbols", "value"), WILD_SETS)
def test_a_wild_card_completes_one_set_of_the_fixed_chart(symbols: tuple[int, ...], value: int) -> None:
    assert fixed_set_value(symbols) == value


@pytest.mark.parametrize("game_name", ["mission", "team"])
def test_two_alike_and_a_wild_trade_for_three_alike(game_name: str) -> None:
    rules = Rules.preset("2003").for_game(game_name)
    hands = {0: ["Alaska", "Peru", "wild1", "Ontario", "Quebec", "wild2"]}  # 2 infantry, 2 cavalry
    game = make_position(rules, 4, {"Alaska": (0, 3)}, phase=Phase.REINFORCE, pending=3, hands=hands)
    assert game.set_value([game.board.card(c) for c in ("Alaska", "Peru", "wild1")]) == 4
    assert game.set_value([game.board.card(c) for c in ("Alaska", "Ontario", "wild1")]) == 10
    game.apply("trade ontario quebec wild2")
    assert game.pending == 3 + 6


def test_what_is_a_set() -> None:
    # "3 cards of the same type; 1 of each type; any 2 cards + 1 wild card"
    assert is_set((0, 0, 0)) and is_set((0, 1, 2)) and is_set((0, 1, 3)) and is_set((2, 3, 3))
    assert not is_set((0, 0, 1)) and not is_set((1, 2, 2))


def test_must_trade_with_five_cards() -> None:
    # 1993: "You MUST trade if you have 5 or 6 cards"; 2003 and 2008 alike.
    hand = ["Kamchatka", "Peru", "Alaska", "Ontario", "Brazil"]  # I, I, I, C, A
    for preset in ("1993", "2003", "2008"):
        game = make_position(
            preset, owners={"Siam": (0, 3)}, phase=Phase.REINFORCE, pending=3, hands={0: hand}
        )
        assert game.must_trade()
        with pytest.raises(IllegalActionError, match="must trade a set first"):
            game.apply("place siam 3")
        assert all(a.__class__.__name__ == "Trade" for a in game.legal_actions())
        game.apply("trade kamchatka peru alaska")
        assert not game.must_trade()
        game.apply("place siam 7")
        assert game.phase == Phase.ATTACK


def test_sets_are_traded_before_placing() -> None:
    game = make_position(
        "1993",
        owners={"Siam": (0, 3)},
        phase=Phase.REINFORCE,
        pending=3,
        hands={0: ["Kamchatka", "Peru", "Alaska"]},
    )
    game.apply("place siam 1")
    with pytest.raises(IllegalActionError, match="before placing"):
        game.apply("trade kamchatka peru alaska")


def test_territory_card_bonus_by_edition() -> None:
    # 1993: "+2 ... Max 2 extra armies per turn"; 2003: none; 2008: "you receive two extra troops.
    # You must place both of these troops onto that particular territory" (each trade).
    hand = ["Kamchatka", "Peru", "Alaska", "Egypt", "Congo", "East Africa"]  # six infantry
    owners = {"Kamchatka": (0, 1), "Egypt": (0, 1), "Siam": (0, 1)}
    results = {}
    for preset in ("1993", "2003", "2008"):
        game = make_position(preset, owners=owners, phase=Phase.REINFORCE, pending=3, hands={0: hand})
        game.apply("trade kamchatka peru alaska")
        game.apply("trade egypt congo east-africa")
        results[preset] = (
            game.armies[game.board.territory("Kamchatka")],
            game.armies[game.board.territory("Egypt")],
        )
    assert results == {"1993": (3, 1), "2003": (1, 1), "2008": (3, 3)}


# -- battles ------------------------------------------------------------------------------------


def test_dice_examples() -> None:
    # Quick reference: "Attacker rolls 5-3-2; Defender rolls 4-2 ... Two armies lost by defender".
    assert battle_losses((5, 3, 2), (4, 2)) == (0, 2)
    # 2003: "The attacker rolls a 3 and a 2. The defender rolls a 6 and a 2 ... Blue removes his
    # other attacking unit" (ties go to the defender).
    assert battle_losses((3, 2), (6, 2)) == (2, 0)
    # 2003: "Blue ... gets a 6, a 4 and a 4. Red defends with two 5s ... Red loses a defending
    # unit ... Blue loses an attacking unit ... Blue's last die roll, a 4, is not used".
    assert battle_losses((6, 4, 4), (5, 5)) == (1, 1)
    # Ties: the defender wins.
    assert battle_losses((4,), (4,)) == (1, 0)


def test_the_2003_egypt_invasion() -> None:
    """2003 combat walk-through: Blue (0) invades Red's (1) Egypt from North Africa, then East Africa."""
    game = make_position(
        "2003",
        owners={"North Africa": (0, 3), "East Africa": (0, 10), "Egypt": (1, 3)},
        default_owner=2,
    )
    t = game.board.territory
    # "He cannot send all 3 since one unit must be held back to protect North Africa."
    with pytest.raises(IllegalActionError, match="may roll 1 to 2 dice"):
        game.apply("attack north-africa egypt 3")
    game.apply("attack north africa egypt 2")
    assert game.phase == Phase.DEFEND and game.to_act == 1
    # "She can only send 2 out to defend" (3 armies in Egypt: 1 or 2 dice, never 3).
    with pytest.raises(IllegalActionError):
        game.apply("defend 3")
    # "The attacker rolls a 3 and a 2. The defender rolls a 6 and a 2" -> Blue loses both.
    game.apply_with_dice("defend 2", (3, 2), (6, 2))
    assert game.armies[t("North Africa")] == 1 and game.armies[t("Egypt")] == 3
    # "Since North Africa only has 1 unit left in it, Blue cannot continue the invasion from there."
    with pytest.raises(IllegalActionError, match="only 1 army"):
        game.apply("attack north-africa egypt 1")
    # "Blue has 10 units in East Africa ... sends 3 units ... Red defends with 2 units."
    game.apply("attack east-africa egypt 3")
    game.apply_with_dice("defend 2", (6, 4, 4), (5, 5))
    assert game.armies[t("East Africa")] == 9 and game.armies[t("Egypt")] == 2
    game.apply("attack east-africa egypt 3")
    game.apply_with_dice("defend 2", (6, 6, 1), (5, 5))
    # Egypt fell with two defenders lost; the 3 attackers are in Egypt already.
    assert game.owner[t("Egypt")] == 0 and game.phase == Phase.OCCUPY
    assert game.armies[t("Egypt")] == 3 and game.armies[t("East Africa")] == 6
    # "then he moves 5 of the 6 remaining units from East Africa into Egypt, leaving 1 behind."
    assert game.occupy_range() == (3, 8)
    with pytest.raises(IllegalActionError, match="move in 3 to 8 armies"):
        game.apply("move 9")
    game.apply("move 8")
    assert game.armies[t("Egypt")] == 8 and game.armies[t("East Africa")] == 1
    assert game.phase == Phase.ATTACK and game.conquered_this_turn


def test_one_defending_army_rolls_one_die_without_asking() -> None:
    game = make_position("1993", owners={"Alaska": (0, 4), "Kamchatka": (1, 1)})
    game.apply_with_dice("attack alaska kamchatka 3", (2, 1, 1), (3,))
    assert game.phase == Phase.ATTACK  # the defender held: no question was asked
    assert game.armies[game.board.territory("Alaska")] == 3


def test_defender_chooses_one_die() -> None:
    game = make_position("2008", owners={"Alaska": (0, 5), "Kamchatka": (1, 2)})
    game.apply("attack alaska kamchatka 3")
    assert sorted(a.dice for a in game.legal_actions()) == [1, 2]
    game.apply_with_dice("defend 1", (6, 1, 1), (5,))
    assert game.armies[game.board.territory("Kamchatka")] == 1


def test_attack_rules() -> None:
    game = make_position("1993", owners={"Alaska": (0, 1), "Alberta": (0, 5), "Kamchatka": (1, 2)})
    with pytest.raises(IllegalActionError, match="it takes at least 2"):
        game.apply("attack alaska kamchatka 1")
    with pytest.raises(IllegalActionError, match="not adjacent"):
        game.apply("attack alberta kamchatka 1")
    with pytest.raises(IllegalActionError, match="attack an enemy territory"):
        game.apply("attack alberta alaska 1")
    with pytest.raises(IllegalActionError, match="not held by"):
        game.apply("attack kamchatka alaska 1")


# -- conquest, cards, elimination ------------------------------------------------------------------


def test_one_card_per_turn_and_draw_timing() -> None:
    # "only one per turn, regardless of territories captured"; 2008 draws when attacking ends,
    # 1993 and 2003 at the end of the turn.
    for preset, drawn_at in (("1993", "end"), ("2003", "end"), ("2008", "endattack")):
        game = make_position(
            preset, owners={"Alaska": (0, 9), "Kamchatka": (1, 1), "Alberta": (1, 1), "Peru": (2, 1)}
        )
        game.apply_with_dice("attack alaska kamchatka 3", (6, 5, 4), (1,))
        game.apply("move 3")
        game.apply_with_dice("attack alaska alberta 3", (6, 5, 4), (1,))
        game.apply("move 3")
        assert game.hands[0] == []
        game.apply("endattack")
        assert len(game.hands[0]) == (1 if drawn_at == "endattack" else 0)
        game.apply("endturn")
        assert len(game.hands[0]) == 1 and game.current == 1


def test_no_card_without_a_conquest() -> None:
    game = make_position("1993", owners={"Alaska": (0, 9)})
    game.apply("endattack")
    game.apply("endturn")
    assert game.hands[0] == []


def elimination_position(preset: str, cards_taken: int) -> Game:
    loser_cards = ["Kamchatka", "Peru", "Alaska", "Egypt", "Congo", "East Africa"][:cards_taken]
    own_cards = ["Ontario", "Brazil"]  # cavalry, artillery
    return make_position(
        preset,
        owners={"Siam": (0, 9), "Indonesia": (1, 1)},
        default_owner=2,
        hands={0: own_cards, 1: loser_cards},
    )


@pytest.mark.parametrize(
    ("preset", "taken", "forced"),
    [
        ("1993", 3, False),
        ("1993", 4, True),
        ("2003", 3, True),
        ("2003", 2, False),
        ("2008", 3, False),
        ("2008", 4, True),
    ],
)
def test_elimination_takes_the_cards_and_forces_trades(preset: str, taken: int, forced: bool) -> None:
    # 1993: "If this gives you 6+ cards, you must immediately trade in sets until you have 4 or fewer";
    # 2003: "If your new hand ... is now 5 or more"; 2008: "six or more".
    game = elimination_position(preset, taken)
    game.apply_with_dice("attack siam indonesia 3", (6, 6, 6), (1,))
    assert not game.alive[1] and game.hands[1] == []
    assert len(game.hands[0]) == 2 + taken
    if game.phase == Phase.OCCUPY:
        game.apply("move 3")
    assert game.phase == (Phase.ELIMINATION_TRADE if forced else Phase.ATTACK)
    if forced:
        with pytest.raises(IllegalActionError):
            game.apply("endattack")
        while len(game.hands[0]) > 4:
            game.apply(next(iter(game.legal_actions())))
        # 2008: "once your hand is reduced to four, three, or two cards, you must stop trading."
        assert not any(a.__class__.__name__ == "Trade" for a in game.legal_actions())
        assert game.pending > 0
        t = game.board.territory("Siam")
        game.apply(f"place siam {game.pending}")
        assert game.phase == Phase.ATTACK and game.armies[t] >= 6


def test_last_player_standing_wins() -> None:
    game = make_position("1993", players=3, owners={"Siam": (0, 5), "Indonesia": (1, 1)}, default_owner=0)
    game.alive[2] = False
    game.apply_with_dice("attack siam indonesia 3", (6, 6, 6), (1,))
    assert game.is_over and game.winner == 0 and game.outcome() is not None
    assert all(o == 0 for o in game.owner) and min(game.armies) >= 1
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply("endattack")


# -- fortification -------------------------------------------------------------------------------


def test_fortify_along_a_chain() -> None:
    # 2003: "you can fortify from Indonesia through Siam, through India, through Afghanistan, and
    # into Ukraine since you control all these territories."
    owners = {n: (0, 2) for n in ("Indonesia", "Siam", "India", "Afghanistan", "Ukraine")}
    owners["Indonesia"] = (0, 6)
    for preset, allowed in (("2003", True), ("2008", True), ("1993", False)):
        game = make_position(preset, owners=owners, phase=Phase.FORTIFY)
        if allowed:
            game.apply("fortify indonesia ukraine 5")
            assert game.armies[game.board.territory("Ukraine")] == 7
            assert game.current == 1  # one fortification ends the turn
        else:
            # 1993: "from ONE territory to ONE adjacent territory you own"
            with pytest.raises(IllegalActionError, match="not adjacent"):
                game.apply("fortify indonesia ukraine 5")
            game.apply("fortify indonesia siam 5")


def test_fortify_cannot_pass_through_enemies() -> None:
    owners = {"Indonesia": (0, 6), "Siam": (1, 2), "India": (0, 2)}
    game = make_position("2008", owners=owners, phase=Phase.FORTIFY)
    with pytest.raises(IllegalActionError, match="not connected"):
        game.apply("fortify indonesia india 2")
    with pytest.raises(IllegalActionError, match="one stays behind"):
        game.apply("fortify india indonesia 2")


# -- setup -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies(players: int, armies: int) -> None:
    game = Game("1993", players, seed=1)
    assert game.setup_armies == [armies] * players


def test_player_counts() -> None:
    Game("2008", 5, seed=0)
    with pytest.raises(ValueError, match="3 to 5 players, not 6"):
        Game("2008", 6, seed=0)
    with pytest.raises(ValueError, match="3 to 6 players, not 2"):
        Game("1993", 2, seed=0)


@pytest.mark.parametrize("preset", ["1993", "2003", "2008"])
def test_two_players_are_pointed_to_the_two_player_game(preset: str) -> None:
    # Issue 11, item 13: every edition has a 2-player game ("2-Player RISK"), so the refusal says
    # where to find it, in one sentence.
    with pytest.raises(ValueError, match="not 2") as caught:
        Rules.preset(preset).check_player_count(2)
    message = str(caught.value)
    assert "--game two-player" in message and message.count(". ") == 0
    Rules.preset(preset).for_game("two-player").check_player_count(2)
    with pytest.raises(ValueError) as caught:
        Rules.preset(preset).check_player_count(7)
    assert "two-player" not in str(caught.value)


def test_claiming_then_placing_then_first_turn() -> None:
    # 1993: the first roller claims first, "going left" until 42 are claimed; then one army at a time;
    # "Whoever placed the first army takes the first turn".
    game = Game("1993", 4, seed=11)
    first = game.first_player
    assert game.current == first and game.phase == Phase.CLAIM
    order = []
    while game.phase == Phase.CLAIM:
        order.append(game.current)
        game.apply(next(iter(game.legal_actions())))
    assert order[:8] == [(first + i) % 4 for i in range(8)]
    assert sorted(game.territory_count) == [10, 10, 11, 11]
    with pytest.raises(IllegalActionError, match="one at a time"):
        game.apply(f"place {game.board.slug_of(game.owner.index(game.current))} 2")
    while game.phase == Phase.SETUP_PLACE:
        game.apply(next(iter(game.legal_actions())))
    assert sum(game.armies) == 4 * 30
    assert game.phase == Phase.REINFORCE and game.current == first and game.turn == 1


def test_2003_rolls_again_for_the_first_turn() -> None:
    # 2003: "Each player rolls one die again to see who starts the game."
    game = Game("2003", 3, seed=5)
    while game.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        game.apply(next(iter(game.legal_actions())))
    kinds = [who for kind, who, _ in game.history if kind == "chance"]
    assert kinds == ["first", "first-turn"]


def test_dealt_setup() -> None:
    # 2008 Secret Mission: "deals out all the territory cards ... (In a 4- or 5-player game, two
    # players will each receive one extra card.)"; one army on each territory dealt.
    game = Game(Rules.preset("2008").with_options(setup="deal"), 4, seed=2)
    assert game.phase == Phase.SETUP_PLACE
    assert sorted(game.territory_count) == [10, 10, 11, 11]
    assert all(a == 1 for a in game.armies)
    assert [game.setup_armies[p] + game.territory_count[p] for p in range(4)] == [30] * 4
