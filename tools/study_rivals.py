"""Whom each bot fights, when it stops and how it races a rival for a weak seat (issue 42's study).

    .venv/bin/python tools/study_rivals.py ../shared/studies/strong-ai/t4-warlord-mixed-table
    .venv/bin/python tools/study_rivals.py ../shared/studies/strong-ai/t4-6p-warlord-vs-five --json

Each record of the folder is replayed from its seed, action by action (one replay: the record's
action lines, whose numbers are kept, so that every example is cited as ``file:line``). Per bot (the
player name without its seat number, as in ``tools/study_records.py``):

* *eliminations*: who eliminated whom, on which of the eliminator's turns, how many of the victim's
  territories each other seat took from it while it was prey (from the first turn it started with 9
  territories or fewer: the warlord's plan threshold) and over the game, the cards the eliminator
  took and whether it traded them that turn; and what each other seat did meanwhile (dice rolled on
  the prey and on the rival, armies lost);
* *targets*: the share of its dice rolls, armies lost and conquests aimed at the strongest opponent
  and the weakest (by armies + 3 x income at the start of its turn, the warlord's own measure) and
  at a leader (a player whose measure is 1.5 times the others' average);
* *stopping*: conquests a turn, turns with none and with exactly one (the card only), the share of
  its armies on borders (next to an enemy) at the end of its turn, and how often it ends its attacks
  with a big stack unused (8 armies or more next to an enemy territory with a third as many or fewer);
* *continents*: the share of its turns ending with each continent held, the mean length of a hold
  (its own turns in a row) and the continents of others it broke a turn;
* *cards, fortifying, placing*: its hand when it trades, the share of trades at 5 cards or more, the
  share of turns it fortifies, the share of its reinforcements that go to one territory;
* *six players* (with 4 seats or more): each bot's territories at its own turns 1, 5, 10, 15, 20 and
  30, its conquests in its first 5 turns, the share of the rolls of each bot aimed at each other bot
  against a fair share, the turn and the killer of each eliminated seat, and whether a seat that
  rolls dice attacks the next seat in turn order more than the one before it.

``--examples`` prints, for each elimination, the lines to read: where the prey's race began, the
eliminating attack and the eliminator's first trade after it.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from risk.maps import load_map
from risk.play.tournament import wilson_interval
from risk.record import read_header, read_record_text
from risk.rules.actions import Action, Attack, EndAttack, EndTurn, Fortify, Place, Trade
from risk.rules.game import Game, Phase

PREY_TERRITORIES = 9  # a seat with this many territories or fewer is prey (the warlord's plan threshold)
LEADER_FACTOR = 1.5  # a leader's measure is this many times the others' average (the warlord's rule)
BIG_STACK = 8  # armies on a territory that count as a big stack
EARLY_TURNS = 5  # a seat's first turns, for its early play
TURNS_SHOWN = (1, 5, 10, 15, 20, 30)  # a seat's own turns at which its territory count is shown


def bot_of(player: str) -> str:
    """``domination-hard-2`` -> ``domination-hard``: the bot behind a tournament player name."""
    base, _, seat = player.rpartition("-")
    return base if base and seat.isdigit() else player


def measure(game: Game, player: int) -> int:
    """A player's strength: armies on the board + 3 x income (the warlord's leader measure)."""
    if not game.alive[player]:
        return 0
    armies = sum(a for t, a in enumerate(game.armies) if game.owner[t] == player)
    return armies + 3 * game.reinforcement_for(player)


@dataclass
class Turn:
    """One seat's turn: what it did, and the table as it began."""

    seat: int
    number: int  # the game's turn number
    own: int  # the seat's own turn count: 1 on its first turn
    line: int  # the record line of the turn's first action
    territories: list[int]  # every seat's territories as the turn began
    strength: list[int]  # every seat's measure as the turn began
    hand: int  # the seat's cards as the turn began
    rolls_on: Counter[int] = field(default_factory=Counter)  # dice rolled, by defender seat
    lost_on: Counter[int] = field(default_factory=Counter)  # armies lost attacking, by defender
    conquests_on: Counter[int] = field(default_factory=Counter)
    breaks: int = 0  # conquests that broke another seat's whole continent
    trades: list[int] = field(default_factory=list)  # hand size at each trade
    placed: Counter[int] = field(default_factory=Counter)  # armies placed, by territory
    fortified: bool = False
    big_unused: int = 0  # the largest stack left unused as attacks ended (0: none)
    border_armies: int = 0  # spare armies (beyond one a territory) next to an enemy at the turn's end
    armies: int = 0  # spare armies at the turn's end
    continents: tuple[int, ...] = ()  # held at the turn's end

    @property
    def conquests(self) -> int:
        return sum(self.conquests_on.values())


