"""A seat's own settings (docs/web.md, "A seat's settings"; risk.server.seatprefs):

- defence: ``most`` never asks; ``matters`` asks exactly when the odds say fewer dice can be better;
  ``ask`` asks once per attack on a territory, the answer standing for that attack's other rolls;
  a seat with no setting is asked every roll, as before; the server defends with no page open;
- the settings are stored with the seat: a new master on the same store (a restart) applies them,
  and a starting server wakes a game whose seat's setting plays for it;
- the setup's standing orders: "place the rest for me" (also from the game's creation), "place N";
- the pace: the slowest human with the game open sets the delay before the bots' moves;
- bad requests refused in one line, nothing changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from live_server import free_port, request, server
from risk.odds import invasion, roll_outcomes
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.server import seats as seat_desk
from risk.server.clock import careful_choice
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.seatprefs import FAST_DELAY, SeatPrefs, attack_key, fewer_dice_can_be_better, move_delay
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage, Storage
from risk.server.timing import wake_time


def new_game(master: GameMaster, seed: int = 7, bots: str = "quick", **human: Any) -> tuple[str, str]:
    """Seat 0 a human with settings ``human``, seats 1 and 2 bots; answers the id and the token."""
    record, created = master.create_game(
        GameSpec(
            seats=[SeatSpec("human", "Ann", **human), SeatSpec("bot", bot=bots), SeatSpec("bot", bot=bots)],
            seed=seed,
            bot_delay=0,
            defend_timeout=0,
        )
    )
    token = created[0].token
    assert token is not None
    return record.id, token


Prompt = dict[str, Any]


def drive(
    master: GameMaster,
    game_id: str,
    token: str,
    answer: Callable[[Prompt], int],
    *,
    until: Callable[[GameMaster], bool],
    limit: int = 6000,
) -> list[Prompt]:
    """Play the game as the server's driver does (bots and the seat's standing orders by
    ``bot_turn``) and the human, when asked, as ``answer`` says for a defence and quickly otherwise;
    answers every defence prompt the human was shown."""
    prompts: list[Prompt] = []
    for _ in range(limit):
        live = master.live(game_id)
        if live.game.is_over or until(master):
            return prompts
        turn = master.bot_turn(game_id)
        if turn is not None:
            seat, state_id, decide = turn
            master.submit_as(game_id, seat, decide(), state_id)
            continue
        message = master.state_message(game_id, 0)
        assert message["legal"], "the human is to act but offered nothing"
        game = live.game
        if game.phase == Phase.DEFEND:
            source, target, dice = game.pending_attack  # type: ignore[misc]
            prompt = {
                "key": attack_key(game),
                "attackers": game.armies[source] - 1,
                "attacker_dice": dice,
                "defenders": game.armies[target],
                "legal": message["legal"],
            }
            prompts.append(prompt)
            master.submit(game_id, token, f"defend {answer(prompt)}", live.state_id)
        else:
            master.submit(game_id, token, own_move(game, live.state_id), live.state_id)
    raise AssertionError("the game went on for too long")


def own_move(game: Game, state_id: int) -> str:
    """The human's move on their own turn: reinforcements one army at a time on their thinnest
    territory (many territories of 2 armies: defences with a choice), then end the attack and the turn."""
    if game.phase == Phase.REINFORCE:
        thinnest = min((t for t, owner in enumerate(game.owner) if owner == 0), key=lambda t: game.armies[t])
        text = f"place {game.board.slug_of(thinnest)} 1"
        if game.is_legal(game.parse(text)):
            return text
    return careful_choice(game, 0, state_id, "quick")


Defence = tuple[tuple[int, int, str], int, int, int, int]


def human_defences(master: GameMaster, game_id: str) -> list[Defence]:
    """Every defence of seat 0 so far, replayed from the stored actions: (the attack's key, the dice
    rolled, the attacker's fighting armies, its dice, the defenders)."""
    record = master.live(game_id).record
    game = Game(Rules.from_description(record.rules), [s.name for s in record.seats], seed=record.seed)
    found = []
    for action in master.storage.actions(game_id):
        if action.seat == 0 and action.text.startswith("defend "):
            key = attack_key(game)
            source, target, dice = game.pending_attack  # type: ignore[misc]
            assert key is not None
            found.append(
                (key, int(action.text.split()[1]), game.armies[source] - 1, dice, game.armies[target])
            )
        game.apply(action.text)
    return found


def turns_played(game_id: str, turns: int) -> Callable[[GameMaster], bool]:
    return lambda master: master.live(game_id).game.turn >= turns


# -- the odds ----------------------------------------------------------------------------------------
def test_fewer_dice_can_be_better_exactly_when_the_odds_say_so() -> None:
    """Computed here again from risk.odds by brute force over every roll: the chance to hold after
    this roll and after an attack to the end, one die against two."""

    def hold(attackers: int, attacker_dice: int, defenders: int, dice: int, to_the_end: bool) -> float:
        total = 0.0
        for (lost_a, lost_d), p in roll_outcomes(attacker_dice, dice).items():
            if defenders - lost_d <= 0:
                continue
            if not to_the_end or attackers - lost_a <= 0:
                total += float(p)
            else:
                total += float(p) * invasion(attackers - lost_a, defenders - lost_d).defender_wins
        return total

    asked = set()
    for attackers in range(1, 13):
        for defenders in range(2, 9):
            dice = min(3, attackers)
            better = any(
                hold(attackers, dice, defenders, 1, end) > hold(attackers, dice, defenders, 2, end) + 1e-9
                for end in (False, True)
            )
            assert fewer_dice_can_be_better(attackers, dice, defenders, 2) == better
            if better:
                asked.add((dice, defenders))
    # What docs/odds.md says: only 2 defenders against 2 or 3 dice, never at the end of an attack.
    assert asked == {(2, 2), (3, 2)}


# -- defence settings ----------------------------------------------------------------------------------
@pytest.fixture()
def master() -> GameMaster:
    return GameMaster(MemoryStorage())


def test_always_the_most_dice_never_asks(master: GameMaster) -> None:
    game_id, token = new_game(master, seed=11, bots="quick", defence="most", auto_setup=True)
    prompts = drive(master, game_id, token, lambda p: 2, until=turns_played(game_id, 30))
    assert prompts == []
    defences = human_defences(master, game_id)
    assert len(defences) > 10, "no attack on the human: choose another seed"
    assert all(dice == min(2, defenders) for _, dice, _, _, defenders in defences)
    assert any(dice == 2 for _, dice, _, _, _ in defences)
    assert SeatPrefs.of(master.live(game_id).record.seats[0]).answer is None  # nothing asked, nothing kept


def test_asked_when_it_matters_only_where_the_odds_say(master: GameMaster) -> None:
    game_id, token = new_game(master, seed=11, bots="quick", defence="matters", auto_setup=True)
    prompts = drive(master, game_id, token, lambda p: 1, until=turns_played(game_id, 30))
    assert prompts, "never asked: choose another seed"
    for prompt in prompts:
        assert fewer_dice_can_be_better(prompt["attackers"], prompt["attacker_dice"], prompt["defenders"], 2)
        assert {"text": "defend", "min": 1, "max": 2} in prompt["legal"]
    # Each attack asks once: its other rolls use the answer given.
    keys = [p["key"] for p in prompts]
    assert len(keys) == len(set(keys))
    defences = human_defences(master, game_id)
    quiet = [d for d in defences if d[0] not in set(keys)]
    assert quiet, "every attack mattered: choose another seed"
    for _, dice, attackers, attacker_dice, defenders in quiet:
        # Not asked: it did not matter, and the most dice were rolled.
        assert not fewer_dice_can_be_better(attackers, attacker_dice, defenders, 2)
        assert dice == min(2, defenders)
    for key in keys:
        rolls = [d for d in defences if d[0] == key]
        asked = next(i for i, d in enumerate(rolls) if fewer_dice_can_be_better(*d[2:], 2))
        assert all(dice == min(2, defenders) for _, dice, _, _, defenders in rolls[:asked])  # the most
        assert all(dice == 1 for _, dice, *_ in rolls[asked:])  # the answer stood from the question on


def test_ask_asks_once_per_attack_on_a_territory(master: GameMaster) -> None:
    game_id, token = new_game(master, seed=11, bots="quick", defence="ask", auto_setup=True)
    prompts = drive(master, game_id, token, lambda p: 1, until=turns_played(game_id, 30))
    defences = human_defences(master, game_id)
    keys = [p["key"] for p in prompts]
    assert prompts and len(keys) == len(set(keys)), "asked twice in one attack"
    choices = [d for d in defences if d[0] in set(keys)]
    assert len(choices) > len(prompts), "no attack with more than one roll: choose another seed"
    assert all(dice == 1 for _, dice, *_ in choices)  # the answer stood for the attack's later rolls
    # An attack not asked about left no choice (one defender each roll).
    assert all(defenders == 1 for key, _, _, _, defenders in defences if key not in set(keys))


def test_no_setting_asks_every_roll_as_before(master: GameMaster) -> None:
    game_id, token = new_game(master, seed=11, bots="quick", auto_setup=True)
    prompts = drive(master, game_id, token, lambda p: 2, until=turns_played(game_id, 30))
    keys = [p["key"] for p in prompts]
    assert len(keys) > len(set(keys))  # the same attack asked roll after roll


def test_the_setting_is_changed_by_the_player_and_refused_clearly(master: GameMaster) -> None:
    game_id, token = new_game(master)
    answer = seat_desk.set_prefs(master, game_id, token, defence="matters", pace="fast")
    assert answer["prefs"]["defence"] == "matters" and answer["prefs"]["pace"] == "fast"
    before = master.live(game_id).record
    for kwargs, words in (
        ({"defence": "never"}, "no defence setting 'never'"),
        ({"pace": "slow"}, "no pace 'slow'"),
        ({"place": ("atlantis", 2)}, "atlantis"),
        ({"place": ("alaska", 0)}, "place 1 to"),
    ):
        with pytest.raises(Refusal) as refused:
            seat_desk.set_prefs(master, game_id, token, **kwargs)
        assert words in refused.value.message and "\n" not in refused.value.message
    with pytest.raises(Refusal) as refused:
        seat_desk.set_prefs(master, game_id, "not-a-token", defence="most")
    assert refused.value.code == "bad-token"
    assert master.live(game_id).record == before
    with pytest.raises(Refusal, match="human seat's settings"):
        master.create_game(GameSpec(seats=[SeatSpec("bot", bot="quick", defence="most")] * 3))


def test_the_setting_survives_a_restart_and_wakes_the_game(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    storage: Storage = SqlStorage(url)
    master = GameMaster(storage)
    game_id, token = new_game(master, seed=11, bots="quick", defence="ask", auto_setup=True)
    seat_desk.set_prefs(master, game_id, token, defence="most", pace="skip")
    # Play until a bot's attack waits for the human's dice, as a server stopped right then would.
    drive(
        master,
        game_id,
        token,
        lambda p: 2,
        until=lambda m: m.live(game_id).game.phase == Phase.DEFEND and m.live(game_id).game.to_act == 0,
    )
    storage.close()
    storage = SqlStorage(url)
    record = storage.get_game(game_id)
    assert record is not None and record.defending
    prefs = SeatPrefs.of(record.seats[0])
    assert (prefs.defence, prefs.pace, prefs.auto_setup) == ("most", "skip", True)
    assert wake_time(record) == 0.0  # a starting server plays the defence at once
    again = GameMaster(storage)
    assert again.state_message(game_id, 0)["legal"] == []  # not asked: the server rolls
    seat, _, decide = again.bot_turn(game_id)  # type: ignore[misc]
    assert (seat, decide()) == (0, "defend 2")
    storage.close()


# -- setup orders ----------------------------------------------------------------------------------------
def setup_over(game_id: str) -> Callable[[GameMaster], bool]:
    return lambda master: master.live(game_id).game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE)


def test_place_the_rest_for_me_from_the_creation(master: GameMaster) -> None:
    game_id, token = new_game(master, auto_setup=True)
    assert master.state_message(game_id, 0)["prefs"]["auto_setup"] is True
    drive(master, game_id, token, lambda p: 2, until=setup_over(game_id))
    live = master.live(game_id)
    assert live.game.turn >= 1 and sum(1 for o in live.game.owner if o == 0) >= 10
    human = [a for a in master.storage.actions(game_id) if a.seat == 0]
    assert any(a.text.startswith("claim ") for a in human) and any(a.text.startswith("place ") for a in human)


def test_place_the_rest_for_me_during_the_setup_and_place_n(master: GameMaster) -> None:
    game_id, token = new_game(master)
    live = master.live(game_id)
    # Claim by hand until the placements begin.
    while live.game.phase == Phase.CLAIM:
        if live.game.to_act == 0:
            master.submit(game_id, token, careful_choice(live.game, 0, live.state_id, "quick"), live.state_id)
        else:
            seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
            master.submit_as(game_id, seat, decide(), state_id)
    mine = [t for t, owner in enumerate(live.game.owner) if owner == 0]
    slug = live.game.board.slug_of(mine[0])
    armies_before = live.game.armies[mine[0]]
    with pytest.raises(Refusal, match="is not yours"):
        other = next(t for t, owner in enumerate(live.game.owner) if owner == 1)
        seat_desk.set_prefs(master, game_id, token, place=(live.game.board.slug_of(other), 2))
    answer = seat_desk.set_prefs(master, game_id, token, place=(slug, 4))
    assert answer["prefs"]["queue"] == [{"territory": slug, "count": 4}]
    # The four next placements of the seat go there, one each time its turn comes, with no prompt.
    placed = 0
    while placed < 4:
        turn = master.bot_turn(game_id)
        assert turn is not None, "the queued placement was not made for the seat"
        seat, state_id, decide = turn
        text = decide()
        if seat == 0:
            assert text == f"place {slug} 1"
            placed += 1
        master.submit_as(game_id, seat, text, state_id)
    assert live.game.armies[mine[0]] == armies_before + 4
    assert SeatPrefs.of(live.record.seats[0]).queue == ()
    # Then the seat is asked again, until it hands the rest over.
    while master.bot_turn(game_id) is not None:
        seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
        master.submit_as(game_id, seat, decide(), state_id)
    assert master.state_message(game_id, 0)["legal"]
    seat_desk.set_prefs(master, game_id, token, auto_setup=True)
    drive(master, game_id, token, lambda p: 2, until=setup_over(game_id))
    assert live.game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE)
    with pytest.raises(Refusal, match="setup orders are for the setup"):
        seat_desk.set_prefs(master, game_id, token, place=(slug, 1))


