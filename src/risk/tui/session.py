"""The terminal game's logic, without a terminal: a :class:`PlaySession` takes one line of input
and returns what to show (rich renderables). The command layer (``risk.tui.command``) only reads
lines and prints; tests drive a session directly.

A session holds the game and its seats (humans at the keyboard, or bots). After every input it
plays the bots, any blitz under way, queued setup placements and automatic defences, until a
human must answer or the game is over. What it shows a human goes through that human's
:class:`~risk.view.View`; bots' turns are summarised in one line each.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from risk.bots import DEFAULT_BOT, Bot, bot_label, make_bot
from risk.bots.levels import level_of
from risk.errors import IllegalActionError, NotationError, RiskError
from risk.odds import invasion
from risk.record import write_record
from risk.rules.actions import Action, Attack, Capital, ClaimMission, Defend, EndTurn, Fortify, Occupy, Place
from risk.rules.game import Game, Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import ranked_mission
from risk.rules.variants import game_title
from risk.rules.variants.capital import capitals_needed
from risk.rules.variants.fog import action_territories, sees
from risk.rules.variants.missions import claimable_missions, mission_complete
from risk.simulate import bot_seed
from risk.textfile import write_text_file
from risk.tui.render import (
    HEADQUARTERS_MARK,
    ClearScreen,
    MapView,
    Palette,
    card_label,
    front_view,
    hand_text,
    hint,
    menu_renderable,
    mission_cards_text,
    mission_text,
    neighbours_text,
    percent,
    phase_label,
    players_line,
    players_table,
    plural,
    render_text,
    secret_mission_text,
    sentence,
    stack_text,
    status_line,
    team_names,
)
from risk.tui.rounds import Rounds
from risk.tui.saves import SEATS_COMMENT, STATUS_COMMENT, SavedSettings, new_save_path, saves_dir
from risk.tui.shortforms import (
    META_COMMANDS,
    QUIT_WORDS,
    BlitzOrder,
    Choice,
    ChoiceNeeded,
    SetupOrder,
    actions_now,
    choices,
    completions,
    enemy_of,
    interpret,
    known_word,
    most_attack_dice,
    most_defence_dice,
    mover,
    own_force,
    refusal,
    trade_choices,
    two_territories,
)
from risk.tui.summary import Effect, SetupLog, TurnLog, apply_and_measure, battle_line
from risk.view import SPECTATOR, View

# The lines `help` may take, the prompt below it making 24: a terminal of 80 by 24 shows it whole.
HELP_SCREEN_LINES = 23
DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")  # up to 10 players
HUMAN = "human"
DEFAULT_MAX_TURNS = 1000
SETUP_PHASES = (Phase.CLAIM, Phase.SETUP_PLACE)
# The goals with missions to show (`missions`).
MISSION_GOALS = (GoalKind.SECRET_MISSION, GoalKind.MISSION_CARDS)
MAX_ODDS_ARMIES = 1000  # keeps `odds A D` instant


@dataclass
class Seat:
    """Who plays a seat: a human at the keyboard (``bot is None``) or a bot."""

    kind: str  # "human", a level's name or a bot's name
    bot: Bot | None = None

    @classmethod
    def human(cls) -> Seat:
        return cls(HUMAN)

    @classmethod
    def computer(cls, bot_name: str, seed: int) -> Seat:
        bot = make_bot(bot_name, seed)
        level = level_of(bot_name)
        return cls(level.name if level is not None else bot.name, bot)  # a level keeps its name

    @property
    def is_human(self) -> bool:
        return self.bot is None


def make_seats(kinds: Sequence[str], game_seed: int) -> list[Seat]:
    """Seats from their kinds ("human" or a bot name); bots get the seeds bot-only games use.
    Only players have seats: the neutral armies of 2-player RISK never act."""
    return [
        Seat.human() if kind == HUMAN else Seat.computer(kind, bot_seed(game_seed, i))
        for i, kind in enumerate(kinds)
    ]


def record_text(
    game: Game, seats: Sequence[Seat], status: str = "", settings: SavedSettings | None = None
) -> str:
    """The game's full record, with a comment naming each player's kind (for ``--load``), one
    saying where the game is (for the list of saves), and the session's settings."""
    text = write_record(game) + f"{SEATS_COMMENT} {','.join(seat.kind for seat in seats)}\n"
    text += f"{STATUS_COMMENT} {status}\n" if status else ""
    return text + (settings.comments() if settings is not None else "")


def seat_kinds_in_record(text: str) -> list[str] | None:
    """The seat kinds a saved game names in its comment, if it has one."""
    for line in text.splitlines():
        if line.startswith(SEATS_COMMENT):
            kinds = [kind.strip() for kind in line[len(SEATS_COMMENT) :].split(",")]
            return kinds if all(kinds) else None
    return None


@dataclass
class Blitz:
    """An attack repeated with the most dice until the target falls or the source is down to 1."""

    source: int
    target: int
    attacker: int
    defenders: tuple[int, ...]  # the target's owner; in Team RISK everyone with armies there
    rolls: int = 0
    lost: int = 0
    killed: int = 0
    conquered: bool = False
    after: list[Text] = field(default_factory=list)  # news shown after the blitz's own line


