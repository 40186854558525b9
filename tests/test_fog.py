"""Fog of war in the rules core and through View (risk.rules.variants.fog; docs/rules.md, "Fog of war").

The proof of secrecy here is a twin: a copy of a fogged game, through the public save format, that
differs from it in everything one seat may not see (the owners and armies of the territories out of
its sight, the other seats' memories and what they witnessed, and what was secret before: the other
hands, the draw pile, the seed). Everything that seat's View gives (its data, its legal actions, its
history and record, its refusals, its determinisation) must be byte for byte the same for both.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from risk.bots import make_bot
from risk.bots.expert import ExpertBot
from risk.errors import IllegalActionError
from risk.narrate import narrate, snapshot, visible_to
from risk.record import read_record, write_record
from risk.rules.actions import Attack, Fortify, Place
from risk.rules.game import Game, Phase
from risk.rules.options import Rules
from risk.rules.variants.fog import EVERYONE, sight
from risk.view import SPECTATOR, View
from test_determinise import shuffle_cards

GAMES = [
    ("1993", "world", 4),
    ("2003", "world", 5),
    ("2008", "world", 3),
    ("2003", "team", 4),
    ("2003", "two-player", 2),
    ("1993", "two-player", 2),
    ("1993", "capital", 4),
    ("2008", "secret-mission", 4),
    ("2003", "mission", 4),
]


def fogged(preset: str, kind: str) -> Rules:
    return Rules.preset(preset).with_options(game=kind, fog="on")


def play(rules: Rules, players: int, seed: int, turns: int, bot: str = "quick") -> Game:
    """A fogged game played by bots until ``turns`` turns have begun (or it ends)."""
    game = Game(rules, players, seed=seed)
    bots = [make_bot(bot, seed * 10 + seat) for seat in range(len(game.players))]
    while not game.is_over and game.turn < turns:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
    return game


def twin(game: Game, me: int, rng: random.Random) -> Game:
    """A copy of ``game`` that differs in what ``me`` may not see (a spectator: -1)."""
    data: dict[str, Any] = json.loads(json.dumps(game.to_dict()))
    count, seats = len(game.board), len(game.players)
    sight_of_me = data["in_sight"][me] if me >= 0 else [0] * count
    rivals = [p for p in range(seats) if p != me and game.alive[p]]
    if game.team is not None and me >= 0:
        rivals = [p for p in rivals if game.team[p] != game.team[me]]
    for t in range(count):
        if not sight_of_me[t] and data["owner"][t] >= 0 and rivals:
            data["owner"][t] = rng.choice(rivals)
            data["armies"][t] = rng.randint(1, 30)
            if data.get("units"):
                data["units"][t] = [0] * seats
                data["units"][t][data["owner"][t]] = data["armies"][t]
    data["territory_count"] = [sum(1 for o in data["owner"] if o == p) for p in range(seats)]
    for seat in range(len(data["seen_owner"])):  # the other seats' memories
        if seat != me:
            data["seen_owner"][seat] = [rng.choice([-1, *range(seats)]) for _ in range(count)]
            data["seen_armies"][seat] = [rng.randint(0, 9) for _ in range(count)]
            data["in_sight"][seat] = [rng.randint(0, 1) for _ in range(count)]
    mine = 1 << me if me >= 0 else 0
    data["witnessed"] = [
        m if m == EVERYONE else (m & mine) | (rng.getrandbits(seats) & ~mine) for m in data["witnessed"]
    ]
    if game.team is None:  # (Team RISK's shared hands: tests/test_determinise.py covers the cards)
        shuffle_cards(data, me, rng)
    data["seed"] = rng.getrandbits(40)
    return Game.from_dict(data)


def everything_seen(game: Game, me: int) -> str:
    """All that ``me``'s View gives, as one text."""
    view = View(game, me)
    parts: dict[str, Any] = {
        "view": view.to_dict(),
        "owner": view.owner,
        "armies": view.armies,
        "counts": view.territory_count,
        "pending": view.pending,
        "this_turn": [
            view.conquered_this_turn,
            view.conquests_this_turn,
            view.attacked_this_turn,
            view.placed_this_turn,
        ],
        "legal": view.legal_groups(),
        "history": [repr(entry) for entry in view.public_history()],
        "battle": repr(view.last_battle),
        "attack": view.pending_attack,
        "occupation": view.pending_occupation,
        "visible": [view.visible(t) for t in range(len(game.board))],
        "seen_turn": [view.seen_turn(t) for t in range(len(game.board))],
        "territories_of": [view.territories_of(p) for p in range(len(game.players))],
        "continents_of": [view.continents_of(p) for p in range(len(game.players))],
        "reinforcement_for": [view.reinforcement_for(p) for p in range(len(game.players))],
        "force": [[view.force(t, p) for p in range(len(game.players))] for t in range(len(game.board))],
    }
    if me >= 0:
        parts["record"] = write_record(game, viewer=me)
        parts["refusals"] = refusals(game, me)
    return json.dumps(parts, sort_keys=True, default=repr)


