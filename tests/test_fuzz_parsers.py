"""The notation and record parsers, fuzzed with hypothesis: only the documented errors may escape.

- ``parse_action`` (and so ``Game.parse``): any text parses or raises ``NotationError``.
- A parsed action checked and applied in a game at any phase: it is taken, or ``IllegalActionError``.
- ``Rules.from_description``: a ruleset or ``RulesError``.
- ``replay_record`` and ``summarize_record`` (what ``POST /api/replay`` runs on an upload): a replay or
  ``RecordError``, never another exception.

The inputs are arbitrary text, and real actions and records (seeded bot games of every game type,
the 1993 experts' options included) mutated a token, a line or a header field at a time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risk import View
from risk.bots import make_bot
from risk.errors import IllegalActionError, NotationError, RecordError, RulesError
from risk.history import summarize_record
from risk.maps import load_map
from risk.play.simulate import bot_seed
from risk.record import replay_record, write_record
from risk.rules.actions import VERBS, parse_action
from risk.rules.game import Game
from risk.rules.options import Rules

FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None, max_examples=300)
BOARD = load_map("classic")
GAMES = [  # (preset, game, options, seats, seed, actions at most)
    ("2008", "world", (), 3, 11, 700),
    ("1993", "world", ("attack-advantage=on", "commanders=on", "fortify=extended", "army-cap=12"), 3, 1, 600),
    ("2003", "two-player", ("neutral-mode=active",), 2, 13, 500),
    ("2003", "mission", (), 4, 14, 500),
    ("1993", "capital", (), 3, 15, 500),
    ("2008", "secret-mission", (), 3, 16, 500),
    ("2003", "team", (), 4, 17, 400),
]


@dataclass(frozen=True)
class Corpus:
    actions: tuple[str, ...]  # every action text of the games
    positions: tuple[Game, ...]  # games at every phase, to apply mutated actions to
    records: tuple[str, ...]  # the games' records (some played to the end, some cut short)


@functools.cache
def corpus() -> Corpus:
    actions: list[str] = []
    positions: list[Game] = []
    records: list[str] = []
    for preset, kind, options, seats, seed, most in GAMES:
        rules = Rules.preset(preset).for_game(kind).with_option_text(list(options))
        game = Game(rules, [f"P{i}" for i in range(seats)], seed=seed)
        bots = [make_bot("quick", bot_seed(seed, seat)) for seat in range(seats)]
        for step in range(most):
            if game.is_over:
                break
            seat = game.to_act
            view = View(game, seat)
            action = bots[seat].choose(view) if seat < seats else next(iter(game.legal_actions()))
            actions.append(game.action_text(action))
            if step % 20 == 0:
                positions.append(game.copy())
            game.apply(action)
        positions.append(game.copy())
        records.append(write_record(game))
    return Corpus(tuple(actions), tuple(positions), tuple(records))


# -- text mutations --------------------------------------------------------------------------------
ODD_NUMBERS = ["0", "-1", "99", "²", "٣", "1.5", "1e3", "0x10", "--5", "+3", "9" * 60, "9" * 5000, "½", "-"]
NUMBERS = st.sampled_from(["1", "2", "3", *ODD_NUMBERS])
WORDS = st.sampled_from(
    [
        *VERBS,
        "end",
        "attack",
        "turn",
        "alaska",
        "kamchatka",
        "wild1",
        "wild2",
        "neutral-2",
        "neutral",
        "?",
        "~",
        "#",
        ",",
        "attacker",
        "defender",
        "captain-australia",
        "western united states",
        "dice",
        "draw",
        "first",
        "deal",
        "missions",
        "die",
        "6,4,4",
        "5,5",
        "7,1",
        "1,6",
        ",",
        ":",
        "---",
        "risk-record 1",
    ]
)
ODD_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
TOKEN = st.one_of(NUMBERS, WORDS, ODD_TEXT)


@st.composite
def mutated_line(draw: st.DrawFn, line: str) -> str:
    """``line`` with a few of its tokens replaced, dropped, repeated or joined."""
    tokens = line.split(" ")
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, max(0, len(tokens) - 1)))
        how = draw(st.sampled_from(["replace", "drop", "repeat", "insert", "join", "case", "split-comma"]))
        if how == "replace" and tokens:
            tokens[where] = draw(TOKEN)
        elif how == "drop" and tokens:
            del tokens[where]
        elif how == "repeat" and tokens:
            tokens.insert(where, tokens[where])
        elif how == "insert":
            tokens.insert(where, draw(TOKEN))
        elif how == "join" and len(tokens) > 1:
            tokens[where : where + 2] = ["".join(tokens[where : where + 2])]
        elif how == "case" and tokens:
            tokens[where] = tokens[where].upper()
        elif how == "split-comma" and tokens:
            tokens[where] = tokens[where].replace(",", ", ")
    return " ".join(tokens)


def odd_variants(line: str) -> list[str]:
    """``line`` with each of its tokens, and each number inside a token, swapped for each odd number."""
    tokens = line.split(" ")
    variants = []
    for index, token in enumerate(tokens):
        digits = "".join(c if c.isdigit() else " " for c in token).split()
        for odd in ODD_NUMBERS:
            swapped = [odd, *(token.replace(d, odd, 1) for d in digits)]
            variants += [" ".join([*tokens[:index], s, *tokens[index + 1 :]]) for s in swapped]
    return variants


def samples(lines: tuple[str, ...], per_kind: int, key_words: int = 1) -> list[str]:
    """A few lines of each kind (by their first words)."""
    kinds: dict[str, list[str]] = {}
    for line in lines:
        kind = kinds.setdefault(" ".join(line.split(" ")[:key_words]), [])
        if len(kind) < per_kind and line not in kind:
            kind.append(line)
    return [line for kind in kinds.values() for line in kind]


# -- actions ---------------------------------------------------------------------------------------
def test_every_kind_of_action_with_odd_numbers_parses_or_is_a_notation_error() -> None:
    for line in samples(corpus().actions, per_kind=3):
        for text in odd_variants(line):
            try:
                parse_action(text, BOARD)
            except NotationError as error:
                assert str(error)


@FUZZ
@given(text=st.text(max_size=80) | st.builds(" ".join, st.lists(TOKEN, max_size=6)))
def test_any_text_parses_or_is_a_notation_error(text: str) -> None:
    try:
        parse_action(text, BOARD)
    except NotationError as error:
        assert str(error)


@settings(FUZZ, max_examples=600)
@given(data=st.data())
def test_mutated_actions_parse_or_are_refused_and_apply_or_are_illegal(data: st.DataObject) -> None:
    source = corpus()
    text = data.draw(mutated_line(data.draw(st.sampled_from(source.actions))), label="text")
    game = data.draw(st.sampled_from(source.positions)).copy()
    try:
        action = game.parse(text)
    except NotationError:
        return
    # A text that parses prints back as an action that parses to the same action.
    assert game.parse(game.action_text(action)) == action
    if game.is_over:
        return
    before = write_record(game)
    try:
        game.apply(action)
    except IllegalActionError as error:
        assert str(error) and write_record(game) == before  # refused: the game is as it was


@FUZZ
@given(text=st.text(max_size=60) | st.builds(" ".join, st.lists(WORDS | NUMBERS | ODD_TEXT, max_size=5)))
def test_ruleset_descriptions_parse_or_are_rules_errors(text: str) -> None:
    for description in (text, f"2008 {text}", f"1993 {text}"):
        try:
            Rules.from_description(description)
        except RulesError as error:
            assert str(error)


# -- records ---------------------------------------------------------------------------------------
@st.composite
def mutated_record(draw: st.DrawFn) -> str:
    record = draw(st.sampled_from(corpus().records))
    lines = record.splitlines()
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(lines) - 1))
        how = draw(
            st.sampled_from(["line", "line", "line", "drop", "repeat", "swap", "cut", "insert", "header"])
        )
        if how == "line":
            lines[where] = draw(mutated_line(lines[where]))
        elif how == "drop":
            del lines[where]
        elif how == "repeat":
            lines.insert(where, lines[where])
        elif how == "swap" and where + 1 < len(lines):
            lines[where], lines[where + 1] = lines[where + 1], lines[where]
        elif how == "cut":
            lines = lines[: where + 1]
        elif how == "insert":
            lines.insert(where, draw(ODD_TEXT | WORDS))
        elif how == "header":
            field = draw(st.sampled_from(["rules", "board", "players", "seed", "result", "risk-record"]))
            index = next((i for i, line in enumerate(lines) if line.startswith(field)), 0)
            value = draw(TOKEN | st.builds(" ".join, st.lists(TOKEN, max_size=4)))
            lines[index] = draw(st.sampled_from([f"{field}: {value}", f"{field}:{value}", field, value]))
        if not lines:
            lines = [""]
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n", "\n\n#"]))


def replays_or_refuses(text: str) -> None:
    for verify in (True, False):
        try:
            replay_record(text, verify=verify)
        except RecordError as error:
            assert str(error)


def test_every_kind_of_record_line_with_odd_numbers_replays_or_is_a_record_error() -> None:
    """Each header field and each kind of line (chance outcomes included) of a short record, with
    each token or number in it swapped for an odd one."""
    source = corpus()
    for record in source.records:
        lines = record.splitlines()
        body = lines.index("---") + 1
        short = lines[: body + 40]  # replays in a moment: the first actions and outcomes
        for index, line in enumerate(short):
            if index > body and line in short[body:index]:
                continue
            for variant in odd_variants(line):
                replays_or_refuses("\n".join([*short[:index], variant, *short[index + 1 :]]))
    chance = tuple(line for r in source.records for line in r.splitlines() if line.startswith("~"))
    for line in samples(chance, per_kind=2, key_words=2):
        record = source.records[0].splitlines()
        body = record.index("---") + 1
        for variant in odd_variants(line):
            replays_or_refuses("\n".join([*record[: body + 3], variant, *record[body + 3 : body + 10]]))


@FUZZ
@given(text=st.text(max_size=200) | st.builds("risk-record 1\n{}".format, st.text(max_size=200)))
def test_any_text_replays_or_is_a_record_error(text: str) -> None:
    replays_or_refuses(text)


@settings(FUZZ, max_examples=300)
@given(text=mutated_record())
def test_mutated_records_replay_or_are_record_errors(text: str) -> None:
    replays_or_refuses(text)


@settings(FUZZ, max_examples=60)
@given(text=mutated_record())
def test_uploaded_records_summarize_or_are_record_errors(text: str) -> None:
    """What the server runs on an upload (``POST /api/replay``): a summary, or a ``RecordError`` that
    it answers as ``bad-record``; anything else would be a server error."""
    try:
        summary, _ = summarize_record(text)
    except RecordError as error:
        assert str(error)
    else:
        assert summary["players"]
