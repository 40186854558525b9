"""Reporting what happened at the terminal: each applied action goes into the open summary of its
turn (:mod:`risk.tui.summary`), is shown at once when a human follows it move by move, and every
turn's summary line goes into the journal (`log`). Under fog of war, only what the humans at the
screen saw is told."""

from __future__ import annotations

from rich.text import Text

from risk.rules.actions import Capital, ClaimMission, EndTurn, Fortify, Occupy, Place
from risk.rules.game import Phase
from risk.rules.missions import ranked_mission
from risk.rules.variants.fog import sees
from risk.tui.context import Context
from risk.tui.orders import Blitz, StandingOrders
from risk.tui.render import HEADQUARTERS_MARK, card_label, plural, team_names
from risk.tui.summary import Effect, SetupLog, TurnLog, battle_line
from risk.view import SPECTATOR


class Reporter:
    """The turn summaries, the journal, and what an action shows as it is applied."""

    def __init__(self, context: Context, orders: StandingOrders) -> None:
        self.context = context
        self.orders = orders
        self.journal: list[Text] = []  # every turn's summary line, for `log`
        self._log: TurnLog | SetupLog | None = None
        self._log_shown = False  # whether the open log holds moves the human did not make by hand
        self._shown_so_far: tuple[int, int] | None = None  # (player, turn) whose turn so far was shown

    def record(self, effect: Effect, typed: bool) -> None:
        """Log an applied action; show its result now when a human is following it move by move."""
        context = self.context
        game, palette, say = context.game, context.palette, context.screen.say
        context.rounds.update()
        if not (typed and effect.turn == 0):  # a claim or placement the human just typed needs no echo
            self._log_for(effect.current, effect.turn).add(effect, self._may_read(effect.seen_by))
        hand_turn = self.orders.hand_turn(effect.current)
        if not typed and not hand_turn:
            self._log_shown = True  # a bot's (or the autopilot's) turn: summarised when it ends
        battle, blitz = effect.battle, self.orders.blitz
        if battle is not None and blitz is not None and effect.current == blitz.attacker:
            blitz.rolls += 1
            blitz.lost += battle.attacker_losses
            blitz.killed += battle.defender_losses
            blitz.conquered = battle.conquered
            if typed:
                say(battle_line(game, palette, effect))  # a human defender sees each roll
        elif battle is not None and (typed or hand_turn):
            say(battle_line(game, palette, effect))
        elif typed:
            self._describe_own(effect)
        if battle is not None and battle.conquered and hand_turn and game.phase != Phase.OCCUPY:
            moved = self._moved_in_unasked(battle.source, battle.target)
            if moved is not None and blitz is not None:
                blitz.after.append(moved)  # after the blitz's own line
            elif moved is not None:
                say(moved)
        for player in effect.eliminated:
            self._tell(self._elimination(player, effect.current), blitz)
        if effect.drawn and hand_turn:
            drawn = Text.assemble(palette.name(effect.current), " draws a card: ")
            drawn.append_text(Text(", ").join(card_label(game.board, c) for c in effect.drawn))
            say(drawn.append("."))
        if effect.phase == Phase.CHOOSE_CAPITAL and game.phase != Phase.CHOOSE_CAPITAL:
            self._reveal_headquarters()

    def _tell(self, news: Text, blitz: Blitz | None) -> None:
        """News now, or after the line of the blitz under way."""
        if blitz is not None:
            blitz.after.append(news)
        else:
            self.context.screen.say(news)

    def _elimination(self, player: int, by: int) -> Text:
        game, palette = self.context.game, self.context.palette
        if game.team is not None:
            # Team RISK: the first elimination ends the game; no cards change hands.
            ending = Text.assemble(": the team of ", team_names(palette, game.team[by]), " wins.")
        elif palette.is_neutral(player):
            ending = Text(".")
        else:
            ending = Text(f", who takes {palette.names[player]}'s cards.")
        return Text.assemble(
            palette.name(player), " is eliminated by ", palette.name(by), ending, style="bold"
        )

    def _moved_in_unasked(self, source: int, target: int) -> Text | None:
        """The armies that moved into a conquered territory with no question asked, as only one
        number could move (the source kept its last army); None once the game is over."""
        game, board = self.context.game, self.context.game.board
        if game.is_over:
            return None
        return Text(
            f"Moved {plural(game.armies[target], 'army')} into {board.name_of(target)}, all that could "
            f"move (one stays behind in {board.name_of(source)})."
        )

    def _reveal_headquarters(self) -> None:
        """Capital RISK: everyone has chosen; the headquarters are shown together."""
        game, palette = self.context.game, self.context.palette
        self.flush()
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
        self.context.screen.say(line)

    def _may_read(self, seen_by: int) -> bool:
        """Fog of war: whether the log may tell what the seats ``seen_by`` witnessed. The screen is
        shared: every human at it must have seen it (with no human, it is a spectator's: no one)."""
        context = self.context
        if not context.fogged:
            return True
        if context.humans:
            return all(sees(seen_by, p) for p in context.humans)
        return sees(seen_by, SPECTATOR)

    def _describe_own(self, effect: Effect) -> None:
        """What the human's own typed action did, in a line."""
        game, board, say = self.context.game, self.context.game.board, self.context.screen.say
        action = effect.action
        if isinstance(action, Place) and effect.phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
            left = f"{plural(game.pending, 'army')} left to place" if game.pending else "all placed"
            say(
                Text(f"Placed {plural(action.armies, 'army')} on {board.name_of(action.territory)} (now ")
                .append_text(self.context.armies_in(action.territory))
                .append(f"); {left}.")
            )
        elif isinstance(action, Occupy):
            assert game.last_battle is not None
            source, target = game.last_battle.source, game.last_battle.target
            say(
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
                line.append(" (now ").append_text(self.context.armies_in(action.target)).append(")")
            over = game.current != effect.current or game.phase != Phase.FORTIFY
            say(line.append(". Turn over." if over else "."))
        elif isinstance(effect.action, EndTurn):
            say("Turn over.")
        elif isinstance(action, Capital):
            where = "" if self.context.hotseat else f": {board.name_of(action.territory)}"
            say(f"Headquarters chosen{where} (secret until everyone has chosen).")
        elif isinstance(action, ClaimMission):
            self._describe_claim(action.key, effect.current)
        elif effect.gained:
            bonus = effect.bonus_territory
            extra = f" and +2 on {board.name_of(bonus)}" if bonus is not None else ""
            say(f"Traded a set for {effect.gained} armies{extra}.")

    def _describe_claim(self, key: str, player: int) -> None:
        game, say = self.context.game, self.context.screen.say
        claimed = len(game.missions_claimed[player])
        say(
            Text(
                f"Mission claimed: {ranked_mission(key, game.board).card_text} ({claimed} of 4).",
                style="bold",
            )
        )
        if claimed == 3 and game.mission_cards[player]:
            shown = ranked_mission(game.mission_cards[player][0], game.board).card_text
            say(f"Your fourth card is now shown to everyone: {shown}")

    def _log_for(self, player: int, turn: int) -> TurnLog | SetupLog:
        """The open summary for ``player``'s turn (one shared summary during the setup)."""
        if turn == 0:
            if not isinstance(self._log, SetupLog):
                self.flush()
                self._log = SetupLog()
        elif self._log is None or self._log.player != player or self._log.turn != turn:
            self.flush()
            self._log = TurnLog(player, turn)
        return self._log

    def show_turn_so_far(self, defender: int) -> None:
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
            self.context.screen.say(
                log.describe(self.context.game, self.context.palette, heading=" so far this turn")
            )

    def close_before_asking(self, player: int) -> None:
        """Before ``player`` is asked (not a defence): the summary of another player's turn, or of
        moves the human did not type, is complete."""
        log = self._log
        if log is not None and (log.player != player or self._log_shown):
            self.flush()

    def flush(self) -> None:
        """Close the open summary: into the journal, and on screen if it holds moves not typed."""
        log, self._log = self._log, None
        if log is None or log.empty:
            return
        line = log.describe(self.context.game, self.context.palette)
        self.journal.append(line)
        if self._log_shown:
            self.context.screen.say(line)
        self._log_shown = False

    def end_blitz(self) -> None:
        """The blitz under way is over: one line for all its rolls, then the news it held back."""
        orders, game, board = self.orders, self.context.game, self.context.game.board
        blitz, palette = orders.blitz, self.context.palette
        assert blitz is not None
        orders.blitz = None
        line = Text.assemble(
            ("Blitz ", "bold"),
            f"{board.name_of(blitz.source)} -> {board.name_of(blitz.target)}: "
            f"{blitz.rolls} roll{'s' if blitz.rolls != 1 else ''}; ",
            palette.name(blitz.attacker),
            f" lost {blitz.lost}, ",
            Text(" and ").join(palette.name(p) for p in blitz.defenders),
            f" lost {blitz.killed}. ",
        )
        if blitz.conquered:
            line.append(f"{board.name_of(blitz.target)} is conquered!", style="bold")
        else:
            line.append(
                f"{board.name_of(blitz.source)} is down to {game.armies[blitz.source]}; "
                f"{board.name_of(blitz.target)} holds with {game.armies[blitz.target]}."
            )
        self.context.screen.say(line)
        for news in blitz.after:
            self.context.screen.say(news)