@dataclass
class Elimination:
    victim: int
    by: int
    turn: int  # the game's turn number
    own_turn: int  # the eliminator's own turn count
    line: int  # the eliminating attack
    cards_taken: int
    hand_after: int  # the eliminator's hand once the victim's cards are in it
    traded_line: int | None  # the eliminator's first trade after it
    traded_same_turn: bool
    prey_since: int | None  # the game's turn from which the victim had PREY_TERRITORIES or fewer
    prey_line: int | None  # that turn's first line


@dataclass
class GameFacts:
    path: Path
    players: list[str]
    winner: int | None
    turns: list[Turn]
    eliminations: list[Elimination]

    @property
    def bots(self) -> list[str]:
        return [bot_of(p) for p in self.players]

    def turn_at(self, number: int) -> Turn:
        return next(t for t in self.turns if t.number == number)

    def where(self, line: int | None) -> str:
        return f"{self.path.name}:{line}"


def action_lines(text: str) -> Iterator[tuple[int, str]]:
    """The record's action lines (after ``---``, not chance outcomes), with their line numbers."""
    body = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not body:
            body = line == "---"
        elif line and not line.startswith("~"):
            yield number, line


def _border_armies(game: Game, player: int) -> tuple[int, int]:
    board, owner = game.board, game.owner
    border = total = 0
    for t, armies in enumerate(game.armies):
        if owner[t] == player:
            total += armies - 1  # the army that must stay is no choice
            if any(owner[n] != player for n in board.neighbours[t]):
                border += armies - 1
    return border, total


def _big_unused(game: Game, player: int) -> int:
    board, owner, armies = game.board, game.owner, game.armies
    best = 0
    for t, stack in enumerate(armies):
        if (
            owner[t] == player
            and stack >= BIG_STACK
            and stack > best
            and any(owner[n] != player and 3 * armies[n] <= stack for n in board.neighbours[t])
        ):
            best = stack
    return best


