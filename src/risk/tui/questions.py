"""Asking the human who must act at the terminal: the prompt, and what to show before it (the
turn's opening screen, the map where it changed, the commands of the phase, the goal), with one
handler a phase. In hot-seat play the keyboard passes between humans: the screen is cleared where
the next player must not see the last one's secrets."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.rule import Rule
from rich.text import Text

from risk.rules.game import Game, Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import ranked_mission
from risk.rules.variants import game_title
from risk.rules.variants.capital import capitals_needed
from risk.rules.variants.missions import claimable_missions
from risk.tui.context import Context
from risk.tui.menu import Menu
from risk.tui.orders import SETUP_PHASES
from risk.tui.render import (
    HEADQUARTERS_MARK,
    MapView,
    hand_text,
    hint,
    mission_cards_text,
    phase_label,
    players_line,
    plural,
    secret_mission_text,
    status_line,
)
from risk.tui.report import Reporter
from risk.tui.shortforms import most_defence_dice, own_force
from risk.view import View

# The prompt's word in the phases whose prompt says nothing else.
PROMPT_WORDS = {
    Phase.CLAIM: "claim",
    Phase.CHOOSE_CAPITAL: "headquarters",
    Phase.TURN_END: "end of turn",
    Phase.ATTACK: "attack",
    Phase.FORTIFY: "fortify",
}


def prompt_for(game: Game) -> str:
    """The prompt for the player who must act: their name, what to do, and the default answer."""
    player = game.to_act
    name = game.players[player]
    phase = game.phase
    if phase == Phase.SETUP_PLACE:
        seat = game.placing_for
        if seat != player:  # 2-player RISK: a neutral's army
            return f"{name} place a {game.players[seat]} army ({game.setup_armies[seat]} left)> "
        return f"{name} place ({game.setup_armies[player]} left)> "
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE):
        if game.must_trade(player):
            return f"{name} trade ({len(game.hands[player])} cards)> "
        verb = "reinforce" if phase == Phase.REINFORCE else "place"
        return f"{name} {verb} ({game.pending} to place)> "
    if phase == Phase.DEFEND:
        most = most_defence_dice(game)
        attack = game.pending_attack
        # Team RISK: whoever has the most armies there defends (a tied territory has no owner).
        defender = game.owner[attack[1]] if attack is not None and game.team is None else player
        verb = "defend" if defender == player else f"defend {game.players[defender]} with"
        return f"{name} {verb} 1-{most} [{most}]> " if most > 1 else f"{name} {verb} [1]> "
    if phase == Phase.OCCUPY:
        low, high = game.occupy_range()
        return f"{name} move {low}-{high} [{high}]> "
    return f"{name} {PROMPT_WORDS.get(phase) or phase_label(phase)}> "


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


class Questions:
    """What the human who must act is shown before the prompt, asked once each time the question
    changes (and again when the keyboard comes back to them)."""

    def __init__(self, context: Context, reporter: Reporter, menu: Menu) -> None:
        self.context = context
        self.reporter = reporter
        self.menu = menu
        self._asked: set[tuple[int, ...]] = set()  # the questions put to humans this turn
        self._asked_turn = -1
        self._setup_map_shown: set[int] = set()  # players shown the map in the setup (2-player
        # RISK asks again for each neutral)
        self.setup_map_due = False  # a `place T N` has been carried out: the map again
        self._turn_shown: tuple[int, int] | None = None  # (player, turn) whose opening screen was shown
        self.show_map_when_asked = False  # a resumed game: the board first
        self._phases: dict[Phase, Callable[[View, int], None]] = {
            Phase.CLAIM: self._claim,
            Phase.SETUP_PLACE: self._setup_place,
            Phase.CHOOSE_CAPITAL: self._choose_capital,
            Phase.REINFORCE: self._reinforce,
            Phase.ELIMINATION_TRADE: self._elimination_trade,
            Phase.ATTACK: self._attack,
            Phase.OCCUPY: self._occupy,
            Phase.FORTIFY: self._fortify,
            Phase.TURN_END: self._turn_end,
            Phase.DEFEND: self._defend,
        }

    def _say(self, renderable: RenderableType) -> None:
        self.context.screen.say(renderable)

    def ask_again(self) -> None:
        """Ask the question on screen again (Enter alone, or playing on after `quit`)."""
        self._asked = set()
        self.ask()

    def ask(self) -> None:
        """Show the human who must act what to do now, unless it was shown already."""
        context = self.context
        game = context.game
        player, phase = game.to_act, game.phase
        if phase == Phase.DEFEND:
            self.reporter.show_turn_so_far(player)  # the attacker's turn goes on after the defence
        else:
            self.reporter.close_before_asking(player)
        if not self._new_question(player, phase):
            return
        if player != context.viewer:
            self._hand_over(player, phase)
        view = context.view()
        if self.show_map_when_asked:
            self.show_map_when_asked = False
            self._resumed_map(view, player, phase)
        self._phases.get(phase, self._other_phase)(view, player)

    def _new_question(self, player: int, phase: Phase) -> bool:
        """Whether this question was not put to ``player`` yet (noting it as put)."""
        game = self.context.game
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
        if question in self._asked and player == self.context.viewer and not self.setup_map_due:
            return False
        self._asked.add(question)
        return True

    def _hand_over(self, player: int, phase: Phase) -> None:
        """The keyboard passes to ``player``: their screen from now on, cleared first where the
        player before may have seen secrets that ``player`` must not."""
        context = self.context
        game, palette = context.game, context.palette
        previous, context.viewer = context.viewer, player
        opens_turn = phase == Phase.REINFORCE and self._turn_shown != (player, game.turn)
        # Team RISK: each team's hand is secret from the other, even when a defence is asked (the
        # setup has no secrets: the hands are empty).
        other_team = (
            game.team is not None
            and phase not in SETUP_PHASES
            and previous >= 0
            and game.team[previous] != game.team[player]
        )
        if context.hotseat and (
            other_team
            # Goals with secrets beyond the cards: cleared between players too.
            or (game.goal.secret and (opens_turn or phase == Phase.CHOOSE_CAPITAL))
        ):
            context.screen.clear_first()
        if context.hotseat and not opens_turn:  # a new turn has its own banner
            self._say(Rule(Text.assemble(palette.name(player), "'s move: pass the keyboard")))
            if other_team:  # the screen was cleared: the board again, for the player now at it
                self._say(MapView(context.view(), palette))

    def _resumed_map(self, view: View, player: int, phase: Phase) -> None:
        """A resumed game shows the board, unless the question shows it anyway."""
        game = self.context.game
        shows_map = (
            (phase == Phase.REINFORCE and self._turn_shown != (player, game.turn))
            or (phase == Phase.SETUP_PLACE and player not in self._setup_map_shown)
            or (phase == Phase.CLAIM and game.territory_count[player] == 0)
            or phase == Phase.CHOOSE_CAPITAL
        )
        if not shows_map:
            self._say(MapView(view, self.context.palette))
            self._say(status_line(view, self.context.palette, self.context.rounds.current))

    # ------------------------------------------------------------------------------------------
    # one question a phase
    # ------------------------------------------------------------------------------------------
    def _claim(self, view: View, player: int) -> None:
        if self.context.game.territory_count[player] == 0:
            self._say(MapView(view, self.context.palette))
        self._say(
            hint(
                ", claim a territory: `claim NAME` (Tab completes names), a number from `help`, "
                "or `auto` to let the computer do your setup.",
                self.context.palette.name(player),
            )
        )

    def _setup_place(self, view: View, player: int) -> None:
        game, palette = self.context.game, self.context.palette
        name = palette.name(player)
        if player not in self._setup_map_shown or self.setup_map_due:
            self.setup_map_due = False
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

    def _choose_capital(self, view: View, player: int) -> None:
        self._say(MapView(view, self.context.palette))
        self._say(
            hint(
                ", choose your headquarters (secret until everyone has chosen): `capital NAME`, "
                "one of your territories (`help` lists them; `auto` lets the computer choose).",
                self.context.palette.name(player),
            )
        )

    def _reinforce(self, view: View, player: int) -> None:
        game = self.context.game
        receive = self._open_turn(view, player) if self._turn_shown != (player, game.turn) else ""
        if game.must_trade(player):
            if receive:
                self._say(hint(receive))
            title = f"You hold {len(game.hands[player])} cards: trade a set first (type its number):"
            self.menu.show(title)  # every choice is a trade now
            return
        if self.context.trade_commands() and not game.placed_this_turn:
            self._say(hint("You may trade a set first: `trade` (or see `hand`)."))
        place = "Place them" if receive else f"Place your {plural(game.pending, 'army')}"
        # Team RISK: also where the player shares a territory, or one is tied.
        where = " on any territory where you have armies" if game.team is not None else ""
        self._say(hint(f"{receive}{place}{where}: `place NAME [N]` (all of them without N)."))

    def _open_turn(self, view: View, player: int) -> str:
        """The opening screen of a turn, which fits an 80 x 24 terminal: the map, one line of
        players, the hand and the goal; returns the line on the armies received, to say next."""
        context = self.context
        game, palette = context.game, context.palette
        self._turn_shown = (player, game.turn)
        handover = " · pass the keyboard" if context.hotseat else ""
        self._say(Rule(Text.assemble(f"Round {context.rounds.current} · ", palette.name(player), handover)))
        self._say(MapView(view, palette))
        self._say(players_line(view, palette))
        if game.hands[player]:
            self._say(hand_text(view, palette))
        goal = self.goal_line()
        if goal is not None:
            self._say(goal)
        return f"You receive `{game.pending} armies` ({reinforcement_breakdown(game, player)}). "

    def _elimination_trade(self, view: View, player: int) -> None:
        game = self.context.game
        if game.must_trade(player):
            self.menu.show(
                f"You hold {len(game.hands[player])} cards: trade sets until you hold 4 or fewer "
                "(type a number):"
            )
        else:
            self._say(hint(f"Place the {plural(game.pending, 'army')} from your trades: `place NAME [N]`."))

    def _attack(self, view: View, player: int) -> None:
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
                    if self.context.game.team is not None
                    else ""
                )
            )
        )

    def _occupy(self, view: View, player: int) -> None:
        game, board = self.context.game, self.context.game.board
        assert game.pending_occupation is not None
        source, target, _ = game.pending_occupation
        low, high = game.occupy_range()
        self._say(
            hint(
                f"Move into {board.name_of(target)} from {board.name_of(source)}: `move N` "
                f"({low}-{high}; Enter = {high}, `move min` = {low})."
            )
        )

    def _fortify(self, view: View, player: int) -> None:
        game = self.context.game
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
                hint("Fortify once: `fortify FROM TO [N]` (all but one without N), or `end` to end the turn.")
            )

    def _turn_end(self, view: View, player: int) -> None:
        self._say(
            hint(
                "End of your turn: you have completed an end-of-turn mission. `mission` claims it "
                "(`help` lists them), `end` passes."
            )
        )

    def _defend(self, view: View, player: int) -> None:
        context = self.context
        game, board, palette = context.game, context.game.board, context.palette
        assert game.pending_attack is not None
        source, target, dice = game.pending_attack
        most = most_defence_dice(game)
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
        line.append_text(Text(f"{board.name_of(target)} (").append_text(context.armies_in(target)))
        line.append_text(
            hint(f") from {board.name_of(source)} ({own_force(game, source)}) with {plural(dice, 'die')}. ")
        )
        if game.team is not None and len(context.holders(target)) > 1:
            line.append("You have the most armies there: you roll, and lose armies first. ")
        if defender != player:
            line.append_text(Text.assemble("You roll the defence for ", palette.name(defender), ". "))
        self._say(line.append_text(hint(choice)))

    def _other_phase(self, view: View, player: int) -> None:
        """A phase this screen does not know yet: its legal actions, typed or by number."""
        game, board = self.context.game, self.context.game.board
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
        self.menu.show(f"{phase_label(game.phase)}: type an action or its number:")

    # ------------------------------------------------------------------------------------------
    # the game's goal: how it is won, missions, headquarters
    # ------------------------------------------------------------------------------------------
    def goal_line(self) -> Text | None:
        """The turn opening's line on the player's goal, where the game has one."""
        context = self.context
        game, view = context.game, context.view()
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            if context.hotseat:  # the next player is already at the keyboard: on request only
                return hint("Your secret mission: `mission` shows it (make sure no one else is looking).")
            return secret_mission_text(view, context.palette)
        if kind is GoalKind.MISSION_CARDS:
            claimed = len(game.missions_claimed[view.player])
            line = hint(f"Missions: {claimed} of 4 claimed; `missions` shows your cards.")
            claim = self._claim_hint("before trading or placing")
            return line if claim is None else line.append(" ").append_text(claim)
        if kind is GoalKind.HEADQUARTERS:
            return self._headquarters_line(view.player)
        return None

    def _headquarters_line(self, player: int) -> Text | None:
        game = self.context.game
        home = game.capitals[player]
        if home < 0:
            return None
        needed = capitals_needed(game)
        held = sum(
            1 for p, c in enumerate(game.capitals) if p != player and c >= 0 and game.owner[c] == player
        )
        return hint(
            f"Your headquarters: {game.board.name_of(home)} ({HEADQUARTERS_MARK} on the map). "
            f"You hold {held} of the {needed} enemy headquarters you need"
            + ("" if game.owner[home] == player else ", and must retake your own")
            + "."
        )

    def _claim_hint(self, when: str) -> Text | None:
        """Mission RISK: the cards that may be claimed now (named only when no one else is looking)."""
        game = self.context.game
        if game.goal.kind is not GoalKind.MISSION_CARDS or game.to_act != game.current:
            return None
        claimable = claimable_missions(game)
        if not claimable:
            return None
        if self.context.hotseat:
            return hint(f"`mission` claims a completed mission card now, {when}.")
        cards = " or ".join(f"`mission {key}`" for key in claimable)
        return hint(f"Mission complete: claim it now, {when}: {cards}.")

    def show_missions(self) -> None:
        """`missions`: the player's secret mission or mission cards, or where headquarters stand."""
        context = self.context
        game, view = context.game, context.view()
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            self._say(secret_mission_text(view, context.palette))
        elif kind is GoalKind.MISSION_CARDS:
            player = view.player
            unclaimed = game.mission_cards[player] if player >= 0 else []
            complete = [k for k in unclaimed if ranked_mission(k, game.board).is_complete(game, player)]
            claimable = claimable_missions(game) if player == game.current and not game.is_over else []
            self._say(mission_cards_text(view, context.palette, complete, claimable))
        elif kind is GoalKind.HEADQUARTERS:
            goal = self.goal_line()
            self._say(goal if goal is not None else Text("Headquarters are chosen after the setup."))
        else:
            self._say(Text(f"There are no missions in {game_title(game.rules.game)}."))

    def game_intro(self) -> Text:
        """One line on how this game is won (and, with one human, their secret mission)."""
        context = self.context
        game = context.game
        kind = game.goal.kind
        if kind is GoalKind.SECRET_MISSION:
            line = Text("Secret Mission RISK: the first to complete their secret mission wins. ")
            if context.hotseat:
                return line.append_text(hint("Type `mission` to see yours when no one else is looking."))
            return line.append_text(secret_mission_text(context.view(), context.palette))
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
                Text(" against ").join(context.palette.team_label(t) for t in (0, 1)),
                hint(
                    ". Teammates share one hand of cards and never attack each other; you fortify into "
                    "and through teammates' territories; whoever has the most armies in a territory "
                    "controls it (a tie: no one). The game ends when any player is eliminated: the other "
                    "team wins."
                ),
            )
        return Text("World domination: conquer every territory.")