def refusals(game: Game, me: int) -> list[str]:
    """The refusals of actions on every territory out of ``me``'s sight, as ``me`` is told them."""
    view = View(game, me)
    if game.to_act != me:
        return []
    told = []
    own = [t for t in range(len(game.board)) if game.owner[t] == me]
    for t in range(len(game.board)):
        if view.visible(t):
            continue
        for action in (Place(t, 1), Attack(own[0], t, 1) if own else Place(t, 2), Fortify(t, t, 1)):
            try:
                view.check(action)
            except IllegalActionError as error:
                told.append(str(error))
    return told


@pytest.mark.parametrize(("preset", "kind", "players"), GAMES)
def test_a_seat_sees_nothing_of_what_the_fog_hides(preset: str, kind: str, players: int) -> None:
    rng = random.Random(f"{preset}{kind}")
    for seed, turns in ((1, 0), (2, 4), (3, 12), (4, 30)):
        game = play(fogged(preset, kind), players, seed, turns)
        if game.is_over:  # the fog has lifted: nothing is hidden any more
            continue
        for me in [*range(game.humans), SPECTATOR]:
            other = twin(game, me, rng)
            assert everything_seen(other, me) == everything_seen(game, me), (seed, me)
            if me >= 0:
                ours, theirs = (
                    View(game, me).determinise(random.Random(9)),
                    View(other, me).determinise(random.Random(9)),
                )
                assert json.dumps(ours.to_dict()) == json.dumps(theirs.to_dict())
            if me == game.to_act:  # so a bot decides the same: it cannot see through the fog
                for deciding in (
                    lambda: make_bot("warlord", 5),
                    lambda: ExpertBot(5, iterations=4, max_seconds=1e6),
                ):
                    ours_move = deciding().choose(View(game, me))
                    assert deciding().choose(View(other, me)) == ours_move


def what_a_seat_is_shown(game: Game, me: int) -> str:
    """What ``me``'s View says of the position and of the turn under way, as one text."""
    view = View(game, me)
    return json.dumps(
        {
            "view": view.to_dict(),
            "phase": view.phase.name,
            "to_act": view.to_act,
            "battle": view.last_battle,
            "pending": [view.pending_attack, view.pending_occupation, view.pending_roll, view.pending],
            "occupy_range": view.occupy_range(),
            "this_turn": [view.conquered_this_turn, view.conquests_this_turn, view.attacked_this_turn],
            "legal": view.legal_groups(),
        },
        sort_keys=True,
        default=repr,
    )


