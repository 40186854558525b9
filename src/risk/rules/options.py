"""Rulesets: every difference between the editions is a named option; editions are presets.

Each option cites the rulebook lines it comes from (``../shared/rules/rulebooks``). A ruleset is an
immutable value; ``Rules.preset("2008").with_options(fortify="adjacent")`` overrides one option.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from risk.errors import RulesError
from risk.maps import Board
from risk.maps.armies import CLASSIC_TERRITORIES, is_classic_board
from risk.maps.validate import player_counts
from risk.rules.pickling import picklable

# The rulebooks' "3 to 6 players" (2008: 3 to 5) is the classic board's figure, the armies in the
# box: on another board that declares its player counts, the board's maximum takes its place
# (docs/boards.md, "Players"; Rules.player_range).
MOST_PLAYERS = 10  # the most players any board may declare (risk.maps.validate.MAX_PLAYERS)
# The rulebooks' board's territories: 2-player RISK's armies are the books' for it, scaled on a larger
# made board (risk.rules.variants.neutrals).
BOOK_TERRITORIES = CLASSIC_TERRITORIES


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    choices: tuple[Any, ...] | None  # None: any integer in ``bounds``
    description: str
    source: str
    bounds: tuple[int, int] = (0, 1000)


OPTIONS: dict[str, OptionInfo] = {
    info.name: info
    for info in [
        OptionInfo(
            "game",
            ("world", "secret-mission", "capital", "two-player", "mission", "team"),
            "which game of the rulebooks: world domination, Secret Mission RISK, Capital RISK, "
            "2-player RISK with neutral armies, Mission RISK or Team RISK (select with --game; it sets "
            "the options the game needs)",
            "1993: Secret Mission, Capital, 2-Player variants; 2003: 2-Player, Mission RISK; 2008: Games 1-4",
        ),
        OptionInfo(
            "players",
            None,
            "the player counts of the world-domination game, as 'min-max' (a board that declares its "
            "player counts replaces the 6 by its most, up to 10; docs/boards.md)",
            "1993 and 2003: 3 to 6; 2008 Classic RISK: 3-5 players",
        ),
        OptionInfo(
            "starting_armies",
            None,
            "starting armies by player count, as '3:35,4:30,...' (a board that declares its own gives "
            "them instead, unless this option is set or the game sets its own)",
            "all editions: 3:35, 4:30, 5:25, 6:20",
        ),
        OptionInfo(
            "setup",
            ("claim", "deal"),
            "claim: players claim empty territories one at a time in turn; "
            "deal: the territory cards are dealt out and each player holds the territories dealt",
            "1993 and 2003: claimed in turn; 2008 Secret Mission: 'deals out all the territory cards'",
        ),
        OptionInfo(
            "first_turn",
            ("first-placer", "roll"),
            "who takes the first turn: whoever placed the first army, or a new die roll",
            "1993: 'Whoever placed the first army takes the first turn'; "
            "2003: 'Each player rolls one die again to see who starts the game'",
        ),
        OptionInfo(
            "card_values",
            ("escalating", "plus-one", "fixed"),
            "escalating: 4, 6, 8, 10, 12, 15, then +5 per set traded by anyone; plus-one: 4, 5, 6, 7...; "
            "fixed: 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10 (a wild completes the set)",
            "1993 set values table; 1993 experts 'increase by only 1 per set'; 2003 Mission/Team RISK chart",
        ),
        OptionInfo(
            "card_value_cap",
            None,
            "a house rule: no set of cards is worth more than this many armies, whatever the chart says "
            "(0: no cap); the +2 for a held territory shown on a traded card still comes on top",
            "ours, not in any rulebook: a house rule players ask for, so that escalating sets do not "
            "decide a long game",
            (0, 1000),
        ),
        OptionInfo(
            "forced_trade_at",
            None,
            "a player who starts a turn with this many cards or more must trade until below it",
            "1993: 'You MUST trade if you have 5 or 6 cards'; 2003: 'When you have 5 or more cards, you "
            "must turn in a set'; 2008: 'If you have five or six cards ... you must trade'",
            (3, 100),
        ),
        OptionInfo(
            "territory_card_bonus",
            ("none", "once-per-turn", "once-per-trade"),
            "+2 armies on a held territory shown on a traded card",
            "1993: 'Max 2 extra armies per turn from this bonus'; 2003: no such bonus; "
            "2008: 'If any of the three cards you trade in shows ... you receive two extra troops'",
        ),
        OptionInfo(
            "elimination_trade_at",
            None,
            "after taking an eliminated player's cards, holding this many or more forces trades "
            "at once until 4 or fewer are left",
            "1993: 'If this gives you 6+ cards, you must immediately trade'; 2003: 'now 5 or more'; "
            "2008: 'six or more cards ... reduce your hand to four or fewer'",
            (5, 100),
        ),
        OptionInfo(
            "fortify",
            ("adjacent", "chain", "extended"),
            "the free move: into one adjacent territory, or along a chain of your own territories; "
            "extended: any number of such moves",
            "1993: 'from ONE territory to ONE adjacent territory'; 2003 and 2008: 'Territories are "
            "connected if all the territories in between are also controlled by you'",
        ),
        OptionInfo(
            "card_draw",
            ("after-fortify", "before-fortify"),
            "when the card for a conquest is drawn: at the end of the turn, or when attacking ends",
            "1993: 'At the end of any turn'; 2003: step 4 after fortifying; 2008: 'When you are finished "
            "attacking ... take the top territory card. Next, you can maneuver'",
        ),
        OptionInfo(
            "army_cap",
            None,
            "at most this many armies on one territory, the excess lost (0: no limit)",
            "1993 experts: 'Max 12 armies on a single territory. Excess armies are lost.'",
            (0, 10000),
        ),
        OptionInfo(
            "attack_advantage",
            ("off", "on"),
            "holding the card of the attacking or attacked territory lets the attacker re-roll any one "
            "die per battle",
            "1993 experts, 'Advantage When Attacking': 'You may re-roll any one die per battle involving "
            "that territory ... Cannot be used when defending.'",
        ),
        OptionInfo(
            "commanders",
            ("off", "on"),
            "once per turn while attacking, turn one of the dice just rolled into a 6",
            "1993 experts, 'Commanders': 'Once per turn while attacking, you may change one of the dice "
            "you've just rolled to show 6'",
        ),
        OptionInfo(
            "capitals_to_win",
            ("all", "short"),
            "Capital RISK: capture every opposing headquarters, or the shorter game (4 players: any 2; "
            "5 or 6 players: any 3)",
            "1993 and 2008 Capital RISK: 'If you wish, you can shorten the game even further'",
        ),
        OptionInfo(
            "neutrals",
            None,
            "2-player RISK: the number of neutral armies (1993 and 2008: one; 2003: four)",
            "1993: 'a third neutral army set'; 2003: '24 units for each of the 4 neutrals'",
            (0, 4),
        ),
        OptionInfo(
            "neutral_mode",
            ("passive", "active"),
            "2-player RISK: passive neutrals are roadblocks; active ones can be bribed with cards, become "
            "allies, be reinforced, attack and fortify for the player they are allied with",
            "2003: 'In the first version, these neutrals are passive ... In the second version, these "
            "neutrals are active and can be allied with one player or the other.'",
        ),
        OptionInfo(
            "neutral_armies",
            None,
            "2-player RISK: the starting armies of each neutral",
            "1993 and 2008: 40 (as each player); 2003: 24 per neutral",
            (0, 200),
        ),
        OptionInfo(
            "setup_batch",
            None,
            "2-player RISK: own armies placed per setup turn before the neutral armies",
            "1993 and 2008: two at a time; 2003: 'Each player places 3 of his/her units'",
            (1, 10),
        ),
        OptionInfo(
            "neutral_placement",
            ("interleaved", "after-own"),
            "2-player RISK: each setup turn places own armies then neutral ones, or all own armies "
            "first and then the neutral armies one at a time",
            "1993: '2 of yours on your territories, then 1 neutral'; 2003: 'then 1 unit for each "
            "neutral'; 2008: 'until you have run out ... Then, take turns placing one neutral troop'",
        ),
        OptionInfo(
            "fog",
            ("off", "on"),
            "fog of war: a player sees the owner and armies of its own territories (its team's, its "
            "allied neutral's) and of those next to them, and only what it last saw of the others "
            "(docs/rules.md, 'Fog of war')",
            "ours, not in any rulebook: a setting of the online games (Warzone, the official app) that "
            "players ask for; every rule of the edition stays as it is",
        ),
    ]
}


def _parse_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def _parse_armies(text: str) -> tuple[tuple[int, int], ...]:
    pairs = []
    for part in text.split(","):
        count, _, armies = part.partition(":")
        pairs.append((int(count), int(armies)))
    return tuple(sorted(pairs))


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete ruleset. Field names are the option names (with ``_`` for ``-``)."""

    name: str = "custom"
    game: str = "world"
    players: tuple[int, int] = (3, 6)
    starting_armies: tuple[tuple[int, int], ...] = ((3, 35), (4, 30), (5, 25), (6, 20))
    setup: str = "claim"
    first_turn: str = "first-placer"
    card_values: str = "escalating"
    card_value_cap: int = 0
    forced_trade_at: int = 5
    territory_card_bonus: str = "once-per-turn"
    elimination_trade_at: int = 6
    fortify: str = "adjacent"
    card_draw: str = "after-fortify"
    army_cap: int = 0
    attack_advantage: str = "off"
    commanders: str = "off"
    capitals_to_win: str = "all"
    neutrals: int = 0
    neutral_armies: int = 0
    neutral_mode: str = "passive"
    setup_batch: int = 1
    neutral_placement: str = "interleaved"
    fog: str = "off"
    overrides: tuple[str, ...] = field(default=(), compare=False)

    # -- construction --------------------------------------------------------------------------
    @staticmethod
    def preset(name: str) -> Rules:
        key = name.strip().lower()
        key = PRESET_ALIASES.get(key, key)
        if key not in PRESETS:
            known = ", ".join(
                f"{p} ({', '.join(a for a, t in PRESET_ALIASES.items() if t == p)})" for p in PRESETS
            )
            raise RulesError(f"no preset called {name!r}; presets: {known}")
        return PRESETS[key]

    def with_options(self, **values: Any) -> Rules:
        """A copy with options changed; values may be given as text (``fortify="chain"``)."""
        changes: dict[str, Any] = {}
        for raw_name, raw_value in values.items():
            name = raw_name.replace("-", "_")
            if name not in OPTIONS:
                known = ", ".join(n.replace("_", "-") for n in OPTIONS)
                raise RulesError(f"no rule option called {raw_name!r}; options: {known}")
            # A game name may be an alias: for_game resolves and checks it.
            changes[name] = str(raw_value) if name == "game" else _coerce(OPTIONS[name], raw_value)
        base = self
        if "game" in changes:
            # A game brings the settings it needs; the other overrides apply on top of them.
            base = self.for_game(changes.pop("game"))
            if not changes:
                return base
        merged = dataclasses.replace(base, **changes)
        overrides = tuple(dict.fromkeys((*base.overrides, *changes)))
        return dataclasses.replace(merged, overrides=overrides)

    def with_option_text(self, assignments: list[str]) -> Rules:
        """Apply ``name=value`` strings, as given on the command line."""
        values: dict[str, str] = {}
        for text in assignments:
            name, sep, value = text.partition("=")
            if not sep or not name.strip():
                raise RulesError(f"option {text!r} is not of the form name=value")
            values[name.strip()] = value.strip()
        return self.with_options(**values)

    def for_game(self, game: str) -> Rules:
        """These rules set up for one of the rulebooks' games (by name or alias)."""
        key = GAME_ALIASES.get(game.strip().lower(), game.strip().lower())
        if key not in GAMES:
            names = ", ".join(GAMES)
            raise RulesError(f"no game called {game!r}; games: {names}")
        edition = self.name
        allowed = GAMES[key]
        if edition in PRESETS and edition not in allowed:
            raise RulesError(
                f"the {edition} rulebook has no {key} game (it is in the {' and '.join(allowed)} rulebooks)"
            )
        settings = dict(GAME_SETTINGS.get((key, edition), GAME_SETTINGS.get((key, "*"), {})))
        overrides = tuple(dict.fromkeys((*(o for o in self.overrides if o != "game"), "game")))
        if key == "world":
            overrides = tuple(o for o in overrides if o != "game")
        return dataclasses.replace(self, game=key, overrides=overrides, **settings)

    # -- queries -------------------------------------------------------------------------------
    def player_range(self, board: Board | None = None) -> tuple[int, int]:
        """The player counts these rules allow on ``board``: the rules' range, its most (the box's
        armies) replaced by the board's most when the board declares its counts and is not the
        rulebooks' board, within the board's counts. A range set with ``players``, and a game of one
        count (2-player RISK), stay as they are. Empty (low above high) when no count suits both."""
        low, high = self.players
        if board is None or board.players is None:
            return low, high
        board_low, board_high = board.players
        if low < high and "players" not in self.overrides and not is_classic_board(board):
            high = board_high
        return max(low, board_low), min(high, board_high)

    def starting_armies_for(self, player_count: int, board: Board | None = None) -> int:
        """Each player's starting armies: the board's figure when it declares one, unless the game
        (2-player RISK) or the ``starting_armies`` option sets them."""
        if board is not None and board.starting_armies and not self._own_starting_armies():
            for count, armies in board.starting_armies:
                if count == player_count:
                    return armies
            raise RulesError(f"the {board.name} board gives no starting armies for {player_count} players")
        for count, armies in self.starting_armies:
            if count == player_count:
                return armies
        raise RulesError(f"the {self.name} rules give no starting armies for {player_count} players")

    def _own_starting_armies(self) -> bool:
        """Whether these rules' starting armies win over a board's: set as an option, or by the game."""
        if "starting_armies" in self.overrides:
            return True
        settings = GAME_SETTINGS.get((self.game, self.name), GAME_SETTINGS.get((self.game, "*"), {}))
        return "starting_armies" in settings

    def check_player_count(self, player_count: int, board: Board | None = None) -> None:
        """Refuse, saying why, a player count these rules (on ``board``, when given) cannot play."""
        if board is not None and board.players is not None:
            board_low, board_high = board.players
            # Too many for the board, or too few for it but not for the rules: the board is why.
            if player_count > board_high or self.players[0] <= player_count < board_low:
                board_counts = player_counts(board_low, board_high)
                raise RulesError(f"the {board.name} board is for {board_counts}, not {player_count}")
        low, high = self.player_range(board)
        if not low <= player_count <= high:
            # Every edition has a 2-player game: say where it is (issue 11, item 13).
            hint = ": for two players, use --game two-player" if player_count == 2 else ""
            # A range the players option can widen to the board's most (not 2-player RISK's one count).
            most = board.players[1] if board is not None and board.players is not None else 0
            if self.players[0] < self.players[1] and high < player_count <= most and board is not None:
                hint += f" (the {board.name} board takes up to {most}: set -o players=LOW-HIGH)"
            if low > high:  # no count suits both the rules and the board: the rules' own range
                low, high = self.players
            raise RulesError(
                f"the {self.name} rules are for {player_counts(low, high)}, not {player_count}{hint}"
            )
        counts, why = SEAT_COUNTS.get(self.game, (None, ""))
        if counts is not None and player_count not in counts:
            raise RulesError(f"{why}, not {player_count}")
        self.starting_armies_for(player_count, board)  # a count the table has (the board's or the rules')

    def option_values(self) -> dict[str, str]:
        """Every option with its value, as text (the form ``with_options`` accepts)."""
        return {name.replace("_", "-"): format_option(name, getattr(self, name)) for name in OPTIONS}

    def describe(self) -> str:
        """The one-line form used in record headers: the preset and the overridden options."""
        # The game first: it sets options that the other overrides may change again.
        names = sorted(self.overrides, key=lambda n: n != "game")
        extra = [f"{n.replace('_', '-')}={format_option(n, getattr(self, n))}" for n in names]
        return " ".join([self.name, *extra])

    @staticmethod
    def from_description(text: str) -> Rules:
        parts = text.split()
        if not parts:
            raise RulesError("empty ruleset description")
        return Rules.preset(parts[0]).with_option_text(parts[1:])