class PlaySession:
    """One game at the terminal: ``start()``, then ``handle(line)`` until ``finished``.

    The game is saved as it goes (``autosave``), after every line typed, at the end of input, on
    quitting and at the end of the game: to ``save_path`` if given, else back to ``loaded_from``,
    else to a new file in ``directory`` (default: the saves folder in the user's data folder,
    :func:`risk.tui.saves.saves_dir`). ``save_file`` is that file. Without ``autosave``
    only ``save``, and the end of the game, write it. ``auto_defend``: humans always defend with
    the most dice. ``settings``: those of a resumed game (who defends automatically, whose setup
    or turn the computer plays), kept in every save.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        save_path: Path | None = None,
        auto_defend: bool = False,
        directory: Path | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
        loaded_from: Path | None = None,
        autosave: bool = True,
        settings: SavedSettings | None = None,
    ) -> None:
        if len(seats) != game.humans:
            raise ValueError(f"{len(seats)} seats for {game.humans} players")
        self.game = game
        self.seats = list(seats)
        self.save_path = save_path
        self.auto_defend = auto_defend  # every human defends with the most dice, unasked
        # Humans who turned automatic defence on in the game (`autodefend`).
        self.auto_defenders: set[int] = set()
        self._autopilot: dict[int, int | None] = {}  # player -> turn it plays (None: the setup)
        # Enter at the defence question: the most dice for the rest of that attack this turn, by
        # (turn, from, to); the defender sees the rolls.
        self._defending: set[tuple[int, int, int]] = set()
        self.directory = directory or saves_dir()
        self.autosave = autosave
        self._save_file: Path | None = None  # chosen on first use (see save_file)
        self._quitting = False  # `quit` typed: asking whether to leave
        self._show_map_when_asked = False  # a resumed game: the board first
        self.max_turns = max_turns
        self.loaded_from = loaded_from  # where a resumed game came from: `save` alone writes it back
        self.humans = [i for i, seat in enumerate(self.seats) if seat.is_human]
        if settings is not None:  # a resumed game: its humans' settings (a seat now a bot has none)
            self.auto_defenders = {p for p in settings.auto_defenders if p in self.humans}
            self._autopilot = {p: turn for p, turn in settings.autopilot.items() if p in self.humans}
        labels = [
            ("you" if len(self.humans) == 1 else HUMAN) if seat.is_human else f"bot: {bot_label(seat.kind)}"
            for seat in self.seats
        ]
        labels += ["neutral"] * (len(game.players) - game.humans)
        self.palette = Palette.for_players(game.players, labels, game.neutral, game.team)
        self.viewer = self.humans[0] if self.humans else SPECTATOR
        self.finished = False
        self.record_path: Path | None = None  # where the finished game's record went
        self.journal: list[Text] = []  # every turn's summary line, for `log`
        self._output: list[RenderableType] = []
        self._log: TurnLog | SetupLog | None = None
        self._log_shown = False  # whether the open log holds moves the human did not make by hand
        self._shown_so_far: tuple[int, int] | None = None  # (player, turn) whose turn so far was shown
        self._blitz: Blitz | None = None
        self._setup_queue: dict[tuple[int, int], list[int]] = {}  # (player, seat placed for) -> where
        self._helpers: dict[int, Bot] = {}
        self._asked: set[tuple[int, ...]] = set()  # the questions put to humans this turn
        self._asked_turn = -1
        self._setup_map_shown: set[int] = set()  # players shown the map in the setup (2-player
        # RISK asks again for each neutral)
        self._setup_map_due = False  # a `place T N` has been carried out: the map again
        self._turn_shown: tuple[int, int] | None = None  # (player, turn) whose opening screen was shown
        self._forced_menu: list[tuple[str, str]] | None = None  # a menu of a few actions, e.g. sets
        self._menu_key: tuple[int, int] | None = None  # (history length, player) of the menu shown
        self._saved_at = len(game.history)
        self._quiet = False  # no human left: the bots play on without a running commentary
        self.rounds = Rounds(game)  # rounds as players count them (game.turn counts player-turns)

    # ------------------------------------------------------------------------------------------
    # the public surface: start, handle a line, end of input, the prompt, completions
    # ------------------------------------------------------------------------------------------
    def start(self) -> list[RenderableType]:
        game = self.game
        title = Text("RISK", style="bold")
        title.append(f" · {game_title(game.rules.game)} · rules {game.rules.describe()} · seed {game.seed}")
        self._say(Rule(title))
        seats = Text("Players: ")
        for p in range(game.humans):
            if p:
                seats.append(", ")
            seats.append_text(self.palette.name(p))
            seats.append(f" ({self.palette.labels[p]})")
        if game.humans < len(game.players):
            seats.append(" · neutral armies: ")
            seats.append_text(
                Text(", ").join(self.palette.name(p) for p in range(game.humans, len(game.players)))
            )
        self._say(seats)
        if game.team is not None:
            self._say(
                Text("Teams: ").append_text(Text(" · ").join(self.palette.team_label(t) for t in (0, 1)))
            )
        if self.humans:
            self._say(
                Text(
                    "Type help for commands and your choices; Tab completes names; quit leaves.", style="dim"
                )
            )
            self._say(self._game_intro())
            if self.fogged:
                self._say(
                    hint(
                        "Fog of war: you see your own territories and those next to them; the rest of the "
                        "board shows what you last saw there, dimmed. The log tells only what you saw."
                    )
                )
        if game.is_over:
            self._finish(write=False)
        else:
            if self.loaded_from is not None:
                self._show_map_when_asked = True
            self._advance()
            self._autosave()
        return self._take_output()

    def handle(self, line: str) -> list[RenderableType]:
        """Act on one line of input and play on until a human must answer again."""
        text = line.strip()
        words = text.lower().split()
        if self.finished:
            self._say("The game is over." if self.game.is_over else "The session has ended.")
            return self._take_output()
        if self._quitting:
            self._quitting = False
            if words[:1] in (["y"], ["yes"], *([w] for w in QUIT_WORDS)):
                self._leave("Quitting.")
            else:
                self._say("Playing on.")
                self._asked = set()
                self._ask()
            return self._take_output()
        if not words:
            self._answer_default()
        elif words == ["mission"]:
            self._mission_shortcut()
        elif words[0] in META_COMMANDS or words[0] == "?":
            self._meta(words[0], words[1:], text)
        elif len(words) == 1 and words[0].isdigit():
            # A bare number is a count where the question is "how many", else a numbered choice.
            if self.game.phase == Phase.DEFEND:
                self._act(f"defend {words[0]}")
            elif self.game.phase == Phase.OCCUPY:
                self._act(f"move {words[0]}")
            else:
                self._pick(int(words[0]))
        else:
            self._act(text)
        self._autosave()
        return self._take_output()

    def end_of_input(self) -> list[RenderableType]:
        """Input ended (Ctrl-D): leave cleanly, saving the game (see ``autosave``)."""
        if not self.finished:
            self._leave("Input ended.")
        return self._take_output()

    @property
    def prompt(self) -> str:
        game = self.game
        if self.finished or game.is_over:
            return "> "
        if self._quitting:
            return "Quit? y/n> "
        player = game.to_act
        name = game.players[player]
        phase = game.phase
        if phase == Phase.CLAIM:
            return f"{name} claim> "
        if phase == Phase.SETUP_PLACE:
            seat = game.placing_for
            if seat != player:  # 2-player RISK: a neutral's army
                return f"{name} place a {game.players[seat]} army ({game.setup_armies[seat]} left)> "
            return f"{name} place ({game.setup_armies[player]} left)> "
        if phase == Phase.CHOOSE_CAPITAL:
            return f"{name} headquarters> "
        if phase == Phase.TURN_END:
            return f"{name} end of turn> "
        if phase == Phase.REINFORCE:
            if game.must_trade(player):
                return f"{name} trade ({len(game.hands[player])} cards)> "
            return f"{name} reinforce ({game.pending} to place)> "
        if phase == Phase.ELIMINATION_TRADE:
            if game.must_trade(player):
                return f"{name} trade ({len(game.hands[player])} cards)> "
            return f"{name} place ({game.pending} to place)> "
        if phase == Phase.DEFEND:
            most = most_defence_dice(self.game)
            attack = game.pending_attack
            # Team RISK: whoever has the most armies there defends (a tied territory has no owner).
            defender = game.owner[attack[1]] if attack is not None and game.team is None else player
            verb = "defend" if defender == player else f"defend {game.players[defender]} with"
            return f"{name} {verb} 1-{most} [{most}]> " if most > 1 else f"{name} {verb} [1]> "
        if phase == Phase.OCCUPY:
            low, high = game.occupy_range()
            return f"{name} move {low}-{high} [{high}]> "
        if phase == Phase.ATTACK:
            return f"{name} attack> "
        if phase == Phase.FORTIFY:
            return f"{name} fortify> "
        return f"{name} {phase_label(phase)}> "

    def completions(self, line: str) -> list[str]:
        """Words that could complete the last word of ``line`` (for readline's Tab)."""
        return completions(self.game, line, self.viewer)

    # ------------------------------------------------------------------------------------------
    # output
    # ------------------------------------------------------------------------------------------
    def _say(self, renderable: RenderableType) -> None:
        if not self._quiet:
            self._output.append(renderable)

    def _warn(self, message: str) -> None:
        self._say(Text(message, style="red"))

    def _take_output(self) -> list[RenderableType]:
        output, self._output = self._output, []
        return output

    def _view(self) -> View:
        return View(self.game, self.viewer)

    # ------------------------------------------------------------------------------------------
    # input: meta commands, numbered choices, actions and their short forms
    # ------------------------------------------------------------------------------------------
    def _meta(self, word: str, args: list[str], text: str) -> None:
        view = self._view()
        if word in ("help", "?"):
            table = help_table(teams=self.game.team is not None, goal=view.goal.kind)
            self._say(table)
            self._show_menu(room=HELP_SCREEN_LINES - table.row_count)
        elif word == "moves":
            self._show_menu()
        elif word == "map":
            self._say(MapView(view, self.palette))
            self._say(status_line(view, self.palette, self.rounds.current))
        elif word in ("hand", "cards"):
            self._say(hand_text(view, self.palette, self._trade_commands()))
        elif word == "missions":
            self._show_missions()
        elif word in ("players", "status"):
            self._say(players_table(view, self.palette))
            self._say(status_line(view, self.palette, self.rounds.current))
        elif word == "odds":
            self._odds(args, text)
        elif word in ("neighbours", "neighbors"):
            self._neighbours(args)
        elif word == "save":
            raw = text.split(None, 1)
            self._save(Path(raw[1]) if len(raw) > 1 else None)
        elif word == "log":
            count = int(args[0]) if args and args[0].isdigit() else 10
            lines = self.journal[-count:] or [Text("Nothing has happened yet.")]
            self._say(Group(*lines))
        elif word == "auto":
            self._start_autopilot()
        elif word == "autodefend":
            self._toggle_auto_defence(args)
        elif word in QUIT_WORDS:
            self._quitting = True
            where = self.save_file if self.autosave or self.save_path else None
            listed = where is not None and where.parent.resolve() == saves_dir().resolve()
            kept = (
                f"The game is saved in {where}; "
                + ("`risk play --load` resumes it." if listed else "how to resume it is shown as you leave.")
                if where
                else "It is not saved."
            )
            self._say(hint(f"Leave the game? {kept} `y` leaves, anything else plays on."))

    def _answer_default(self) -> None:
        """Enter alone: the default answer where the prompt shows one, else a reminder."""
        game = self.game
        if game.phase == Phase.DEFEND:
            # The most dice, and the same for the rest of this attack: one Enter, not one a roll.
            attack = game.pending_attack
            if attack is not None:
                self._defending = {key for key in self._defending if key[0] == game.turn}
                self._defending.add((game.turn, attack[0], attack[1]))
            self._act(f"defend {most_defence_dice(self.game)}")
        elif game.phase == Phase.OCCUPY:
            self._act(f"move {game.occupy_range()[1]}")
        else:
            self._asked = set()
            self._ask()

    def _pick(self, number: int) -> None:
        entries = self._menu_entries()
        if self._menu_key != self._menu_state() or not 1 <= number <= len(entries):
            reason = (
                f"There is no choice {number}."
                if self._menu_key == self._menu_state()
                else "Pick from the current choices:"
            )
            self._warn(reason)
            self._show_menu()
            return
        command = entries[number - 1][0]
        self._say(Text(f"> {command}", style="dim"))
        self._act(command)

    def _act(self, text: str) -> None:
        game = self.game
        player = game.to_act
        try:
            order = interpret(self.game, text)
            if self.fogged:
                if isinstance(order, BlitzOrder):
                    self._refuse_out_of_sight((order.source, order.target))
                elif isinstance(order, SetupOrder):
                    self._refuse_out_of_sight((order.territory,))
                else:
                    self._refuse_out_of_sight(action_territories(order) or ())
            reason = refusal(game, order) if isinstance(order, Action) else None
            if reason is not None:
                raise IllegalActionError(reason)
            if isinstance(order, BlitzOrder):
                game.check(Attack(order.source, order.target, most_attack_dice(game, order.source)))
                self._blitz = Blitz(order.source, order.target, player, self._holders(order.target))
            elif isinstance(order, SetupOrder):
                game.check(Place(order.territory, 1))
                seat = game.placing_for
                count = min(order.armies, game.setup_armies[seat])
                self._setup_queue[(player, seat)] = [order.territory] * count
                whose = "setup" if seat == player else game.players[seat]
                where = game.board.name_of(order.territory)
                if count == 1:
                    self._say(f"Your next {whose} army goes to {where}.")
                else:
                    self._say(f"Your next {count} {whose} armies go to {where}.")
            else:
                self._record(apply_and_measure(game, order), typed=True)
        except ChoiceNeeded as choice:
            self._show_menu(choice.title, choice.entries)
            return
        except NotationError as error:
            word = text.split()[0].lower()
            if known_word(word):
                self._say(
                    hint(f"{sentence(str(error))} Type `help` for commands.", Text("Not understood: ", "red"))
                )
            else:
                self._unknown_word(word)
            return
        except IllegalActionError as error:
            self._refuse(error)
            return
        self._advance()

    def _unknown_word(self, word: str) -> None:
        """A word that is no command: what may be typed now, in this game (not every verb of
        every game), and the likeliest command meant."""
        game = self.game
        line = Text("Not understood: ", "red").append(repr(word))
        close = difflib.get_close_matches(word, [*self._words_now(), *META_COMMANDS], n=1, cutoff=0.6)
        if close:
            line.append_text(hint(f" (did you mean `{close[0]}`?)"))
        if game.is_over or not self.seats[game.to_act].is_human:
            self._say(line.append("."))
            return
        now = " · ".join(f"`{usage}`" for usage in actions_now(game))
        anytime = [
            "help",
            "map",
            "hand",
            "players",
            "neighbours [NAME]",
            "odds FROM TO",
            "log",
            "save",
            "quit",
        ]
        if game.goal.kind in MISSION_GOALS:
            anytime.insert(3, "missions")
        self._say(line.append(". "))
        self._say(hint(f"Now: {now}, or a number from `help`."))
        self._say(hint("Any time: " + " · ".join(f"`{w}`" for w in anytime) + "."))

    def _words_now(self) -> list[str]:
        return [usage.split()[0] for usage in actions_now(self.game)] if not self.game.is_over else []

    def _refuse(self, error: IllegalActionError) -> None:
        """'Not allowed: ...' with the reason as a sentence, the commands in it in bold."""
        self._say(hint(sentence(engine_reason(error)), Text("Not allowed: ", style="red")))

    def _holders(self, territory: int) -> tuple[int, ...]:
        """Whose armies are in ``territory``: its owner; in Team RISK every seat with armies there."""
        game = self.game
        if game.units is None:
            return (game.owner[territory],)
        return tuple(p for p, count in enumerate(game.units[territory]) if count)

    def _trade_commands(self) -> list[Choice]:
        """The sets the player at the keyboard could trade, each once, with what it gives."""
        game = self.game
        if self.viewer < 0 or game.is_over:
            return []
        return trade_choices(game, self.viewer)

    def _odds(self, args: list[str], text: str) -> None:
        game, board = self.game, self.game.board
        try:
            if len(args) == 2 and all(a.isdigit() for a in args):
                # A counts the armies in the attacking territory, as the map and `help`'s choices do.
                armies, defenders = int(args[0]), int(args[1])
                if max(armies, defenders) > MAX_ODDS_ARMIES:
                    raise ValueError(f"at most {MAX_ODDS_ARMIES} armies a side here (risk odds takes more)")
                if armies < 2:
                    raise ValueError("an attack needs at least 2 armies in the territory (one stays behind)")
                attackers = armies - 1
                where = (
                    f"{armies} armies in the attacking territory ({attackers} attack, 1 stays) against "
                    f"{defenders}"
                )
            else:
                attack = two_territories(game, "attack", args, typed_verb="odds")
                view = self._view()
                hidden = [t for t in (attack.source, attack.target) if not view.visible(t)]
                if hidden:  # fog of war: the odds would tell its armies
                    self._say(
                        Text(
                            f"{board.name_of(hidden[0])} is out of your sight (fog of war): "
                            "`odds A D` gives the odds for any armies."
                        )
                    )
                    return
                cannot = self._cannot_attack(attack.source, attack.target)
                if cannot is not None:
                    self._say(Text(sentence(cannot)))
                    return
                # Team RISK: only the attacker's own armies there fight.
                attackers, defenders = own_force(game, attack.source) - 1, game.armies[attack.target]
                where = (
                    f"{board.name_of(attack.source)} ({attackers + 1}) -> "
                    f"{board.name_of(attack.target)} ({defenders})"
                )
            if defenders < 1:
                raise ValueError("the defender needs at least 1 army")
            odds = invasion(attackers, defenders)
        except (RiskError, ValueError) as error:
            self._warn(
                f"{error}. Use odds A D (A armies in the attacking territory, the one that stays "
                "included; D defending) or odds FROM TO."
            )
            return
        win = odds.attacker_wins
        survivors = sum(s * p for s, p in odds.attacker_survivors.items()) / win if win > 0 else 0.0
        self._say(
            Text.assemble(
                f"{where}: the attack takes it ",
                (percent(win, 1, uncertain=attackers > 0), "bold"),
                " of the time, fighting to the last army. "
                f"Expected losses: attacker {odds.expected_attacker_losses:.1f}, defender "
                f"{odds.expected_defender_losses:.1f}"
                + (f"; after a win {survivors:.1f} armies left to move in." if win > 0 else "."),
            )
        )

    def _neighbours(self, args: list[str]) -> None:
        """`neighbours`: every territory of the player's with the enemies beside it; `neighbours T`:
        one territory's neighbours."""
        view = self._view()
        if not args:
            self._say(front_view(view, self.palette))
            return
        territory = self.game.board.find_territory(" ".join(args))
        if territory is None:
            self._say(
                hint(f"No territory is called {' '.join(args)!r}: `neighbours NAME` (Tab completes names).")
            )
            return
        self._say(neighbours_text(view, self.palette, territory))

    def _cannot_attack(self, source: int, target: int) -> str | None:
        """Why there are no odds to give for an attack from ``source`` on ``target``, if so."""
        game, board = self.game, self.game.board
        attacker = mover(game, source)
        if attacker < 0:
            return f"{board.name_of(source)} is not held by anyone yet, so it cannot attack"
        if not enemy_of(game, attacker, target):
            holder = game.owner[target]
            mine = attacker == self.viewer
            if game.team is not None and holder != attacker:
                return f"{board.name_of(target)} is held by a teammate, who is never attacked"
            if mine:
                return f"{board.name_of(target)} is yours: you cannot attack your own territory"
            return f"{board.name_of(target)} is {game.players[holder]}'s own: no one attacks themselves"
        if target not in board.adjacent[source]:
            return (
                f"{board.name_of(target)} is not next to {board.name_of(source)}, so it cannot be "
                "attacked from there"
            )
        force = own_force(game, source)
        if force < 2:
            return (
                f"{board.name_of(source)} has only {plural(force, 'army')}, so it cannot attack: an attack "
                "needs at least 2 (one stays behind)"
            )
        return None

    # ------------------------------------------------------------------------------------------
    # numbered choices
    # ------------------------------------------------------------------------------------------
    def _menu_state(self) -> tuple[int, int]:
        return len(self.game.history), self.game.to_act

    def _menu_entries(self) -> list[Choice]:
        """The numbered choices on screen: a short list just shown (e.g. sets), or every action."""
        if self._forced_menu is not None and self._menu_key == self._menu_state():
            return self._forced_menu
        self._forced_menu = None
        return choices(self.game)

    def _show_menu(
        self, title: str | None = None, entries: list[tuple[str, str]] | None = None, room: int | None = None
    ) -> None:
        """The numbered choices; with ``room``, only if they fit in that many lines of 80 columns
        (else a line that says `moves` lists them), so that `help` fits a terminal of 80 by 24."""
        game = self.game
        if self.finished or game.is_over or not self.seats[game.to_act].is_human:
            return
        menu_entries = self._menu_entries() if entries is None else entries
        menu = menu_renderable(menu_entries, title or f"Your choices ({len(menu_entries)}); type a number:")
        if room is not None and len(render_text([menu], 80).splitlines()) > room:
            self._say(hint(f"Your choices ({len(menu_entries)}): `moves` lists them, numbered."))
            return
        self._forced_menu = None if entries is None else entries
        self._menu_key = self._menu_state()
        self._say(menu)

    # ------------------------------------------------------------------------------------------
    # playing on: bots, blitzes, queued setup placements, automatic defence
    # ------------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play every move no human has to type, then ask the human who must act."""
        game = self.game
        while not game.is_over:
            if self.humans and not any(game.alive[p] for p in self.humans) and not self._quiet:
                self._flush_log()
                self._say(Text("No human player is left: the bots play on to the end.", style="bold"))
                self._quiet = True
            if game.turn > self.max_turns:
                self._stop_unfinished()
                return
            actor = game.to_act
            seat = self.seats[actor]
            if self._blitz is not None and self._blitz_step():
                continue
            if game.phase == Phase.DEFEND and seat.is_human and self._defends_on(actor):
                # Enter said "the rest of this attack": no question.
                # The attacker's turn so far first (as before a question), then the rolls.
                self._show_turn_so_far(actor)
                self._record(apply_and_measure(game, Defend(most_defence_dice(game))), typed=True)
                continue
            if game.phase == Phase.DEFEND and (not seat.is_human or self._auto_defends(actor)):
                chosen = (
                    seat.bot.choose(View(game, actor)) if seat.bot else Defend(most_defence_dice(self.game))
                )
                self._apply_automatic(chosen)
                continue
            if seat.bot is not None:
                self._apply_automatic(seat.bot.choose(View(game, actor)))
                continue
            if self._autopilot_active(actor):
                self._apply_automatic(self._helper(actor).choose(View(game, actor)))
                continue
            queue = self._setup_queue.get((actor, game.placing_for))
            if game.phase == Phase.SETUP_PLACE and queue:
                self._apply_automatic(Place(queue.pop(), 1))
                if not queue:
                    self._setup_map_due = True
                continue
            break
        if self._blitz is not None:
            self._end_blitz()
        if game.is_over:
            self._finish()
        else:
            self._ask()

    def _auto_defends(self, player: int) -> bool:
        """Whether ``player`` defends every attack with the most dice, unasked (`autodefend`)."""
        return self.auto_defend or player in self.auto_defenders

    def _defends_on(self, player: int) -> bool:
        """Whether the human ``player`` rolls this defence without being asked: Enter was pressed
        earlier in this attack. (A single army is never asked: the engine rolls its one die.)"""
        game = self.game
        attack = game.pending_attack
        if attack is None or self._auto_defends(player):
            return False
        return (game.turn, attack[0], attack[1]) in self._defending

    def _toggle_auto_defence(self, args: list[str]) -> None:
        """`autodefend [on|off]`: the player at the keyboard defends with the most dice, unasked."""
        game = self.game
        player = (
            game.to_act if game.phase == Phase.DEFEND and self.seats[game.to_act].is_human else self.viewer
        )
        if player < 0:
            self._warn("Automatic defence is for a player: no one is at the keyboard.")
            return
        if self.auto_defend:
            self._say("Automatic defence is on for everyone (--auto-defend).")
            return
        on = player not in self.auto_defenders if not args else args[0] in ("on", "yes", "1")
        if args and args[0] not in ("on", "off", "yes", "no", "1", "0"):
            self._warn("Type `autodefend on` or `autodefend off` (alone, it switches).")
            return
        if on:
            self.auto_defenders.add(player)
            self._say(
                hint(
                    "Automatic defence is on: you defend every attack with the most dice, without being "
                    "asked; the rolls are in the attacker's turn summary. `autodefend off` to choose again."
                )
            )
        else:
            self.auto_defenders.discard(player)
            self._say(
                hint(
                    "Automatic defence is off: you choose your dice (Enter: the most, for the rest of the "
                    "attack)."
                )
            )
        if on and game.phase == Phase.DEFEND and game.to_act == player:
            self._advance()

    def _apply_automatic(self, action: Action) -> None:
        """Apply a move no one typed (a bot's, a blitz roll, a queued placement)."""
        try:
            effect = apply_and_measure(self.game, action)
        except IllegalActionError as error:
            # A bot that breaks the rules must not end a human's game: note it, play a legal move.
            self._warn(f"(a bot chose an illegal move and was overruled: {error})")
            effect = apply_and_measure(self.game, next(iter(self.game.legal_actions())))
        self._record(effect, typed=False)

    def _blitz_step(self) -> bool:
        """Roll the blitz once more, if it goes on; False when it is over or waits for a defender."""
        game, blitz = self.game, self._blitz
        assert blitz is not None
        if game.phase == Phase.DEFEND:
            return False
        if (
            game.phase != Phase.ATTACK
            or game.current != blitz.attacker
            or game.owner[blitz.target] == blitz.attacker
            or game.owner[blitz.source] != blitz.attacker
            or own_force(game, blitz.source) < 2
        ):
            self._end_blitz()
            return False
        self._apply_automatic(Attack(blitz.source, blitz.target, most_attack_dice(game, blitz.source)))
        return True

    def _end_blitz(self) -> None:
        blitz, board = self._blitz, self.game.board
        assert blitz is not None
        self._blitz = None
        line = Text.assemble(
            ("Blitz ", "bold"),
            f"{board.name_of(blitz.source)} -> {board.name_of(blitz.target)}: "
            f"{blitz.rolls} roll{'s' if blitz.rolls != 1 else ''}; ",
            self.palette.name(blitz.attacker),
            f" lost {blitz.lost}, ",
            Text(" and ").join(self.palette.name(p) for p in blitz.defenders),
            f" lost {blitz.killed}. ",
        )
        if blitz.conquered:
            line.append(f"{board.name_of(blitz.target)} is conquered!", style="bold")
        else:
            line.append(
                f"{board.name_of(blitz.source)} is down to {self.game.armies[blitz.source]}; "
                f"{board.name_of(blitz.target)} holds with {self.game.armies[blitz.target]}."
            )
        self._say(line)
        for news in blitz.after:
            self._say(news)

    def _autopilot_active(self, player: int) -> bool:
        if player not in self._autopilot:
            return False
        active = self._autopilot_on(player)
        if not active:
            del self._autopilot[player]
        return active

    def _autopilot_on(self, player: int) -> bool:
        """Whether the setup or turn that ``auto`` handed to the computer is still going on."""
        game, turn = self.game, self._autopilot[player]
        if turn is None:
            return game.phase in SETUP_PHASES
        return game.turn == turn and game.current == player

    def saved_settings(self) -> SavedSettings:
        """The settings a save keeps (``--auto-defend`` as every human's `autodefend`)."""
        defenders = set(self.humans) if self.auto_defend else self.auto_defenders
        autopilot = {p: turn for p, turn in self._autopilot.items() if self._autopilot_on(p)}
        return SavedSettings(set(defenders), autopilot)

    def _helper(self, player: int) -> Bot:
        """The bot that plays a human's `auto` moves."""
        return self._helpers.setdefault(player, make_bot(DEFAULT_BOT, bot_seed(self.game.seed, player) + 1))

    def _start_autopilot(self) -> None:
        game = self.game
        player = game.to_act
        if game.is_over or not self.seats[player].is_human:
            return
        if game.phase == Phase.DEFEND:  # `auto` at the defence question: defend automatically
            self._toggle_auto_defence(["on"])
            return
        if game.phase == Phase.CHOOSE_CAPITAL:
            self._say(f"The computer ({DEFAULT_BOT} bot) chooses your headquarters.")
            choice = self._helper(player).choose(View(game, player))
            self._record(apply_and_measure(game, choice), typed=True)
            self._advance()
            return
        setup = game.phase in SETUP_PHASES
        self._autopilot[player] = None if setup else game.turn
        self._say(
            f"The computer ({DEFAULT_BOT} bot) plays {'the rest of your setup' if setup else 'this turn'}"
            " for you."
        )
        self._advance()

    # ------------------------------------------------------------------------------------------
    # reporting what happened
    # ------------------------------------------------------------------------------------------
    def _record(self, effect: Effect, typed: bool) -> None:
        """Log an applied action; show its result now when a human is following it move by move."""
        game, board, palette = self.game, self.game.board, self.palette
        self.rounds.update()
        if not (typed and effect.turn == 0):  # a claim or placement the human just typed needs no echo
            self._log_for(effect.current, effect.turn).add(effect, self._may_read(effect.seen_by))
        hand_turn = self._human_turn(effect.current)
        if not typed and not hand_turn:
            self._log_shown = True  # a bot's (or the autopilot's) turn: summarised when it ends
        battle, blitz = effect.battle, self._blitz
        if battle is not None and blitz is not None and effect.current == blitz.attacker:
            blitz.rolls += 1
            blitz.lost += battle.attacker_losses
            blitz.killed += battle.defender_losses
            blitz.conquered = battle.conquered
            if typed:
                self._say(battle_line(game, palette, effect))  # a human defender sees each roll
        elif battle is not None and (typed or hand_turn):
            self._say(battle_line(game, palette, effect))
        elif typed:
            self._describe_own(effect)
        if battle is not None and battle.conquered and hand_turn and game.phase != Phase.OCCUPY:
            moved = self._moved_in_unasked(battle.source, battle.target)
            if moved is not None and blitz is not None:
                blitz.after.append(moved)  # after the blitz's own line
            elif moved is not None:
                self._say(moved)
        for player in effect.eliminated:
            if game.team is not None:
                # Team RISK: the first elimination ends the game; no cards change hands.
                ending = Text.assemble(
                    ": the team of ", team_names(palette, game.team[effect.current]), " wins."
                )
            elif palette.is_neutral(player):
                ending = Text(".")
            else:
                ending = Text(f", who takes {palette.names[player]}'s cards.")
            news = Text.assemble(
                palette.name(player), " is eliminated by ", palette.name(effect.current), ending, style="bold"
            )
            if blitz is not None:
                blitz.after.append(news)
            else:
                self._say(news)
        if effect.drawn and hand_turn:
            drawn = Text.assemble(palette.name(effect.current), " draws a card: ")
            drawn.append_text(Text(", ").join(card_label(board, c) for c in effect.drawn))
            self._say(drawn.append("."))
        if effect.phase == Phase.CHOOSE_CAPITAL and game.phase != Phase.CHOOSE_CAPITAL:
            self._reveal_headquarters()

    def _moved_in_unasked(self, source: int, target: int) -> Text | None:
        """The armies that moved into a conquered territory with no question asked, as only one
        number could move (the source kept its last army); None once the game is over."""
        game, board = self.game, self.game.board
        if game.is_over:
            return None
        return Text(
            f"Moved {plural(game.armies[target], 'army')} into {board.name_of(target)}, all that could "
            f"move (one stays behind in {board.name_of(source)})."
        )

    def _reveal_headquarters(self) -> None:
        """Capital RISK: everyone has chosen; the headquarters are shown together."""
        game, palette = self.game, self.palette
        self._flush_log()
        line = Text("All headquarters are chosen: ", style="bold")
        line.append_text(
            Text(", ").join(
                Text.assemble(palette.name(p), f" {game.board.name_of(t)}")
                for p, t in enumerate(game.capitals)
                if t >= 0
            )
        )
        line.append(f" ({HEADQUARTERS_MARK} on the map).")
        self.journal.append(line)
        self._say(line)

    def _may_read(self, seen_by: int) -> bool:
        """Fog of war: whether the log may tell what the seats ``seen_by`` witnessed. The screen is
        shared: every human at it must have seen it (with no human, it is a spectator's: no one)."""
        if not self.fogged:
            return True
        return all(sees(seen_by, p) for p in self.humans) if self.humans else sees(seen_by, SPECTATOR)

    @property
    def fogged(self) -> bool:
        """Whether fog of war hides part of the board now (a fogged game that is not over)."""
        return self.game.rules.fog == "on" and not self.game.is_over

    def _refuse_out_of_sight(self, territories: Sequence[int]) -> None:
        """Fog of war: an order naming a territory the player at the keyboard does not see is
        refused for that alone (the rules' reasons could tell its owner or armies)."""
        view = View(self.game, self.game.to_act)
        hidden = [t for t in territories if not view.visible(t)]
        if hidden:
            name = self.game.board.name_of(hidden[0])
            raise IllegalActionError(f"{name} is out of your sight (fog of war)")

    def _human_turn(self, player: int) -> bool:
        return self.seats[player].is_human and player not in self._autopilot

    def _describe_own(self, effect: Effect) -> None:
        game, board = self.game, self.game.board
        action = effect.action
        if isinstance(action, Place) and effect.phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            left = f"{plural(game.pending, 'army')} left to place" if game.pending else "all placed"
            self._say(
                Text(f"Placed {plural(action.armies, 'army')} on {board.name_of(action.territory)} (now ")
                .append_text(self._armies_in(action.territory))
                .append(f"); {left}.")
            )
        elif isinstance(action, Occupy):
            assert game.last_battle is not None
            source, target = game.last_battle.source, game.last_battle.target
            self._say(
                f"Moved {plural(action.armies, 'army')} into {board.name_of(target)}: "
                f"{board.name_of(target)} {game.armies[target]}, "
                f"{board.name_of(source)} {game.armies[source]}."
            )
        elif isinstance(action, Fortify):
            line = Text(
                f"Moved {plural(action.armies, 'army')} from {board.name_of(action.source)} "
                f"to {board.name_of(action.target)}"
            )
            if game.team is not None:  # who holds what there now: control may have changed
                line.append(" (now ").append_text(self._armies_in(action.target)).append(")")
            over = game.current != effect.current or game.phase != Phase.FORTIFY
            self._say(line.append(". Turn over." if over else "."))
        elif isinstance(effect.action, EndTurn):
            self._say("Turn over.")
        elif isinstance(action, Capital):
            where = "" if self._hotseat else f": {board.name_of(action.territory)}"
            self._say(f"Headquarters chosen{where} (secret until everyone has chosen).")
        elif isinstance(action, ClaimMission):
            player = effect.current
            claimed = len(game.missions_claimed[player])
            self._say(
                Text(
                    f"Mission claimed: {ranked_mission(action.key, game.board).card_text} ({claimed} of 4).",
                    style="bold",
                )
            )
            if claimed == 3 and game.mission_cards[player]:
                shown = ranked_mission(game.mission_cards[player][0], game.board).card_text
                self._say(f"Your fourth card is now shown to everyone: {shown}")
        elif effect.gained:
            bonus = effect.bonus_territory
            extra = f" and +2 on {board.name_of(bonus)}" if bonus is not None else ""
            self._say(f"Traded a set for {effect.gained} armies{extra}.")

    def _armies_in(self, territory: int) -> Text:
        """A territory's armies: a count; in Team RISK by player where it is shared ('Ann 3+Cy 2')."""
        game = self.game
        if game.units is None or len(self._holders(territory)) < 2:
            return Text(str(game.armies[territory]))
        return stack_text(self._view(), self.palette, territory)

    def _log_for(self, player: int, turn: int) -> TurnLog | SetupLog:
        """The open summary for ``player``'s turn (one shared summary during the setup)."""
        if turn == 0:
            if not isinstance(self._log, SetupLog):
                self._flush_log()
                self._log = SetupLog()
        elif self._log is None or self._log.player != player or self._log.turn != turn:
            self._flush_log()
            self._log = TurnLog(player, turn)
        return self._log

    def _show_turn_so_far(self, defender: int) -> None:
        """Before a bot's attack is put to a human, what the bot did so far in its turn, once a turn
        (its later attacks are shown roll by roll). The summary of the turn is not cut there: it
        comes whole, in one line, when the turn ends, and goes into the log once."""
        log = self._log
        if (
            isinstance(log, TurnLog)
            and log.player != defender
            and self._log_shown
            and log.has_news
            and self._shown_so_far != (log.player, log.turn)
        ):
            self._shown_so_far = (log.player, log.turn)
            self._say(log.describe(self.game, self.palette, heading=" so far this turn"))

    def _flush_log(self) -> None:
        log, self._log = self._log, None
        if log is None or log.empty:
            return
        line = log.describe(self.game, self.palette)
        self.journal.append(line)
        if self._log_shown:
            self._say(line)
        self._log_shown = False

    # ------------------------------------------------------------------------------------------
    # asking the human who must act
    # ------------------------------------------------------------------------------------------
    def _ask(self) -> None:
        game, palette = self.game, self.palette
        player, phase = game.to_act, game.phase
        log = self._log
        if phase == Phase.DEFEND:
            self._show_turn_so_far(player)  # the attacker's turn goes on after the defence
        elif log is not None and (log.player != player or self._log_shown):
            self._flush_log()
        question: tuple[int, ...] = (player, int(phase), game.turn)
        if phase in (Phase.DEFEND, Phase.OCCUPY):
            question += (len(game.history),)
        if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            question += (len(game.hands[player]), game.must_trade(player))
        if phase == Phase.SETUP_PLACE:
            question += (game.placing_for,)
        if self._asked_turn != game.turn:
            self._asked_turn, self._asked = game.turn, set()
        # Hot-seat: a question asked before is asked again when the keyboard comes back (after another
        # human's defence), so that the screens and `hand` are the player's own again.
        if question in self._asked and player == self.viewer and not self._setup_map_due:
            return
        self._asked.add(question)
        if player != self.viewer:
            previous, self.viewer = self.viewer, player
            opens_turn = phase == Phase.REINFORCE and self._turn_shown != (player, game.turn)
            # Team RISK: each team's hand is secret from the other, even when a defence is asked (the
            # setup has no secrets: the hands are empty).
            other_team = (
                game.team is not None
                and phase not in SETUP_PHASES
                and previous >= 0
                and game.team[previous] != game.team[player]
            )
            if self._hotseat and (
                other_team
                # Goals with secrets beyond the cards: cleared between players too.
                or (game.goal.secret and (opens_turn or phase == Phase.CHOOSE_CAPITAL))
            ):
                # Whatever the last player typed or was shown stays theirs.
                self._output.insert(0, ClearScreen())
            if self._hotseat and not opens_turn:  # a new turn has its own banner
                self._say(Rule(Text.assemble(palette.name(player), "'s move: pass the keyboard")))
                if other_team:  # the screen was cleared: the board again, for the player now at it
                    self._say(MapView(self._view(), palette))
        view = self._view()
        board = game.board
        name = palette.name(player)
        if self._show_map_when_asked:
            self._show_map_when_asked = False
            # A resumed game shows the board, unless the question shows it anyway.
            shows_map = (
                (phase == Phase.REINFORCE and self._turn_shown != (player, game.turn))
                or (phase == Phase.SETUP_PLACE and player not in self._setup_map_shown)
                or (phase == Phase.CLAIM and game.territory_count[player] == 0)
                or phase == Phase.CHOOSE_CAPITAL
            )
            if not shows_map:
                self._say(MapView(view, palette))
                self._say(status_line(view, palette, self.rounds.current))
        if phase == Phase.CLAIM:
            if game.territory_count[player] == 0:
                self._say(MapView(view, palette))
            self._say(
                hint(
                    ", claim a territory: `claim NAME` (Tab completes names), a number from `help`, "
                    "or `auto` to let the computer do your setup.",
                    name,
                )
            )
        elif phase == Phase.SETUP_PLACE:
            if player not in self._setup_map_shown or self._setup_map_due:
                self._setup_map_due = False
                self._setup_map_shown.add(player)
                self._say(MapView(view, palette))
            seat = game.placing_for
            if seat != player:
                neutral = palette.name(seat)
                self._say(
                    hint(", place a ", name)
                    .append_text(neutral)
                    .append_text(hint(" army on a territory of ").append_text(neutral))
                    .append_text(
                        hint(
                            f" (grey on the map; {plural(game.setup_armies[seat], 'army')} left): "
                            "`place NAME` (`place NAME N` sends the next N there), or `auto`."
                        )
                    )
                )
            else:
                self._say(
                    hint(
                        f", place your {plural(game.setup_armies[player], 'setup army')} one at a time: "
                        "`place NAME` (`place NAME N` sends your next N there), or `auto`.",
                        name,
                    )
                )
        elif phase == Phase.CHOOSE_CAPITAL:
            self._say(MapView(view, palette))
            self._say(
                hint(
                    ", choose your headquarters (secret until everyone has chosen): `capital NAME`, "
                    "one of your territories (`help` lists them; `auto` lets the computer choose).",
                    name,
                )
            )
        elif phase == Phase.REINFORCE:
            # The opening screen of a turn fits an 80 x 24 terminal: the map, one line of players.
            opening = self._turn_shown != (player, game.turn)
            receive = ""
            if opening:
                self._turn_shown = (player, game.turn)
                handover = " · pass the keyboard" if self._hotseat else ""
                self._say(Rule(Text.assemble(f"Round {self.rounds.current} · ", name, handover)))
                self._say(MapView(view, palette))
                self._say(players_line(view, palette))
                if game.hands[player]:
                    self._say(hand_text(view, palette))
                goal = self._goal_line()
                if goal is not None:
                    self._say(goal)
                receive = f"You receive `{game.pending} armies` ({reinforcement_breakdown(game, player)}). "
            trades = self._trade_commands()
            if game.must_trade(player):
                if receive:
                    self._say(hint(receive))
                title = f"You hold {len(game.hands[player])} cards: trade a set first (type its number):"
                self._show_menu(title)  # every choice is a trade now
            else:
                if trades and not game.placed_this_turn:
                    self._say(hint("You may trade a set first: `trade` (or see `hand`)."))
                place = "Place them" if receive else f"Place your {plural(game.pending, 'army')}"
                # Team RISK: also where the player shares a territory, or one is tied.
                where = " on any territory where you have armies" if game.team is not None else ""
                self._say(hint(f"{receive}{place}{where}: `place NAME [N]` (all of them without N)."))
        elif phase == Phase.ELIMINATION_TRADE:
            if game.must_trade(player):
                self._show_menu(
                    f"You hold {len(game.hands[player])} cards: trade sets until you hold 4 or fewer "
                    "(type a number):"
                )
            else:
                self._say(
                    hint(f"Place the {plural(game.pending, 'army')} from your trades: `place NAME [N]`.")
                )
        elif phase == Phase.ATTACK:
            claim = self._claim_hint("before attacking")
            if claim is not None:
                self._say(claim)
            self._say(
                hint(
                    "Attack: `attack FROM TO [DICE]` (most dice without DICE), `blitz FROM TO`, "
                    "`odds FROM TO`, or `end`. `help` lists your attacks."
                    + (
                        " Attacks are made from territories you control, with your own armies there, "
                        "never into a teammate's territory."
                        if game.team is not None
                        else ""
                    )
                )
            )
        elif phase == Phase.OCCUPY:
            assert game.pending_occupation is not None
            source, target, _ = game.pending_occupation
            low, high = game.occupy_range()
            self._say(
                hint(
                    f"Move into {board.name_of(target)} from {board.name_of(source)}: `move N` "
                    f"({low}-{high}; Enter = {high}, `move min` = {low})."
                )
            )
        elif phase == Phase.FORTIFY:
            if game.team is not None:
                self._say(
                    hint(
                        "Fortify once: `fortify FROM TO [N]` moves your own armies from a territory where "
                        "you have some, into and through teammates' territories (without N: all of yours "
                        "there, leaving one army), or `end` to end the turn."
                    )
                )
            elif game.rules.fortify == "extended":
                self._say(
                    hint(
                        "Fortify: `fortify FROM TO [N]` (all but one without N), as many moves as you like; "
                        "`end` ends the turn."
                    )
                )
            else:
                self._say(
                    hint(
                        "Fortify once: `fortify FROM TO [N]` (all but one without N), "
                        "or `end` to end the turn."
                    )
                )
        elif phase == Phase.TURN_END:
            self._say(
                hint(
                    "End of your turn: you have completed an end-of-turn mission. `mission` claims it "
                    "(`help` lists them), `end` passes."
                )
            )
        elif phase == Phase.DEFEND:
            assert game.pending_attack is not None
            source, target, dice = game.pending_attack
            most = most_defence_dice(self.game)
            choice = (
                f"Defend with `1` or `2` dice; Enter: {most} dice, this roll and the rest of this attack; "
                "`autodefend`: every attack from now on."
                if most > 1
                else "`Defend with 1 die` (Enter)."
            )
            # 2-player RISK: the other player rolls for a neutral; Team RISK: the biggest stack defends.
            defender = game.owner[target] if game.team is None else player
            whose = Text("your ") if defender == player else Text.assemble(palette.name(defender), "'s ")
            line = Text.assemble(palette.name(game.current), " attacks ", whose)
            line.append_text(Text(f"{board.name_of(target)} (").append_text(self._armies_in(target)))
            line.append_text(
                hint(
                    f") from {board.name_of(source)} ({own_force(game, source)}) with {plural(dice, 'die')}. "
                )
            )
            if game.team is not None and len(self._holders(target)) > 1:
                line.append("You have the most armies there: you roll, and lose armies first. ")
            if defender != player:
                line.append_text(Text.assemble("You roll the defence for ", palette.name(defender), ". "))
            self._say(line.append_text(hint(choice)))
        else:
            # A phase this screen does not know yet: its legal actions, typed or by number.
            rolled = game.pending_roll
            if rolled is not None:  # a roll waiting for a dice step (1993 experts)
                source, target, attack, defence, _ = rolled
                self._say(
                    Text.assemble(
                        f"The roll, {board.name_of(source)} -> {board.name_of(target)}: ",
                        (" ".join(map(str, attack)), "bold"),
                        " against ",
                        (" ".join(map(str, defence)), "bold"),
                        ".",
                    )
                )
            self._show_menu(f"{phase_label(phase)}: type an action or its number:")

    @property
    def _hotseat(self) -> bool:
        return len(self.humans) > 1

    def _goal_line(self) -> Text | None:
        """The turn opening's line on the player's goal, where the game has one."""
        game, view = self.game, self._view()
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            if self._hotseat:  # the next player is already at the keyboard: on request only
                return hint("Your secret mission: `mission` shows it (make sure no one else is looking).")
            return secret_mission_text(view, self.palette)
        if kind is GoalKind.MISSION_CARDS:
            player = view.player
            claimed = len(game.missions_claimed[player])
            line = hint(f"Missions: {claimed} of 4 claimed; `missions` shows your cards.")
            claim = self._claim_hint("before trading or placing")
            return line if claim is None else line.append(" ").append_text(claim)
        if kind is GoalKind.HEADQUARTERS:
            home = game.capitals[view.player]
            if home >= 0:
                needed = capitals_needed(game)
                held = sum(
                    1
                    for p, c in enumerate(game.capitals)
                    if p != view.player and c >= 0 and game.owner[c] == view.player
                )
                return hint(
                    f"Your headquarters: {game.board.name_of(home)} ({HEADQUARTERS_MARK} on the map). "
                    f"You hold {held} of the {needed} enemy headquarters you need"
                    + ("" if game.owner[home] == view.player else ", and must retake your own")
                    + "."
                )
        return None

    def _claim_hint(self, when: str) -> Text | None:
        """Mission RISK: the cards that may be claimed now (named only when no one else is looking)."""
        game = self.game
        if game.goal.kind is not GoalKind.MISSION_CARDS or game.to_act != game.current:
            return None
        claimable = claimable_missions(game)
        if not claimable:
            return None
        if self._hotseat:
            return hint(f"`mission` claims a completed mission card now, {when}.")
        cards = " or ".join(f"`mission {key}`" for key in claimable)
        return hint(f"Mission complete: claim it now, {when}: {cards}.")

    def _mission_shortcut(self) -> None:
        """`mission` alone: claim the first card that may be claimed now, else show the missions."""
        game = self.game
        if (
            not game.is_over
            and self.seats[game.to_act].is_human
            and game.to_act == game.current
            and (claimable := claimable_missions(game))
        ):
            self._act(f"mission {claimable[0]}")
            return
        self._show_missions()

    def _show_missions(self) -> None:
        game, view = self.game, self._view()
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            self._say(secret_mission_text(view, self.palette))
        elif kind is GoalKind.MISSION_CARDS:
            player = view.player
            unclaimed = game.mission_cards[player] if player >= 0 else []
            complete = [k for k in unclaimed if ranked_mission(k, game.board).is_complete(game, player)]
            claimable = claimable_missions(game) if player == game.current and not game.is_over else []
            self._say(mission_cards_text(view, self.palette, complete, claimable))
        elif kind is GoalKind.HEADQUARTERS:
            goal = self._goal_line()
            self._say(goal if goal is not None else Text("Headquarters are chosen after the setup."))
        else:
            self._say(Text(f"There are no missions in {game_title(game.rules.game)}."))

    def _game_intro(self) -> Text:
        """One line on how this game is won (and, with one human, their secret mission)."""
        game = self.game
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            line = Text("Secret Mission RISK: the first to complete their secret mission wins. ")
            if self._hotseat:
                return line.append_text(hint("Type `mission` to see yours when no one else is looking."))
            return line.append_text(secret_mission_text(self._view(), self.palette))
        if kind is GoalKind.HEADQUARTERS:
            needed = capitals_needed(game)
            return hint(
                "Capital RISK: after the setup each player secretly chooses a headquarters "
                f"(`capital NAME`); hold your own and {needed} of the others' to win."
            )
        if kind is GoalKind.OPPONENT:
            names = ", ".join(game.players[game.humans :])
            return hint(
                f"2-player RISK: the neutral armies ({names}, grey) never attack; you place some of their "
                "armies in the setup and roll their defence when your opponent attacks them. Eliminate "
                "your opponent to win."
            )
        if kind is GoalKind.MISSION_CARDS:
            return hint(
                "Mission RISK: four mission cards each (General, Major, Colonel, Captain), claimed one a "
                "turn at the time each names (`mission KEY`); the first to claim all four wins. "
                "`missions` shows yours."
            )
        if kind is GoalKind.TEAM:
            return Text.assemble(
                "Team RISK: ",
                Text(" against ").join(self.palette.team_label(t) for t in (0, 1)),
                hint(
                    ". Teammates share one hand of cards and never attack each other; you fortify into "
                    "and through teammates' territories; whoever has the most armies in a territory "
                    "controls it (a tie: no one). The game ends when any player is eliminated: the other "
                    "team wins."
                ),
            )
        return Text("World domination: conquer every territory.")

    # ------------------------------------------------------------------------------------------
    # saving, leaving, the end of the game
    # ------------------------------------------------------------------------------------------
    @property
    def save_file(self) -> Path:
        """Where the game is saved: ``save_path``, else the file it was loaded from, else a new file
        in ``directory``."""
        if self._save_file is None:
            if self.save_path is not None:
                self._save_file = self.save_path
            elif self.loaded_from is not None:
                self._save_file = self.loaded_from
            else:
                self._save_file = new_save_path(self.directory, self.game.rules.game, self.game.seed)
        return self._save_file

    def status_text(self) -> str:
        """Where the game is, for the list of saves: 'round 5 · Ann to act · reinforce'."""
        game = self.game
        if game.is_over:
            return "over" if game.winner is None else f"won by {game.players[game.winner]}"
        when = f"round {self.rounds.current}" if game.turn else "setup"
        return f"{when} · {game.players[game.to_act]} to act · {phase_label(game.phase)}"

    def _write(self, path: Path) -> bool:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            text = record_text(self.game, self.seats, self.status_text(), self.saved_settings())
            write_text_file(path, text)  # whole or not at all: never an empty or half-written save
        except OSError as error:
            self._warn(f"Could not write {path}: {error.strerror or error}.")
            return False
        except UnicodeEncodeError as error:
            self._warn(f"Could not write {path}: the game's text is not UTF-8 ({error.reason}).")
            return False
        self._saved_at = len(self.game.history)
        return True

    def _autosave(self) -> None:
        """Save the game if it has moved on since it was last saved (see ``autosave``)."""
        if not self.autosave or self.finished or len(self.game.history) == self._saved_at:
            return
        if not self._write(self.save_file):
            self.autosave = False
            self._warn("Saving as you play is off for this game; `save FILE` saves it elsewhere.")

    def _resume_command(self, path: Path | None = None) -> Text:
        """'Resume with: COMMAND' for the game saved in ``path`` (default: ``save_file``): `risk play
        --load` alone when it is among the saves listed there, else with the file's full path, quoted
        for the shell, so that it can be copied and run from any folder."""
        path = path or self.save_file
        if path.parent.resolve() == saves_dir().resolve():
            return hint(
                "Resume with: `risk play --load` (it lists your recent games; Enter picks the newest)."
            )
        command = f"risk play --load {shlex.quote(str(path.resolve()))}"
        return Text.assemble("Resume with: ", (command, "bold"))  # no full stop: it would join the path

    def _save(self, path: Path | None) -> None:
        target = path or self.save_file
        if self._write(target):
            self._say(Text.assemble("Saved to ", (str(target), "bold"), "."))
            self._say(self._resume_command(target))

    def _leave(self, reason: str) -> None:
        self._flush_log()
        self.finished = True
        if (self.autosave or self.save_path is not None) and self._write(self.save_file):
            self._say(Text.assemble(f"{reason} Saved to ", (str(self.save_file), "bold"), "."))
            self._say(self._resume_command())
            return
        unsaved = len(self.game.history) != self._saved_at
        self._say(
            f"{reason} "
            + (
                "Not saved (use save FILE to keep a game, or --save FILE)."
                if unsaved
                else "Nothing new to save."
            )
        )

    def _stop_unfinished(self) -> None:
        self._quiet = False
        self._flush_log()
        self._say(
            f"Stopped in round {self.rounds.current} with no winner (the limit is {self.max_turns} turns, "
            "one player's turn each)."
        )
        self._finish()

    def _finish(self, write: bool = True) -> None:
        game, palette = self.game, self.palette
        self._quiet = False
        self._flush_log()
        self.finished = True
        view = View(game, self.viewer)
        self._say(Rule("Game over"))
        if game.rules.fog == "on":
            self._say(hint("The fog of war lifts: the whole board as it is."))
        self._say(MapView(view, palette))
        self._say(players_table(view, palette))
        if game.winner is not None:
            self._say(victory_text(game, palette, self.rounds.current))
        if game.goal.kind is GoalKind.SECRET_MISSION:
            self._say(secret_mission_text(view, palette))
        elif game.goal.kind is GoalKind.MISSION_CARDS:
            self._say(mission_cards_text(view, palette, (), ()))
        if not write:
            return
        path = self.save_file
        if self._write(path):
            self.record_path = path
            self._say(
                Text.assemble(
                    "The game record is in ", (str(path), "bold"), f" (check it with: risk replay {path})."
                )
            )


# The engine's refusals: "'fortify ural siberia 1': <reason> (Ann to act, phase fortify)".
ENGINE_REFUSAL = re.compile(r"^'[^']*': (?P<reason>.+) \([^()]* to act, phase [^()]*\)$", re.DOTALL)


def engine_reason(error: Exception) -> str:
    """The reason in an engine error, without the action repeated and the "(Ann to act, ...)" that
    the player can see on screen."""
    text = str(error)
    match = ENGINE_REFUSAL.match(text)
    return match.group("reason") if match else text


def victory_text(game: Game, palette: Palette, round_number: int) -> Text:
    """Who won, in which round, and how: the game's own goal, or the last player standing (the
    engine's ``outcome().reason``)."""
    winner, outcome = game.winner, game.outcome()
    assert winner is not None and outcome is not None
    kind, board = game.goal.kind, game.board
    if game.team is not None:
        # "the team of Ann and Cy: Bob was eliminated"
        team, _, how = outcome.reason.partition(": ")
        how = f": {how} by {game.players[winner]}" if how else ""
        return Text(f"{team[0].upper()}{team[1:]} wins in round {round_number}{how}!", style="bold")
    line = Text.assemble(palette.name(winner), style="bold")
    standing = sum(game.alive[: game.humans]) == 1
    if kind is GoalKind.SECRET_MISSION and mission_complete(game, winner):
        mission = game.missions[winner]
        assert mission is not None
        line.append(f" completes the secret mission and wins in round {round_number}: ")
        return line.append_text(mission_text(mission.key, mission.text, palette))
    if kind is GoalKind.HEADQUARTERS and not standing:
        taken = [
            board.name_of(c)
            for p, c in enumerate(game.capitals)
            if p != winner and c >= 0 and game.owner[c] == winner
        ]
        home = board.name_of(game.capitals[winner])
        return line.append(
            f" wins in round {round_number}, holding the headquarters {', '.join(taken)} "
            f"and their own ({home})!"
        )
    if kind is GoalKind.MISSION_CARDS and not game.mission_cards[winner]:
        return line.append(f" completes all four missions and wins in round {round_number}!")
    if kind is GoalKind.WORLD:
        return line.append(f" wins the world in round {round_number}!")
    neutral = " (the neutral armies need not be beaten)" if kind is GoalKind.OPPONENT else ""
    return line.append(f" wins in round {round_number}: {outcome.reason}{neutral}!")


def reinforcement_breakdown(game: Game, player: int) -> str:
    """Where a turn's armies come from: '4 for 13 territories, +5 North America'."""
    count = game.territory_count[player]
    parts = [f"{max(3, count // 3)} for {count} territories"]
    parts += [
        f"+{game.board.continents[c].bonus} {game.board.continents[c].name}"
        for c in game.continents_of(player)
    ]
    bonus = game.pending - game.reinforcement_for(player)
    if bonus > 0:
        parts.append(f"+{bonus} from cards")
    return ", ".join(parts)


def help_table(teams: bool = False, goal: GoalKind = GoalKind.WORLD) -> Table:
    """The commands, one line each so that they fit a terminal of 80 by 24 with the choices below
    them (``teams``: as they read in a game of teams; ``goal``: the game's own commands, capital,
    missions)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    rows = [
        ("claim T", "claim an empty territory (setup)"),
        ("place T [N]", "place N armies, all without N (setup: 1; N queues N)"),
        ("trade [C C C]", "trade a set of cards (alone: your set, or a choice)"),
        ("attack FROM TO [D]", "one battle with D dice (the most without D)"),
        ("blitz FROM TO", "attack until it falls or you are down to 1 army"),
        ("defend N · move N", "dice to defend with; armies to move in (Enter: usual)"),
        ("fortify FROM TO [N]", "the free move that ends the turn (all but one without N)"),
        ("end", "stop attacking, then end the turn"),
    ]
    if goal is GoalKind.HEADQUARTERS:
        rows.append(("capital T", "choose your headquarters, in secret (after the setup)"))
    if goal is GoalKind.MISSION_CARDS:
        rows.append(("mission [KEY]", "claim a completed mission card at its time"))
    if goal in MISSION_GOALS:
        rows.append(("missions", "your mission (Secret Mission) or mission cards"))
    rows += [
        ("a number", "one of the numbered choices below"),
        ("map · hand · players", "the board, your cards, the players"),
        ("odds A D · FROM TO", "odds of an attack to the end (A counts the one that stays)"),
        ("neighbours [T]", "T's neighbours; alone: the enemies beside yours"),
        ("log [N]", "the last N turns, one line each"),
        ("auto", "the computer plays your setup, or this turn"),
        ("save [FILE] · quit", "saved as you play; save FILE: a copy; quit: leave"),
        ("autodefend [on|off]", "always defend with the most dice, unasked"),
    ]
    if teams:
        team_rows = {
            "attack FROM TO [D]": "one battle, D dice, your own armies; never a teammate",
            "fortify FROM TO [N]": "the free move: your own armies, through teammates'",
            "map · hand · players": "the board (+ shared, = tied), your team's hand, teams",
        }
        rows = [(command, team_rows.get(command, meaning)) for command, meaning in rows]
    for command, meaning in rows:
        table.add_row(Text(command), Text(meaning))  # not markup: "[on|off]" is text
    return table