def study_record(path: Path) -> GameFacts:
    """Replay one record from its seed and its action lines, keeping each turn's and elimination's facts."""
    text = read_record_text(path)
    header = read_header(text)
    if header.seed is None:
        raise ValueError(f"{path}: the record names no seed, so its chance cannot be replayed")
    game = Game(header.rules, header.players, seed=header.seed, board=load_map(header.board))
    seats = game.humans
    turns: list[Turn] = []
    eliminations: list[Elimination] = []
    own_turns: Counter[int] = Counter()
    prey_since: list[tuple[int, int] | None] = [None] * seats
    waiting_trade: list[Elimination] = []
    turn: Turn | None = None
    holder = attack_line = -1
    breaking = False
    for line, action_text in action_lines(text):
        if game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE) and (turn is None or turn.number != game.turn):
            if turn is not None:
                _close(game, turn)
            own_turns[game.current] += 1
            turn = Turn(
                game.current,
                game.turn,
                own_turns[game.current],
                line,
                list(game.territory_count),
                [measure(game, p) for p in range(seats)],
                len(game.hands[game.current]),
            )
            turns.append(turn)
            for p in range(seats):
                if (
                    game.alive[p]
                    and prey_since[p] is None
                    and 0 < game.territory_count[p] <= PREY_TERRITORIES
                ):
                    prey_since[p] = (game.turn, line)
        action: Action = game.parse(action_text)
        actor = game.to_act
        if turn is not None:
            _count_action(game, turn, action, actor, line, waiting_trade)
        if isinstance(action, Attack):
            # The roll comes with this action, or with the defender's choice of dice that follows.
            holder = game.owner[action.target]
            attack_line = line
            breaking = game.board.territories[action.target].continent in game.continents_of(holder)
        hands_before = [len(h) for h in game.hands]
        alive_before = list(game.alive)
        battle_before = game.last_battle
        game.apply(action)
        battle = game.last_battle
        if turn is None or battle is None or battle is battle_before:
            continue
        turn.rolls_on[holder] += 1
        turn.lost_on[holder] += battle.attacker_losses
        if battle.conquered:
            turn.conquests_on[holder] += 1
            turn.breaks += breaking
        for victim, was_alive in enumerate(alive_before):
            if was_alive and not game.alive[victim]:
                since = prey_since[victim]
                elimination = Elimination(
                    victim,
                    turn.seat,
                    game.turn,
                    turn.own,
                    attack_line,
                    hands_before[victim],
                    len(game.hands[turn.seat]),
                    None,
                    False,
                    since[0] if since else None,
                    since[1] if since else None,
                )
                eliminations.append(elimination)
                if game.winner is None:
                    waiting_trade.append(elimination)
    if turn is not None:
        _close(game, turn)
    winner = game.winner
    expected = header.result if header.result and header.result != "unfinished" else None
    if (game.players[winner] if winner is not None else None) != expected:
        raise ValueError(f"{path}: the replay's winner is not the record's ({header.result})")
    return GameFacts(path, list(game.players), winner, turns, eliminations)


def _count_action(
    game: Game, turn: Turn, action: Action, actor: int, line: int, waiting_trade: list[Elimination]
) -> None:
    """What an action (about to be applied) tells of its seat's turn."""
    if actor != turn.seat:
        return  # a defender's dice
    if isinstance(action, Trade):
        turn.trades.append(len(game.hands[actor]))
        for elimination in list(waiting_trade):
            if elimination.by == actor:
                elimination.traded_line = line
                elimination.traded_same_turn = game.turn == elimination.turn
                waiting_trade.remove(elimination)
    elif isinstance(action, Place):
        turn.placed[action.territory] += action.armies
    elif isinstance(action, Fortify):
        turn.fortified = True
    elif isinstance(action, EndAttack | EndTurn) and game.phase == Phase.ATTACK:
        turn.big_unused = _big_unused(game, actor)


def _close(game: Game, turn: Turn) -> None:
    turn.border_armies, turn.armies = _border_armies(game, turn.seat)
    turn.continents = tuple(game.continents_of(turn.seat))


def study_folder(folder: Path, limit: int | None = None) -> list[GameFacts]:
    paths = sorted(folder.glob("*.risk"))[:limit]
    if not paths:
        raise ValueError(f"no .risk records in {folder}")
    return [study_record(path) for path in paths]


# --- Figures over a folder ------------------------------------------------------------------------


def _share(part: float, whole: float) -> float:
    return round(part / whole, 3) if whole else 0.0


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 2) if values else 0.0


def wins(games: Iterable[GameFacts]) -> dict[str, dict[str, object]]:
    seats: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for facts in games:
        seats.update(facts.bots)
        if facts.winner is not None:
            won[facts.bots[facts.winner]] += 1
    return {
        bot: {
            "seats": seats[bot],
            "wins": won[bot],
            "ci95": [round(x, 3) for x in wilson_interval(won[bot], seats[bot])],
        }
        for bot in sorted(seats)
    }