@pytest.mark.parametrize(("preset", "kind", "players"), GAMES)
def test_a_step_out_of_sight_changes_nothing_a_seat_is_shown(preset: str, kind: str, players: int) -> None:
    """Issue 36: the phase, who acts and the last battle told of steps a seat did not witness (an attack
    awaiting its defence, a defence skipped for a territory of one army, an unseen conquest, an unseen
    roll). Now every step of another player's turn that a seat did not witness, and that changed no
    territory in its sight, leaves all it is shown byte for byte as it was."""
    steps = 0
    for seed in (1, 2):
        game = Game(fogged(preset, kind), players, seed=seed)
        bots = [make_bot("quick", seed * 10 + seat) for seat in range(len(game.players))]
        while not game.is_over and game.turn < 25:
            before = game.copy()
            shown = {me: what_a_seat_is_shown(game, me) for me in [*range(game.humans), SPECTATOR]}
            start, actor = len(game.history), game.to_act
            game.apply(bots[actor].choose(View(game, actor)))
            if game.is_over or before.phase in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
                continue  # the setup goes turn by turn in the open; the end shows everything
            if (game.turn, game.current, game.alive) != (before.turn, before.current, before.alive) or [
                len(h) for h in game.hands
            ] != [len(h) for h in before.hands]:
                continue  # a turn passing, an elimination and cards changing hands are public
            for me in shown:
                if me == actor:
                    continue
                if any(m == EVERYONE or (me >= 0 and m >> me & 1) for m in game.witnessed[start:]):
                    continue  # it witnessed the step
                if me >= 0 and any(
                    (game.in_sight[me][t] or before.in_sight[me][t])
                    and (game.owner[t], game.armies[t]) != (before.owner[t], before.armies[t])
                    for t in range(len(game.board))
                ):
                    continue  # the step changed what it sees (a loss on its border, say)
                assert what_a_seat_is_shown(game, me) == shown[me], (seed, me, game.history[start:])
                steps += 1
    assert steps > 20  # the fog hid steps from somebody, and the test looked at them


@pytest.mark.parametrize(("preset", "kind", "players"), GAMES)
def test_memory_is_the_board_in_sight_and_the_last_look_elsewhere(
    preset: str, kind: str, players: int
) -> None:
    game = Game(fogged(preset, kind), players, seed=5)
    bots = [make_bot("quick", seat) for seat in range(len(game.players))]
    hidden_seen = 0
    while not game.is_over and game.turn < 40:
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
        if game.is_over:
            break
        for seat in range(game.humans):
            view = View(game, seat)
            in_sight = sight(game, seat)
            data = view.to_dict()["territories"]
            for t in range(len(game.board)):
                if in_sight[t]:
                    assert view.owner[t] == game.owner[t] and view.armies[t] == game.armies[t]
                    assert data[t]["owner"] == game.owner[t] and data[t]["armies"] == game.armies[t]
                    assert view.seen_turn(t) == game.turn
                else:
                    assert "owner" not in data[t] and "armies" not in data[t] and data[t]["hidden"]
                    if view.seen_turn(t) >= 0:
                        assert data[t]["seen"]["owner"] == view.owner[t]
                        hidden_seen += view.owner[t] != game.owner[t] or view.armies[t] != game.armies[t]
                if game.owner[t] == seat and game.alive[seat]:
                    assert in_sight[t] and all(in_sight[n] for n in game.board.neighbours[t])
    assert hidden_seen > 0  # memories did go stale: the test saw the fog at work


def test_a_spectator_sees_no_territory_until_the_end_and_everything_after() -> None:
    game = play(fogged("1993", "world"), 3, seed=8, turns=10_000, bot="continental")
    assert game.is_over
    spectator = View(game, SPECTATOR)
    assert not spectator.fogged and spectator.owner == game.owner
    assert all("owner" in t for t in spectator.to_dict()["territories"])
    assert len(spectator.public_history()) == len(game.history)
    running = play(fogged("1993", "world"), 3, seed=8, turns=6)
    watching = View(running, SPECTATOR).to_dict()
    assert watching["fog"] and all(t["hidden"] and "seen" not in t for t in watching["territories"])
    assert all("territories" not in p for p in watching["players"])


def test_a_refusal_on_a_hidden_territory_names_no_hidden_fact() -> None:
    game = play(fogged("1993", "world"), 4, seed=3, turns=9)
    while game.phase != Phase.REINFORCE:
        game.apply(make_bot("quick", 1).choose(View(game, game.to_act)))
    me = game.to_act
    view = View(game, me)
    hidden = [t for t in range(len(game.board)) if not view.visible(t)]
    assert hidden
    t = hidden[0]
    with pytest.raises(IllegalActionError) as refused:
        view.check(Place(t, 1))
    text = str(refused.value)
    assert "out of your sight" in text
    assert game.players[game.owner[t]] not in text.replace(game.players[me], "")
    assert str(game.armies[t]) not in text.split(":", 1)[1].replace("place", "")
    with pytest.raises(IllegalActionError):  # the engine's own reason names the owner: never shown
        game.check(Place(t, 1))