def play_setup(master: GameMaster, game_id: str, by_hand: Callable[[Game], str] | None = None) -> None:
    """The setup to its end: the server's moves (the bots', seat 0's standing orders) as its driver
    makes them; seat 0's own when asked, as ``by_hand`` chooses."""
    live = master.live(game_id)
    while live.game.phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        turn = master.bot_turn(game_id)
        if turn is None:
            assert by_hand is not None, "the seat was asked during the setup it handed over"
            master.submit_as(game_id, 0, by_hand(live.game), live.state_id)
            continue
        seat, state_id, decide = turn
        master.submit_as(game_id, seat, decide(), state_id)


@pytest.mark.parametrize("setup", ["claim", "deal"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_setup_placed_for_me_is_spread_as_a_strong_player_would(
    master: GameMaster, setup: str, seed: int
) -> None:
    """Issue 37: the auto setup played the stand-in's (the quick bot's) setup, every army on one
    territory (22 of 35 in a 3-player game). Now the hard bot's: at most half of the extra armies on
    one territory, the rest spread over at least three borders, all of them on territories that face
    an enemy (the game's stand-in is still the quick bot)."""
    record, created = master.create_game(
        GameSpec(
            options={"setup": setup},
            seats=[SeatSpec("human", "Ann", auto_setup=True)] + [SeatSpec("bot", bot="quick")] * 2,
            seed=seed,
            bot_delay=0,
        )
    )
    assert created[0].token is not None and record.settings["stand_in"] == "quick"
    play_setup(master, record.id)
    game = master.live(record.id).game
    assert game.phase == Phase.REINFORCE
    mine = [t for t, owner in enumerate(game.owner) if owner == 0]
    extra = {t: game.armies[t] - 1 for t in mine}
    total = sum(extra.values())
    assert total == 35 - len(mine)  # 3 players: 35 armies each, one on each territory
    assert max(extra.values()) <= total / 2, extra
    assert sum(1 for n in extra.values() if n > 0) >= 3, extra
    facing = [t for t in mine if any(game.owner[n] != 0 for n in game.board.neighbours[t])]
    assert sum(extra[t] for t in facing) >= 0.9 * total, extra


def test_claiming_and_placing_by_hand_is_the_player_s_own(master: GameMaster) -> None:
    """Without the standing order the server never plays the seat's setup: every claim and placement
    is the player's, even a pile (here: the lowest free territory each time, every army on the first)."""
    game_id, _ = new_game(master, seed=3)

    def by_hand(game: Game) -> str:
        if game.phase == Phase.CLAIM:
            return f"claim {game.board.slug_of(game.owner.index(-1))}"
        return f"place {game.board.slug_of(game.owner.index(0))} 1"

    play_setup(master, game_id, by_hand)
    game = master.live(game_id).game
    human = [a.text for a in master.storage.actions(game_id) if a.seat == 0]
    claims = [text for text in human if text.startswith("claim ")]
    assert len(claims) == 14 and len(human) == 35
    first = game.owner.index(0)
    assert game.armies[first] == 35 - 13 and claims[0] == f"claim {game.board.slug_of(first)}"


# -- the pace ------------------------------------------------------------------------------------------
def test_the_game_goes_at_the_pace_of_the_slowest_human_watching() -> None:
    master = GameMaster(MemoryStorage())
    record, created = master.create_game(
        GameSpec(
            seats=[
                SeatSpec("human", "Ann", pace="skip"),
                SeatSpec("human", "Bob", pace="watch"),
                SeatSpec("bot", bot="quick"),
            ],
            seed=3,
            bot_delay=0.8,
        )
    )
    live = master.live(record.id)
    assert live.game.phase == Phase.CLAIM  # the setup: a pause no longer than the fast pace's
    assert master.turn_delay(record.id, {0, 1}) == FAST_DELAY  # Bob watches
    assert master.turn_delay(record.id, {0}) == 0.0  # only Ann, who skips
    assert master.turn_delay(record.id, set()) == FAST_DELAY  # nobody: the slowest of the players
    seat_desk.set_prefs(master, record.id, created[1].token, pace="fast")
    assert master.turn_delay(record.id, {0, 1}) == FAST_DELAY


def test_the_pause_before_a_move_by_pace_and_phase() -> None:
    assert move_delay("watch", 0.8, Phase.ATTACK) == 0.8
    assert move_delay("watch", 0.8, Phase.REINFORCE) == 0.8
    assert move_delay("fast", 0.8, Phase.ATTACK) == FAST_DELAY
    assert move_delay("fast", 0.05, Phase.ATTACK) == 0.05  # never more than the game's own delay
    assert move_delay("fast", 0.8, Phase.REINFORCE) == 0.0
    assert move_delay("skip", 0.8, Phase.ATTACK) == 0.0
    # The setup's single armies: at most the fast pace's pause, at every pace but skip.
    for phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        assert move_delay("watch", 0.8, phase) == FAST_DELAY
        assert move_delay("watch", 0.0, phase) == 0.0
        assert move_delay("skip", 0.8, phase) == 0.0


def test_every_roll_asks_every_roll(master: GameMaster) -> None:
    game_id, token = new_game(master, seed=11, bots="quick", defence="every", auto_setup=True)
    prompts = drive(master, game_id, token, lambda p: 1, until=turns_played(game_id, 30))
    keys = [p["key"] for p in prompts]
    assert len(keys) > len(set(keys))  # the same attack asked roll after roll, whatever was answered


# -- a real server, no page open ------------------------------------------------------------------------
def test_a_closed_tab_defends_and_sets_up(tmp_path: Any) -> None:
    port = free_port()
    with server(f"sqlite:///{tmp_path}/games.sqlite3", port):
        created = request(
            port,
            "POST",
            "/api/games",
            {
                "seats": [{"kind": "human", "name": "Ann", "defence": "most", "auto_setup": True}]
                + [{"kind": "bot", "bot": "quick"}] * 2,
                "seed": 11,
                "bot_delay": 0,
            },
        )
        game_id, token = created["id"], created["seats"][0]["token"]
        refused = _refusal(port, game_id, token, {"defence": "never"})
        assert refused.startswith("422") and "no defence setting 'never'" in refused
        deadline = time.monotonic() + 120
        defended = 0
        while time.monotonic() < deadline and defended < 3:
            state = request(port, "GET", f"/api/games/{game_id}/view", token=token)
            assert state["view"]["phase"] != "defend" or state["legal"] == []
            if state["status"] == "over":
                break
            if state["legal"]:  # the human's own turn: end it quickly, as a quick player would
                legal = state["legal"][0]
                text = legal["text"] if "max" not in legal else f"{legal['text']} {legal['max']}"
                for wanted in ("endattack", "endturn"):
                    if any(g["text"] == wanted for g in state["legal"]):
                        text = wanted
                request(
                    port,
                    "POST",
                    f"/api/games/{game_id}/actions",
                    {"action": text, "state_id": state["state_id"]},
                    token,
                )
            defended = sum(
                1 for line in state["log"] if line["kind"] == "battle" and line["data"]["defender"] == 0
            )
            time.sleep(0.05)
        assert defended >= 3, "the server did not defend for the seat with no page open"


def _refusal(port: int, game_id: str, token: str, body: dict[str, Any]) -> str:
    import urllib.error

    try:
        request(port, "POST", f"/api/games/{game_id}/prefs", body, token)
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read().decode()}"
    raise AssertionError("not refused")


def test_deal_and_place_my_starting_armies_for_me(master: GameMaster) -> None:
    """The lobby's "deal territories and place my starting armies for me": the seat is never asked
    during the setup."""
    record, created = master.create_game(
        GameSpec(
            options={"setup": "deal"},
            seats=[
                SeatSpec("human", "Ann", auto_setup=True),
                SeatSpec("bot", bot="quick"),
                SeatSpec("bot", bot="quick"),
            ],
            seed=4,
            bot_delay=0,
        )
    )
    token = created[0].token
    assert token is not None
    live = master.live(record.id)
    assert live.game.phase == Phase.SETUP_PLACE
    while live.game.phase == Phase.SETUP_PLACE:
        assert master.state_message(record.id, 0)["legal"] == []
        seat, state_id, decide = master.bot_turn(record.id)  # type: ignore[misc]
        master.submit_as(record.id, seat, decide(), state_id)
    assert live.game.phase == Phase.REINFORCE
    assert any(a.seat == 0 and a.text.startswith("place ") for a in master.storage.actions(record.id))