def eliminations(games: Sequence[GameFacts]) -> dict[str, object]:
    """Who eliminates whom, when, and what every seat took from the prey and spent meanwhile."""
    pairs: Counter[str] = Counter()
    first: Counter[str] = Counter()
    pair_turns: dict[str, list[int]] = defaultdict(list)
    chains: dict[str, Counter[int]] = defaultdict(Counter)  # turns with 1, 2, 3+ eliminations
    own_turn: dict[str, list[int]] = defaultdict(list)
    cards: dict[str, list[int]] = defaultdict(list)
    traded_same_turn: Counter[str] = Counter()
    traded_next: Counter[str] = Counter()
    counted: Counter[str] = Counter()
    race: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for facts in games:
        bots = facts.bots
        per_turn = Counter((e.by, e.turn) for e in facts.eliminations)
        for (seat, _), count in per_turn.items():
            chains[bots[seat]][min(count, 3)] += 1
        for index, e in enumerate(facts.eliminations):
            killer, victim = bots[e.by], bots[e.victim]
            pairs[f"{killer} > {victim}"] += 1
            pair_turns[f"{killer} > {victim}"].append(e.turn)
            if index == 0:
                first[f"{killer} > {victim}"] += 1
            own_turn[killer].append(e.own_turn)
            if e.cards_taken:
                cards[killer].append(e.cards_taken)
            if e.traded_line is not None:
                counted[killer] += 1
                traded_same_turn[killer] += e.traded_same_turn
                traded_next[killer] += not e.traded_same_turn
            # Every other seat alive while the victim was prey, and in the victim's last round (the
            # turns since the eliminator's turn before): what it took from it, and what it spent.
            alive = sum(1 for n in facts.turn_at(e.turn).territories if n)
            if alive < 3:
                continue  # the game's last elimination: no rival left to race
            windows = {"while prey": e.prey_since, "last round": e.turn - alive + 1}
            for seat in range(len(bots)):
                if seat == e.victim:
                    continue
                role = f"{victim} out: {bots[seat]} ({'eliminator' if seat == e.by else 'other'})"
                rivals = [p for p in range(len(bots)) if p not in (seat, e.victim)]
                mine = [t for t in facts.turns if t.seat == seat and t.number <= e.turn]
                race[role]["prey's territories taken, whole game"].append(
                    sum(t.conquests_on[e.victim] for t in mine)
                )
                for name, since in windows.items():
                    window = [t for t in mine if since is not None and t.number >= since]
                    if not window:
                        continue
                    figures = race[role]
                    figures[f"{name}: turns"].append(len(window))
                    figures[f"{name}: prey's territories taken"].append(
                        sum(t.conquests_on[e.victim] for t in window)
                    )
                    figures[f"{name}: rolls on prey"].append(sum(t.rolls_on[e.victim] for t in window))
                    figures[f"{name}: rolls on others"].append(
                        sum(t.rolls_on[p] for t in window for p in rivals)
                    )
                    figures[f"{name}: armies lost on prey"].append(sum(t.lost_on[e.victim] for t in window))
                    figures[f"{name}: armies lost on others"].append(
                        sum(t.lost_on[p] for t in window for p in rivals)
                    )
                    figures[f"{name}: cards at first turn"].append(window[0].hand)
    return {
        "pairs": dict(pairs.most_common()),
        "first out": dict(first.most_common()),
        "game turn (mean)": {pair: _mean(turns) for pair, turns in sorted(pair_turns.items())},
        "eliminator's own turn (mean)": {bot: _mean(v) for bot, v in sorted(own_turn.items())},
        "cards taken (mean, when any)": {bot: _mean(v) for bot, v in sorted(cards.items())},
        "turns eliminating 1 / 2 / 3+ players": {
            bot: [chains[bot][n] for n in (1, 2, 3)] for bot in sorted(chains)
        },
        "traded in the same turn": {
            bot: _share(traded_same_turn[bot], counted[bot]) for bot in sorted(counted)
        },
        "races: while the victim was prey, 3 seats alive or more (means per elimination)": {
            role: {key: _mean(values) for key, values in figures.items()}
            for role, figures in sorted(race.items())
        },
    }


