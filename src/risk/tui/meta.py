"""The commands that may be typed at any time at the terminal (`help`, `map`, `hand`, `odds`,
`neighbours`, `log`, `save`, `quit`, ...), and the two that hand moves to the computer (`auto`,
`autodefend`): :class:`Commands`, a table from each word to its handler. A line that is no command
at all gets :meth:`Commands.not_understood`."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from risk.bots import DEFAULT_BOT
from risk.errors import RiskError
from risk.odds import BattleOdds, invasion
from risk.rules.game import Phase
from risk.rules.goal import GoalKind
from risk.tui.context import Context
from risk.tui.menu import Menu
from risk.tui.orders import StandingOrders
from risk.tui.questions import Questions
from risk.tui.render import (
    MapView,
    front_view,
    hand_text,
    hint,
    neighbours_text,
    percent,
    players_table,
    plural,
    sentence,
    status_line,
)
from risk.tui.report import Reporter
from risk.tui.saves import saves_dir
from risk.tui.saving import Saver
from risk.tui.shortforms import (
    META_COMMANDS,
    QUIT_WORDS,
    actions_now,
    enemy_of,
    mover,
    own_force,
    two_territories,
)
from risk.tui.summary import apply_and_measure
from risk.view import View

# The lines `help` may take, the prompt below it making 24: a terminal of 80 by 24 shows it whole.
HELP_SCREEN_LINES = 23
# The goals with missions to show (`missions`).
MISSION_GOALS = (GoalKind.SECRET_MISSION, GoalKind.MISSION_CARDS)
MAX_ODDS_ARMIES = 1000  # keeps `odds A D` instant
# What may be typed at any time, for a line that is not understood.
ANYTIME = ["help", "map", "hand", "players", "neighbours [NAME]", "odds FROM TO", "log", "save", "quit"]

Handler = Callable[[list[str], str], None]  # (the words after the command, the line as typed)


class Commands:
    """The commands typed by word, whoever is to act. ``advance`` plays on after `auto` or
    `autodefend` handed the move to the computer."""

    def __init__(
        self,
        context: Context,
        menu: Menu,
        questions: Questions,
        reporter: Reporter,
        orders: StandingOrders,
        saver: Saver,
        advance: Callable[[], None],
    ) -> None:
        self.context = context
        self.menu = menu
        self.questions = questions
        self.reporter = reporter
        self.orders = orders
        self.saver = saver
        self.advance = advance
        self.quitting = False  # `quit` typed: asking whether to leave
        self._handlers: dict[str, Handler] = {
            "help": self._help,
            "?": self._help,
            "moves": lambda args, text: menu.show(),
            "map": self._map,
            "hand": self._hand,
            "cards": self._hand,
            "missions": lambda args, text: questions.show_missions(),
            "players": self._players,
            "status": self._players,
            "odds": lambda args, text: self._odds(args),
            "neighbours": lambda args, text: self._neighbours(args),
            "neighbors": lambda args, text: self._neighbours(args),
            "save": self._save,
            "log": lambda args, text: self._log(args),
            "auto": lambda args, text: self.start_autopilot(),
            "autodefend": lambda args, text: self.toggle_auto_defence(args),
            **{word: self._quit for word in QUIT_WORDS},
        }
        assert set(self._handlers) == {*META_COMMANDS, "?"}, "every command word has its handler"

    def knows(self, word: str) -> bool:
        return word in self._handlers

    def run(self, word: str, args: list[str], text: str) -> None:
        """Carry out the command ``word`` with ``args`` (``text``: the whole line as typed)."""
        self._handlers[word](args, text)

    def _say(self, renderable: RenderableType) -> None:
        self.context.screen.say(renderable)

    def _help(self, args: list[str], text: str) -> None:
        context = self.context
        table = help_table(teams=context.game.team is not None, goal=context.view().goal.kind)
        self._say(table)
        self.menu.show(room=HELP_SCREEN_LINES - table.row_count)

    def _map(self, args: list[str], text: str) -> None:
        view, palette = self.context.view(), self.context.palette
        self._say(MapView(view, palette))
        self._say(status_line(view, palette, self.context.rounds.current))

    def _hand(self, args: list[str], text: str) -> None:
        self._say(hand_text(self.context.view(), self.context.palette, self.context.trade_commands()))

    def _players(self, args: list[str], text: str) -> None:
        view, palette = self.context.view(), self.context.palette
        self._say(players_table(view, palette))
        self._say(status_line(view, palette, self.context.rounds.current))

    def _save(self, args: list[str], text: str) -> None:
        raw = text.split(None, 1)  # the file name as typed, not lowered
        self.saver.save(Path(raw[1]) if len(raw) > 1 else None)

    def _log(self, args: list[str]) -> None:
        count = int(args[0]) if args and args[0].isdigit() else 10
        lines = self.reporter.journal[-count:] or [Text("Nothing has happened yet.")]
        self._say(Group(*lines))

    def _quit(self, args: list[str], text: str) -> None:
        self.quitting = True
        saver = self.saver
        where = saver.save_file if saver.keeps_the_game else None
        listed = where is not None and where.parent.resolve() == saves_dir().resolve()
        kept = (
            f"The game is saved in {where}; "
            + ("`risk play --load` resumes it." if listed else "how to resume it is shown as you leave.")
            if where
            else "It is not saved."
        )
        self._say(hint(f"Leave the game? {kept} `y` leaves, anything else plays on."))

    # ------------------------------------------------------------------------------------------
    # odds and neighbours
    # ------------------------------------------------------------------------------------------
    def _odds(self, args: list[str]) -> None:
        try:
            if len(args) == 2 and all(a.isdigit() for a in args):
                attackers, defenders, where = self._odds_by_count(int(args[0]), int(args[1]))
            else:
                by_territories = self._odds_by_territories(args)
                if by_territories is None:
                    return
                attackers, defenders, where = by_territories
            if defenders < 1:
                raise ValueError("the defender needs at least 1 army")
            odds = invasion(attackers, defenders)
        except (RiskError, ValueError) as error:
            self.context.screen.warn(
                f"{error}. Use odds A D (A armies in the attacking territory, the one that stays "
                "included; D defending) or odds FROM TO."
            )
            return
        self._say(odds_line(where, attackers, odds))

    def _odds_by_count(self, armies: int, defenders: int) -> tuple[int, int, str]:
        """`odds A D`: A counts the armies in the attacking territory, as the map and `help`'s
        choices do."""
        if max(armies, defenders) > MAX_ODDS_ARMIES:
            raise ValueError(f"at most {MAX_ODDS_ARMIES} armies a side here (risk odds takes more)")
        if armies < 2:
            raise ValueError("an attack needs at least 2 armies in the territory (one stays behind)")
        attackers = armies - 1
        where = (
            f"{armies} armies in the attacking territory ({attackers} attack, 1 stays) against {defenders}"
        )
        return attackers, defenders, where

    def _odds_by_territories(self, args: list[str]) -> tuple[int, int, str] | None:
        """`odds FROM TO`: the attack's armies as they are; None (and why) when there are no odds to
        give."""
        game, board = self.context.game, self.context.game.board
        attack = two_territories(game, "attack", args, typed_verb="odds")
        view = self.context.view()
        hidden = [t for t in (attack.source, attack.target) if not view.visible(t)]
        if hidden:  # fog of war: the odds would tell its armies
            self._say(
                Text(
                    f"{board.name_of(hidden[0])} is out of your sight (fog of war): "
                    "`odds A D` gives the odds for any armies."
                )
            )
            return None
        cannot = self._cannot_attack(attack.source, attack.target)
        if cannot is not None:
            self._say(Text(sentence(cannot)))
            return None
        # Team RISK: only the attacker's own armies there fight.
        attackers, defenders = own_force(game, attack.source) - 1, game.armies[attack.target]
        source, target = board.name_of(attack.source), board.name_of(attack.target)
        where = f"{source} ({attackers + 1}) -> {target} ({defenders})"
        return attackers, defenders, where

    def _cannot_attack(self, source: int, target: int) -> str | None:
        """Why there are no odds to give for an attack from ``source`` on ``target``, if so."""
        game, board = self.context.game, self.context.game.board
        attacker = mover(game, source)
        if attacker < 0:
            return f"{board.name_of(source)} is not held by anyone yet, so it cannot attack"
        if not enemy_of(game, attacker, target):
            holder = game.owner[target]
            mine = attacker == self.context.viewer
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

    def _neighbours(self, args: list[str]) -> None:
        """`neighbours`: every territory of the player's with the enemies beside it; `neighbours T`:
        one territory's neighbours."""
        view = self.context.view()
        if not args:
            self._say(front_view(view, self.context.palette))
            return
        territory = self.context.game.board.find_territory(" ".join(args))
        if territory is None:
            self._say(
                hint(f"No territory is called {' '.join(args)!r}: `neighbours NAME` (Tab completes names).")
            )
            return
        self._say(neighbours_text(view, self.context.palette, territory))

    # ------------------------------------------------------------------------------------------
    # moves handed to the computer
    # ------------------------------------------------------------------------------------------
    def toggle_auto_defence(self, args: list[str]) -> None:
        """`autodefend [on|off]`: the player at the keyboard defends with the most dice, unasked."""
        context, orders = self.context, self.orders
        game = context.game
        player = (
            game.to_act
            if game.phase == Phase.DEFEND and context.seats[game.to_act].is_human
            else context.viewer
        )
        if player < 0:
            context.screen.warn("Automatic defence is for a player: no one is at the keyboard.")
            return
        if orders.auto_defend:
            self._say("Automatic defence is on for everyone (--auto-defend).")
            return
        on = player not in orders.auto_defenders if not args else args[0] in ("on", "yes", "1")
        if args and args[0] not in ("on", "off", "yes", "no", "1", "0"):
            context.screen.warn("Type `autodefend on` or `autodefend off` (alone, it switches).")
            return
        if on:
            orders.auto_defenders.add(player)
            self._say(
                hint(
                    "Automatic defence is on: you defend every attack with the most dice, without being "
                    "asked; the rolls are in the attacker's turn summary. `autodefend off` to choose again."
                )
            )
        else:
            orders.auto_defenders.discard(player)
            self._say(
                hint(
                    "Automatic defence is off: you choose your dice (Enter: the most, for the rest of the "
                    "attack)."
                )
            )
        if on and game.phase == Phase.DEFEND and game.to_act == player:
            self.advance()

    def start_autopilot(self) -> None:
        """`auto`: the computer plays the rest of the setup or this turn (at the defence question:
        `autodefend on`; at the choice of headquarters: chooses them)."""
        context = self.context
        game = context.game
        player = game.to_act
        if not context.human_to_act():
            return
        if game.phase == Phase.DEFEND:
            self.toggle_auto_defence(["on"])
            return
        if game.phase == Phase.CHOOSE_CAPITAL:
            self._say(f"The computer ({DEFAULT_BOT} bot) chooses your headquarters.")
            choice = self.orders.helper(player).choose(View(game, player))
            self.reporter.record(apply_and_measure(game, choice), typed=True)
            self.advance()
            return
        setup = self.orders.start_autopilot(player)
        self._say(
            f"The computer ({DEFAULT_BOT} bot) plays {'the rest of your setup' if setup else 'this turn'}"
            " for you."
        )
        self.advance()

    # ------------------------------------------------------------------------------------------
    # a line not understood
    # ------------------------------------------------------------------------------------------
    def not_understood(self, word: str) -> None:
        """A word that is no command: what may be typed now, in this game (not every verb of
        every game), and the likeliest command meant."""
        game = self.context.game
        line = Text("Not understood: ", "red").append(repr(word))
        words_now = [usage.split()[0] for usage in actions_now(game)] if not game.is_over else []
        close = difflib.get_close_matches(word, [*words_now, *META_COMMANDS], n=1, cutoff=0.6)
        if close:
            line.append_text(hint(f" (did you mean `{close[0]}`?)"))
        if not self.context.human_to_act():
            self._say(line.append("."))
            return
        now = " · ".join(f"`{usage}`" for usage in actions_now(game))
        anytime = list(ANYTIME)
        if game.goal.kind in MISSION_GOALS:
            anytime.insert(3, "missions")
        self._say(line.append(". "))
        self._say(hint(f"Now: {now}, or a number from `help`."))
        self._say(hint("Any time: " + " · ".join(f"`{w}`" for w in anytime) + "."))


def odds_line(where: str, attackers: int, odds: BattleOdds[float]) -> Text:
    """The odds of an attack fought to the end, and its expected losses."""
    win = odds.attacker_wins
    survivors = sum(s * p for s, p in odds.attacker_survivors.items()) / win if win > 0 else 0.0
    return Text.assemble(
        f"{where}: the attack takes it ",
        (percent(win, 1, uncertain=attackers > 0), "bold"),
        " of the time, fighting to the last army. "
        f"Expected losses: attacker {odds.expected_attacker_losses:.1f}, defender "
        f"{odds.expected_defender_losses:.1f}"
        + (f"; after a win {survivors:.1f} armies left to move in." if win > 0 else "."),
    )


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