def format_option(name: str, value: Any) -> str:
    if name == "players":
        return f"{value[0]}-{value[1]}"
    if name == "starting_armies":
        return ",".join(f"{c}:{a}" for c, a in value)
    return str(value)


def _coerce(info: OptionInfo, value: Any) -> Any:
    try:
        if info.name == "players":
            parsed = _parse_range(value) if isinstance(value, str) else tuple(value)
            if not 2 <= parsed[0] <= parsed[1] <= MOST_PLAYERS:
                raise ValueError
            return parsed
        if info.name == "starting_armies":
            parsed = _parse_armies(value) if isinstance(value, str) else tuple(sorted(value))
            if any(c < 2 or a < 1 for c, a in parsed):
                raise ValueError
            return parsed
        if info.choices is not None:
            text = str(value).strip().lower()
            if text not in info.choices:
                raise ValueError
            return text
        number = int(value)
        if not info.bounds[0] <= number <= info.bounds[1]:
            raise ValueError
        return number
    except (ValueError, TypeError, IndexError):
        if info.choices:
            allowed = " | ".join(map(str, info.choices))
        elif info.name in ("players", "starting_armies"):
            allowed = "see `risk rules`"
        else:
            allowed = f"a whole number from {info.bounds[0]} to {info.bounds[1]}"
        name = info.name.replace("_", "-")
        raise RulesError(f"bad value {value!r} for option {name!r} (allowed: {allowed})") from None