def targets(games: Sequence[GameFacts]) -> dict[str, dict[str, float]]:
    """The share of each bot's rolls, losses and conquests aimed at the strongest, weakest and leader."""
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for facts in games:
        for t in facts.turns:
            bot = facts.bots[t.seat]
            opponents = [p for p, n in enumerate(t.territories) if n and p != t.seat]
            if len(opponents) < 2:
                continue
            strongest = max(opponents, key=t.strength.__getitem__)
            weakest = min(opponents, key=t.strength.__getitem__)
            leader = _leader(t.strength)
            tally = totals[bot]
            for seat, rolls in t.rolls_on.items():
                for what, counter in (
                    ("rolls", t.rolls_on),
                    ("lost", t.lost_on),
                    ("conquests", t.conquests_on),
                ):
                    tally[what] += counter[seat]
                    if seat == strongest:
                        tally[f"{what} on strongest"] += counter[seat]
                    if seat == weakest:
                        tally[f"{what} on weakest"] += counter[seat]
                    if leader is not None and leader != t.seat and seat == leader:
                        tally[f"{what} on leader"] += counter[seat]
                del rolls
            if leader is not None and leader != t.seat:
                tally["turns with a leader"] += 1
                tally["turns attacking the leader"] += t.rolls_on[leader] > 0
    return {
        bot: {
            **{
                f"{what} on {whom}": _share(tally[f"{what} on {whom}"], tally[what])
                for what in ("rolls", "lost", "conquests")
                for whom in ("strongest", "weakest", "leader")
            },
            "turns attacking a leader": _share(
                tally["turns attacking the leader"], tally["turns with a leader"]
            ),
        }
        for bot, tally in sorted(totals.items())
    }


def _leader(strength: Sequence[int]) -> int | None:
    alive = [p for p, s in enumerate(strength) if s]
    if len(alive) < 3:
        return None
    top = max(alive, key=strength.__getitem__)
    others = [strength[p] for p in alive if p != top]
    return top if strength[top] >= LEADER_FACTOR * sum(others) / len(others) else None


def stopping(games: Sequence[GameFacts]) -> dict[str, dict[str, float]]:
    """How much each bot conquers a turn and what it leaves unused."""
    per_bot: dict[str, list[Turn]] = defaultdict(list)
    for facts in games:
        for t in facts.turns:
            per_bot[facts.bots[t.seat]].append(t)
    return {
        bot: {
            "turns": len(ts),
            "conquests a turn": _mean([t.conquests for t in ts]),
            "turns without a conquest": _share(sum(t.conquests == 0 for t in ts), len(ts)),
            "turns with exactly one": _share(sum(t.conquests == 1 for t in ts), len(ts)),
            "turns with 5 or more": _share(sum(t.conquests >= 5 for t in ts), len(ts)),
            "dice rolled a turn": _mean([sum(t.rolls_on.values()) for t in ts]),
            "armies lost a turn": _mean([sum(t.lost_on.values()) for t in ts]),
            "spare armies on borders at turn end": _share(
                sum(t.border_armies for t in ts), sum(t.armies for t in ts)
            ),
            "attacks ended with a big stack unused": _share(sum(t.big_unused > 0 for t in ts), len(ts)),
        }
        for bot, ts in sorted(per_bot.items())
    }