def test_who_witnessed_a_battle_reads_its_lines_and_no_one_else() -> None:
    game = Game(fogged("1993", "world"), 5, seed=12)
    bots = [make_bot("quick", seat) for seat in range(5)]
    unseen_battles = seen_battles = 0
    while not game.is_over and game.turn < 30:
        before, start = snapshot(game), len(game.history)
        attacker = game.current
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
        for line in narrate(game, before, game.history[start:]):
            if line.kind != "battle":
                continue
            battle = game.last_battle
            assert battle is not None
            defender = line.data["defender"]
            assert visible_to(line, attacker) and (defender < 0 or visible_to(line, defender))
            for seat in range(5):
                if seat in (attacker, defender):
                    continue
                saw = visible_to(line, seat)
                seen_battles += saw
                unseen_battles += not saw
                # An unseen roll leaves the battle this seat last witnessed (or none) as it was.
                assert (View(game, seat).last_battle is battle) == saw
            assert not visible_to(line, SPECTATOR)
    assert seen_battles and unseen_battles


def test_a_saved_fogged_game_goes_on_with_the_same_fog() -> None:
    game = play(fogged("2003", "world"), 4, seed=6, turns=12)
    restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    for seat in [*range(4), SPECTATOR]:
        assert everything_seen(restored, seat) == everything_seen(game, seat)
    bots = [make_bot("quick", seat) for seat in range(4)]
    again = [make_bot("quick", seat) for seat in range(4)]
    for _ in range(300):
        if game.is_over:
            break
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
        restored.apply(again[restored.to_act].choose(View(restored, restored.to_act)))
    assert json.dumps(game.to_dict()) == json.dumps(restored.to_dict())


def test_the_full_record_of_a_fogged_game_replays_its_fog_exactly() -> None:
    game = play(fogged("1993", "world"), 3, seed=4, turns=15)
    replayed = read_record(write_record(game))
    assert json.dumps(replayed.to_dict()) == json.dumps(game.to_dict())
    assert "fog=on" in write_record(game).splitlines()[1]


def test_without_fog_nothing_is_kept_and_nothing_is_hidden() -> None:
    game = play(Rules.preset("1993"), 4, seed=2, turns=6)
    assert game.seen_owner == [] and game.witnessed == []
    assert "seen_owner" not in game.to_dict() and "witnessed" not in game.to_dict()
    view = View(game, 0)
    assert not view.fogged and view.owner is game.owner and all(view.visible(t) for t in range(42))


def test_determinise_under_fog_keeps_what_is_seen_and_a_territory_for_every_rival() -> None:
    game = play(fogged("1993", "world"), 5, seed=9, turns=20)
    me = game.current
    view = View(game, me)
    for draw in range(20):
        sample = view.determinise(random.Random(draw))
        assert sample.rules.fog == "off" and sample.witnessed == [] and sample.seen_owner == []
        for t in range(len(game.board)):
            if view.visible(t):
                assert (sample.owner[t], sample.armies[t]) == (game.owner[t], game.armies[t])
            else:
                assert sample.owner[t] != me and sample.armies[t] >= 1
        for p in range(5):
            if game.alive[p]:
                assert sample.territory_count[p] >= 1
            assert sample.territory_count[p] == sum(1 for o in sample.owner if o == p)


@pytest.mark.parametrize(("preset", "kind", "players"), [GAMES[0], GAMES[3], GAMES[4]])
def test_memory_kept_step_by_step_is_the_memory_rebuilt_from_a_save(
    preset: str, kind: str, players: int
) -> None:
    """The engine looks again only at what changed since the last action; a restored game (or a
    copy) has no such record and rebuilds it from the memories: both must keep the same memory."""
    game = Game(fogged(preset, kind), players, seed=21)
    bots = [make_bot("quick", seat) for seat in range(len(game.players))]
    for _ in range(400):
        if game.is_over:
            break
        action = bots[game.to_act].choose(View(game, game.to_act))
        restored = Game.from_dict(game.to_dict())
        game.apply(action)
        restored.apply(action)
        assert restored.to_dict() == game.to_dict()