PRESETS: dict[str, Rules] = {
    "1993": Rules(name="1993"),
    "2003": Rules(
        name="2003",
        first_turn="roll",
        territory_card_bonus="none",
        elimination_trade_at=5,
        fortify="chain",
        card_draw="after-fortify",
    ),
    "2008": Rules(
        name="2008",
        players=(3, 5),
        starting_armies=((3, 35), (4, 30), (5, 25)),
        territory_card_bonus="once-per-trade",
        elimination_trade_at=6,
        fortify="chain",
        card_draw="before-fortify",
    ),
}

# The games of the rulebooks and the editions that have them.
GAMES: dict[str, tuple[str, ...]] = {
    "world": ("1993", "2003", "2008"),
    "secret-mission": ("1993", "2008"),
    "capital": ("1993", "2008"),
    "two-player": ("1993", "2003", "2008"),
    "mission": ("2003",),
    "team": ("2003",),
}
GAME_ALIASES: dict[str, str] = {
    "world-domination": "world",
    "domination": "world",
    "classic": "world",
    "global-domination": "world",
    "secret": "secret-mission",
    "secret-missions": "secret-mission",
    "mission-secret": "secret-mission",
    "capitals": "capital",
    "capital-risk": "capital",
    "headquarters": "capital",
    "2-player": "two-player",
    "two": "two-player",
    "2p": "two-player",
    "duel": "two-player",
    "mission-risk": "mission",
    "missions": "mission",
    "four-missions": "mission",
    "team-risk": "team",
    "teams": "team",
}
_TWO_PLAYER_1993 = {
    "players": (2, 2),
    "starting_armies": ((2, 40),),
    "setup": "deal",
    "neutrals": 1,
    "neutral_armies": 40,
    "setup_batch": 2,
    "neutral_placement": "interleaved",
}
GAME_SETTINGS: dict[tuple[str, str], dict[str, Any]] = {
    # 1993: "Territories dealt evenly via RISK cards"; 2008: "deals out all the territory cards" and
    # "Each player rolls one die, and whoever rolls the highest number goes first".
    ("secret-mission", "1993"): {"setup": "deal"},
    ("secret-mission", "2008"): {"setup": "deal", "first_turn": "roll"},
    ("secret-mission", "*"): {"setup": "deal"},
    ("two-player", "1993"): _TWO_PLAYER_1993,
    ("two-player", "2008"): {**_TWO_PLAYER_1993, "neutral_placement": "after-own"},
    # 2003: "The two players start with 36 units each. Set out 24 units for each of the 4 neutrals";
    # "Players then roll to see who goes first."
    ("two-player", "2003"): {
        "players": (2, 2),
        "starting_armies": ((2, 36),),
        "setup": "deal",
        "neutrals": 4,
        "neutral_armies": 24,
        "setup_batch": 3,
        "neutral_placement": "interleaved",
        "first_turn": "roll",
    },
    ("two-player", "*"): _TWO_PLAYER_1993,
    # 2003 Mission RISK: "use the following chart ... 3 Infantry 4, 3 Cavalry 6, 3 Artillery 8, 1 of each 10"
    ("mission", "2003"): {"card_values": "fixed"},
    ("mission", "*"): {"card_values": "fixed"},
    # 2003 Team RISK: "For 4 or 6 Players in 2 Teams"; the same fixed chart as Mission RISK.
    ("team", "2003"): {"card_values": "fixed", "players": (4, 6)},
    ("team", "*"): {"card_values": "fixed", "players": (4, 6)},
}

# Games whose player counts are not a range: the counts allowed, and why.
SEAT_COUNTS: dict[str, tuple[tuple[int, ...], str]] = {
    "team": ((4, 6), "Team RISK is for 4 or 6 players in two teams"),  # 2003: "For 4 or 6 Players in 2 Teams"
}

PRESET_ALIASES: dict[str, str] = {
    "parker": "1993",
    "parker-brothers": "1993",
    "classic-1993": "1993",
    "1993-parker-brothers": "1993",
    "global": "2003",
    "global-domination": "2003",
    "40th": "2003",
    "40th-anniversary": "2003",
    "classic": "2008",
    "hasbro-2008": "2008",
    "2008-classic": "2008",
}

picklable(Rules)