def continents(games: Sequence[GameFacts]) -> dict[str, dict[str, object]]:
    """The continents each bot ends its turns holding, for how long, and the ones it breaks."""
    per_bot: dict[str, list[Turn]] = defaultdict(list)
    spells: dict[str, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    for facts in games:
        by_seat: dict[int, list[Turn]] = defaultdict(list)
        for t in facts.turns:
            per_bot[facts.bots[t.seat]].append(t)
            by_seat[t.seat].append(t)
        for seat, ts in by_seat.items():
            for continent in {c for t in ts for c in t.continents}:
                run = 0
                for t in ts:
                    if continent in t.continents:
                        run += 1
                    elif run:
                        spells[facts.bots[seat]].append(run)
                        run = 0
                if run:
                    spells[facts.bots[seat]].append(run)
    board = load_map("classic")
    names = {c.index: c.name for c in board.continents}
    return {
        bot: {
            "held at turn end": {
                names[c]: _share(sum(c in t.continents for t in ts), len(ts)) for c in sorted(names)
            },
            "continents held a turn": _mean([len(t.continents) for t in ts]),
            "mean hold (own turns)": _mean(spells[bot]),
            "breaks a turn": _mean([t.breaks for t in ts]),
        }
        for bot, ts in sorted(per_bot.items())
    }


def habits(games: Sequence[GameFacts]) -> dict[str, dict[str, float]]:
    """Cards, fortifying and placing."""
    per_bot: dict[str, list[Turn]] = defaultdict(list)
    for facts in games:
        for t in facts.turns:
            per_bot[facts.bots[t.seat]].append(t)
    result: dict[str, dict[str, float]] = {}
    for bot, ts in sorted(per_bot.items()):
        hands = [h for t in ts for h in t.trades]
        placing = [t for t in ts if t.placed]
        result[bot] = {
            "hand when trading": _mean(hands),
            "trades at 5 cards or more": _share(sum(h >= 5 for h in hands), len(hands)),
            "turns fortifying": _share(sum(t.fortified for t in ts), len(ts)),
            "reinforcements on one territory": _mean(
                [max(t.placed.values()) / sum(t.placed.values()) for t in placing]
            ),
            f"conquests a turn, first {EARLY_TURNS} turns": _mean(
                [t.conquests for t in ts if t.own <= EARLY_TURNS]
            ),
        }
    return result


def full_table(games: Sequence[GameFacts]) -> dict[str, object]:
    """With 4 seats or more: the board shared out, who fights whom, who goes out when and by whom."""
    counts: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    aimed: dict[str, Counter[str]] = defaultdict(Counter)
    fair: dict[str, Counter[str]] = defaultdict(Counter)
    order: Counter[str] = Counter()
    out: dict[str, list[int]] = defaultdict(list)
    killers: dict[str, Counter[str]] = defaultdict(Counter)
    left: dict[str, list[int]] = defaultdict(list)  # seats alive as each went out
    for facts in games:
        bots, seats = facts.bots, len(facts.players)
        for t in facts.turns:
            bot = bots[t.seat]
            if t.own in TURNS_SHOWN:
                counts[bot][t.own].append(t.territories[t.seat])
            rolls = sum(t.rolls_on.values())
            if not rolls:
                continue
            alive = [p for p, n in enumerate(t.territories) if n and p != t.seat]
            for seat in alive:
                # The rolls a seat of each bot took, and the rolls it would take were they shared out evenly.
                aimed[bot][bots[seat]] += t.rolls_on[seat]
                fair[bot][bots[seat]] += rolls / len(alive)  # type: ignore[assignment]
            after = next((p for i in range(1, seats) if (p := (t.seat + i) % seats) in alive), None)
            before = next((p for i in range(1, seats) if (p := (t.seat - i) % seats) in alive), None)
            if after is not None and before is not None and after != before:
                order["rolls on the next seat"] += t.rolls_on[after]
                order["rolls on the seat before"] += t.rolls_on[before]
                order["rolls, both alive"] += rolls
        for e in facts.eliminations:
            out[bots[e.victim]].append(e.turn)
            left[bots[e.victim]].append(sum(1 for n in facts.turn_at(e.turn).territories if n))
            killers[bots[e.victim]][bots[e.by]] += 1
    return {
        "territories at own turn": {
            bot: {turn: f"{_mean(values)} ({len(values)} seats)" for turn, values in sorted(by_turn.items())}
            for bot, by_turn in sorted(counts.items())
        },
        "rolls aimed, per fair share": {
            bot: {
                whom: round(aimed[bot][whom] / fair[bot][whom], 2)
                for whom in sorted(fair[bot])
                if fair[bot][whom]
            }
            for bot in sorted(aimed)
        },
        "turn order": {
            "next seat": _share(order["rolls on the next seat"], order["rolls, both alive"]),
            "seat before": _share(order["rolls on the seat before"], order["rolls, both alive"]),
        },
        "eliminated on game turn (mean)": {bot: _mean(turns) for bot, turns in sorted(out.items())},
        "eliminated, times": {bot: len(turns) for bot, turns in sorted(out.items())},
        "seats alive as it went out (mean)": {bot: _mean(seats) for bot, seats in sorted(left.items())},
        "eliminated by": {bot: dict(k) for bot, k in sorted(killers.items())},
    }


def report(games: Sequence[GameFacts]) -> dict[str, object]:
    figures: dict[str, object] = {
        "wins": wins(games),
        "eliminations": eliminations(games),
        "targets": targets(games),
        "stopping": stopping(games),
        "continents": continents(games),
        "habits": habits(games),
    }
    if max(len(facts.players) for facts in games) >= 4:
        figures["full table"] = full_table(games)
    return figures


def taken_from(facts: GameFacts, e: Elimination, since: int) -> Counter[int]:
    """The victim's territories each seat took from the game turn ``since`` to its elimination."""
    taken: Counter[int] = Counter()
    for t in facts.turns:
        if since <= t.number <= e.turn and t.conquests_on[e.victim]:
            taken[t.seat] += t.conquests_on[e.victim]
    return taken


def examples(games: Sequence[GameFacts]) -> Iterator[str]:
    """One line an elimination: where to read it in its record."""
    for facts in games:
        bots = facts.bots
        for e in facts.eliminations:
            taken = taken_from(facts, e, e.prey_since or 0)
            last = taken_from(facts, e, e.turn - sum(1 for n in facts.turn_at(e.turn).territories if n) + 1)
            others = ", ".join(f"{bots[p]}-{p + 1} {n}" for p, n in sorted(taken.items()))
            lasts = ", ".join(f"{bots[p]}-{p + 1} {n}" for p, n in sorted(last.items()))
            prey = (
                f"prey from {facts.where(e.prey_line)} (turn {e.prey_since})" if e.prey_line else "never prey"
            )
            trade = (
                f"traded {'that turn' if e.traded_same_turn else 'later'} at {facts.where(e.traded_line)}"
                if e.traded_line
                else "no trade after"
            )
            yield (
                f"{facts.where(e.line)}: {facts.players[e.by]} eliminates {facts.players[e.victim]} "
                f"on turn {e.turn} (its own {e.own_turn}), takes {e.cards_taken} cards "
                f"(hand {e.hand_after}), {trade}; {prey}; "
                f"taken while prey: {others or 'none'}; in its last round: {lasts or 'none'}"
            )


def _print(figures: object, indent: int = 0) -> None:
    assert isinstance(figures, dict)
    for key, value in figures.items():
        if isinstance(value, dict) and any(isinstance(v, dict) for v in value.values()):
            print(" " * indent + f"{key}:")
            _print(value, indent + 2)
        else:
            print(" " * indent + f"{key}: {value}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("folder", type=Path, help="a folder of .risk records")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--examples", action="store_true", help="print each elimination's lines to read")
    parser.add_argument("--limit", type=int, help="study only the first N records (by name)")
    args = parser.parse_args()
    try:
        games = study_folder(args.folder, args.limit)
    except ValueError as error:
        parser.error(str(error))
    figures = report(games)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    if args.examples:
        for text in examples(games):
            print(text)


if __name__ == "__main__":
    main()
