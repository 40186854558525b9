"""The terminal game's logic, without a terminal: a :class:`PlaySession` takes one line of input
and returns what to show (rich renderables). The command layer (``risk.tui.command``) only reads
lines and prints; tests drive a session directly.

A session holds the game and its seats (humans at the keyboard, or bots). After every input it
plays the bots, any blitz under way, queued setup placements and automatic defences, until a
human must answer or the game is over. What it shows a human goes through that human's
:class:`~risk.view.View`; bots' turns are summarised in one line each.

The session reads a line and plays on; its parts, which share one :class:`~risk.tui.context.Context`,
do the rest: :mod:`~risk.tui.questions` asks the human who must act, :mod:`~risk.tui.meta` carries
out the commands typed by word (`help`, `map`, `odds`, ...), :mod:`~risk.tui.report` tells what
happened, :mod:`~risk.tui.orders` keeps the moves no one types one by one, :mod:`~risk.tui.menu`
the numbered choices and :mod:`~risk.tui.saving` the saves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rich.console import RenderableType
from rich.rule import Rule
from rich.text import Text

from risk.errors import IllegalActionError, NotationError
from risk.rules.actions import Action, Attack, Defend, Place, action_territories
from risk.rules.game import Game, Phase
from risk.rules.goal import GoalKind
from risk.rules.variants import game_title
from risk.rules.variants.missions import claimable_missions
from risk.tui.context import Context
from risk.tui.menu import Menu
from risk.tui.meta import Commands
from risk.tui.orders import Blitz, StandingOrders
from risk.tui.questions import Questions, prompt_for
from risk.tui.render import (
    MapView,
    hint,
    mission_cards_text,
    players_table,
    secret_mission_text,
    sentence,
)
from risk.tui.report import Reporter
from risk.tui.saves import SavedSettings, saves_dir
from risk.tui.saving import Saver, record_text, seat_kinds_in_record
from risk.tui.seats import DEFAULT_NAMES, HUMAN, Seat, make_seats
from risk.tui.shortforms import (
    QUIT_WORDS,
    BlitzOrder,
    ChoiceNeeded,
    SetupOrder,
    completions,
    interpret,
    known_word,
    most_attack_dice,
    most_defence_dice,
    own_force,
    refusal,
)
from risk.tui.summary import Effect, apply_and_measure, victory_text
from risk.view import View

__all__ = [
    "DEFAULT_MAX_TURNS",
    "DEFAULT_NAMES",
    "HUMAN",
    "PlaySession",
    "Seat",
    "engine_reason",
    "make_seats",
    "record_text",
    "seat_kinds_in_record",
]

DEFAULT_MAX_TURNS = 1000


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
        self.context = context = Context(game, seats)
        self.game = game
        self.seats = context.seats
        self.humans = context.humans
        self.palette = context.palette
        self.rounds = context.rounds
        self.max_turns = max_turns
        self.record_path: Path | None = None  # where the finished game's record went
        self.orders = StandingOrders(context, auto_defend, settings)
        self.menu = Menu(context)
        self.reporter = Reporter(context, self.orders)
        self.questions = Questions(context, self.reporter, self.menu)
        self.saver = Saver(
            context,
            self.orders,
            save_path=save_path,
            directory=directory or saves_dir(),
            loaded_from=loaded_from,
            autosave=autosave,
        )
        self.commands = Commands(
            context, self.menu, self.questions, self.reporter, self.orders, self.saver, self._advance
        )
        self._screen = context.screen

    # ------------------------------------------------------------------------------------------
    # the public surface: start, handle a line, end of input, the prompt, completions
    # ------------------------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.context.finished

    @property
    def viewer(self) -> int:
        """The player whose screen it is (the human at the keyboard)."""
        return self.context.viewer

    @property
    def journal(self) -> list[Text]:
        """Every turn's summary line, for `log`."""
        return self.reporter.journal

    @property
    def auto_defend(self) -> bool:
        """Whether every human defends with the most dice, unasked."""
        return self.orders.auto_defend

    @auto_defend.setter
    def auto_defend(self, on: bool) -> None:
        self.orders.auto_defend = on

    @property
    def fogged(self) -> bool:
        """Whether fog of war hides part of the board now (a fogged game that is not over)."""
        return self.context.fogged

    @property
    def save_file(self) -> Path:
        """Where the game is saved: ``save_path``, else the file it was loaded from, else a new file
        in ``directory``."""
        return self.saver.save_file

    def status_text(self) -> str:
        """Where the game is, for the list of saves: 'round 5 · Ann to act · reinforce'."""
        return self.saver.status_text()

    def saved_settings(self) -> SavedSettings:
        """The settings a save keeps (``--auto-defend`` as every human's `autodefend`)."""
        return self.orders.saved_settings()

    def start(self) -> list[RenderableType]:
        self._opening()
        if self.game.is_over:
            self._finish(write=False)
        else:
            if self.saver.loaded_from is not None:
                self.questions.show_map_when_asked = True
            self._advance()
            self.saver.autosave_now()
        return self._screen.take()

    def _opening(self) -> None:
        """The game's title, its players and teams, and how it is won."""
        game, palette, say = self.game, self.palette, self._screen.say
        title = Text("RISK", style="bold")
        title.append(f" · {game_title(game.rules.game)} · rules {game.rules.describe()} · seed {game.seed}")
        say(Rule(title))
        seats = Text("Players: ")
        for p in range(game.humans):
            if p:
                seats.append(", ")
            seats.append_text(palette.name(p))
            seats.append(f" ({palette.labels[p]})")
        if game.humans < len(game.players):
            seats.append(" · neutral armies: ")
            seats.append_text(Text(", ").join(palette.name(p) for p in range(game.humans, len(game.players))))
        say(seats)
        if game.team is not None:
            say(Text("Teams: ").append_text(Text(" · ").join(palette.team_label(t) for t in (0, 1))))
        if not self.humans:
            return
        say(Text("Type help for commands and your choices; Tab completes names; quit leaves.", style="dim"))
        say(self.questions.game_intro())
        if self.fogged:
            say(
                hint(
                    "Fog of war: you see your own territories and those next to them; the rest of the "
                    "board shows what you last saw there, dimmed. The log tells only what you saw."
                )
            )

    def handle(self, line: str) -> list[RenderableType]:
        """Act on one line of input and play on until a human must answer again."""
        text = line.strip()
        words = text.lower().split()
        if self.finished:
            self._screen.say("The game is over." if self.game.is_over else "The session has ended.")
            return self._screen.take()
        if self.commands.quitting:
            self._answer_quit(words)
            return self._screen.take()
        if not words:
            self._answer_default()
        elif words == ["mission"]:
            self._mission_shortcut()
        elif self.commands.knows(words[0]):
            self.commands.run(words[0], words[1:], text)
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
        self.saver.autosave_now()
        return self._screen.take()

    def end_of_input(self) -> list[RenderableType]:
        """Input ended (Ctrl-D): leave cleanly, saving the game (see ``autosave``)."""
        if not self.finished:
            self._leave("Input ended.")
        return self._screen.take()

    @property
    def prompt(self) -> str:
        if self.finished or self.game.is_over:
            return "> "
        if self.commands.quitting:
            return "Quit? y/n> "
        return prompt_for(self.game)

    def completions(self, line: str) -> list[str]:
        """Words that could complete the last word of ``line`` (for readline's Tab)."""
        return completions(self.game, line, self.viewer)

    # ------------------------------------------------------------------------------------------
    # input: answers, numbered choices, actions and their short forms
    # ------------------------------------------------------------------------------------------
    def _answer_quit(self, words: list[str]) -> None:
        """The answer to `quit`'s question: leave, or play on."""
        self.commands.quitting = False
        if words[:1] in (["y"], ["yes"], *([w] for w in QUIT_WORDS)):
            self._leave("Quitting.")
        else:
            self._screen.say("Playing on.")
            self.questions.ask_again()

    def _answer_default(self) -> None:
        """Enter alone: the default answer where the prompt shows one, else a reminder."""
        game = self.game
        if game.phase == Phase.DEFEND:
            # The most dice, and the same for the rest of this attack: one Enter, not one a roll.
            self.orders.defend_rest_of_attack()
            self._act(f"defend {most_defence_dice(game)}")
        elif game.phase == Phase.OCCUPY:
            self._act(f"move {game.occupy_range()[1]}")
        else:
            self.questions.ask_again()

    def _mission_shortcut(self) -> None:
        """`mission` alone: claim the first card that may be claimed now, else show the missions."""
        game = self.game
        if (
            self.context.human_to_act()
            and game.to_act == game.current
            and (claimable := claimable_missions(game))
        ):
            self._act(f"mission {claimable[0]}")
            return
        self.questions.show_missions()

    def _pick(self, number: int) -> None:
        command = self.menu.pick(number)
        if command is not None:
            self._act(command)

    def _act(self, text: str) -> None:
        """Carry out a line that names an action (or a blitz, or setup placements to queue)."""
        try:
            order = interpret(self.game, text)
            self._check(order)
            self._carry_out(order)
        except ChoiceNeeded as choice:
            self.menu.show(choice.title, choice.entries)
            return
        except NotationError as error:
            word = text.split()[0].lower()
            if known_word(word):
                self._screen.say(
                    hint(f"{sentence(str(error))} Type `help` for commands.", Text("Not understood: ", "red"))
                )
            else:
                self.commands.not_understood(word)
            return
        except IllegalActionError as error:
            # 'Not allowed: ...' with the reason as a sentence, the commands in it in bold.
            self._screen.say(hint(sentence(engine_reason(error)), Text("Not allowed: ", style="red")))
            return
        self._advance()

    def _check(self, order: Action | BlitzOrder | SetupOrder) -> None:
        """Refuse an order out of the player's sight (fog of war) or against the rules' checks that
        this screen words itself."""
        if self.fogged:
            if isinstance(order, BlitzOrder):
                self._refuse_out_of_sight((order.source, order.target))
            elif isinstance(order, SetupOrder):
                self._refuse_out_of_sight((order.territory,))
            else:
                self._refuse_out_of_sight(action_territories(order) or ())
        reason = refusal(self.game, order) if isinstance(order, Action) else None
        if reason is not None:
            raise IllegalActionError(reason)

    def _refuse_out_of_sight(self, territories: Sequence[int]) -> None:
        """Fog of war: an order naming a territory the player at the keyboard does not see is
        refused for that alone (the rules' reasons could tell its owner or armies)."""
        view = View(self.game, self.game.to_act)
        hidden = [t for t in territories if not view.visible(t)]
        if hidden:
            name = self.game.board.name_of(hidden[0])
            raise IllegalActionError(f"{name} is out of your sight (fog of war)")

    def _carry_out(self, order: Action | BlitzOrder | SetupOrder) -> None:
        """Apply an action, start a blitz, or queue setup placements (raises if illegal)."""
        game = self.game
        player = game.to_act
        if isinstance(order, BlitzOrder):
            game.check(Attack(order.source, order.target, most_attack_dice(game, order.source)))
            self.orders.blitz = Blitz(order.source, order.target, player, self.context.holders(order.target))
        elif isinstance(order, SetupOrder):
            game.check(Place(order.territory, 1))
            seat = game.placing_for
            count = self.orders.queue_setup(player, order.territory, order.armies)
            whose = "setup" if seat == player else game.players[seat]
            where = game.board.name_of(order.territory)
            if count == 1:
                self._screen.say(f"Your next {whose} army goes to {where}.")
            else:
                self._screen.say(f"Your next {count} {whose} armies go to {where}.")
        else:
            self.reporter.record(apply_and_measure(game, order), typed=True)

    # ------------------------------------------------------------------------------------------
    # playing on: bots, blitzes, queued setup placements, automatic defence
    # ------------------------------------------------------------------------------------------
    def _advance(self) -> None:
        """Play every move no human has to type, then ask the human who must act."""
        game = self.game
        while not game.is_over:
            if self.humans and not any(game.alive[p] for p in self.humans) and not self._screen.quiet:
                self.reporter.flush()
                self._screen.say(Text("No human player is left: the bots play on to the end.", style="bold"))
                self._screen.quiet = True
            if game.turn > self.max_turns:
                self._stop_unfinished()
                return
            if not self._play_unasked():
                break
        if self.orders.blitz is not None:
            self.reporter.end_blitz()
        if game.is_over:
            self._finish()
        else:
            self.questions.ask()

    def _play_unasked(self) -> bool:
        """Play the next move if no human has to type it: a bot's, a blitz's roll, an automatic
        defence, the autopilot's, a queued placement. False when a human must answer."""
        game, orders = self.game, self.orders
        actor = game.to_act
        seat = self.seats[actor]
        if orders.blitz is not None and self._blitz_step():
            return True
        if game.phase == Phase.DEFEND and seat.is_human and orders.defends_on(actor):
            # Enter said "the rest of this attack": no question.
            # The attacker's turn so far first (as before a question), then the rolls.
            self.reporter.show_turn_so_far(actor)
            self.reporter.record(apply_and_measure(game, Defend(most_defence_dice(game))), typed=True)
            return True
        if game.phase == Phase.DEFEND and (not seat.is_human or orders.auto_defends(actor)):
            chosen = seat.bot.choose(View(game, actor)) if seat.bot else Defend(most_defence_dice(game))
            self._apply_automatic(chosen)
            return True
        if seat.bot is not None:
            self._apply_automatic(seat.bot.choose(View(game, actor)))
            return True
        if orders.autopilot_active(actor):
            self._apply_automatic(orders.helper(actor).choose(View(game, actor)))
            return True
        queued = orders.queued_placement(actor)
        if queued is not None:
            place, last = queued
            self._apply_automatic(place)
            if last:
                self.questions.setup_map_due = True
            return True
        return False

    def _apply_automatic(self, action: Action) -> None:
        """Apply a move no one typed (a bot's, a blitz roll, a queued placement)."""
        effect: Effect
        try:
            effect = apply_and_measure(self.game, action)
        except IllegalActionError as error:
            # A bot that breaks the rules must not end a human's game: note it, play a legal move.
            self._screen.warn(f"(a bot chose an illegal move and was overruled: {error})")
            effect = apply_and_measure(self.game, next(iter(self.game.legal_actions())))
        self.reporter.record(effect, typed=False)

    def _blitz_step(self) -> bool:
        """Roll the blitz once more, if it goes on; False when it is over or waits for a defender."""
        game, blitz = self.game, self.orders.blitz
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
            self.reporter.end_blitz()
            return False
        self._apply_automatic(Attack(blitz.source, blitz.target, most_attack_dice(game, blitz.source)))
        return True

    # ------------------------------------------------------------------------------------------
    # leaving, the end of the game
    # ------------------------------------------------------------------------------------------
    def _leave(self, reason: str) -> None:
        saver, say = self.saver, self._screen.say
        self.reporter.flush()
        self.context.finished = True
        if saver.keeps_the_game and saver.write(saver.save_file):
            say(Text.assemble(f"{reason} Saved to ", (str(saver.save_file), "bold"), "."))
            say(saver.resume_command())
            return
        say(
            f"{reason} "
            + (
                "Not saved (use save FILE to keep a game, or --save FILE)."
                if saver.unsaved
                else "Nothing new to save."
            )
        )

    def _stop_unfinished(self) -> None:
        self._screen.quiet = False
        self.reporter.flush()
        self._screen.say(
            f"Stopped in round {self.rounds.current} with no winner (the limit is {self.max_turns} turns, "
            "one player's turn each)."
        )
        self._finish()

    def _finish(self, write: bool = True) -> None:
        game, palette, say = self.game, self.palette, self._screen.say
        self._screen.quiet = False
        self.reporter.flush()
        self.context.finished = True
        view = View(game, self.viewer)
        say(Rule("Game over"))
        if game.rules.fog == "on":
            say(hint("The fog of war lifts: the whole board as it is."))
        say(MapView(view, palette))
        say(players_table(view, palette))
        if game.winner is not None:
            say(victory_text(game, palette, self.rounds.current))
        if game.goal.kind is GoalKind.SECRET_MISSION:
            say(secret_mission_text(view, palette))
        elif game.goal.kind is GoalKind.MISSION_CARDS:
            say(mission_cards_text(view, palette, (), ()))
        if not write:
            return
        path = self.save_file
        if self.saver.write(path):
            self.record_path = path
            say(
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
