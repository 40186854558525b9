"""What an action did, one-line summaries of whole turns (for bots' turns and the setup), and the
line that says who won.

``Effect`` is measured around one ``game.apply``: the dice, a conquest, eliminations, cards drawn.
A ``TurnLog`` gathers the effects of one player's turn into a line such as
"Bob: +7 (Ukraine +7); 4 attacks (lost 3, killed 6), conquered Egypt (Ann); fortified Ural -> Siberia 3".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text

from risk.rules.actions import (
    Action,
    Capital,
    Claim,
    ClaimMission,
    EndTurn,
    Fortify,
    Place,
    Trade,
)
from risk.rules.game import Battle, Game, Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import ranked_mission
from risk.rules.variants.fog import EVERYONE
from risk.rules.variants.missions import mission_complete
from risk.tui.render import Palette, mission_text


@dataclass(frozen=True, slots=True)
class Effect:
    """One applied action and what came of it."""

    action: Action
    actor: int  # who sent the action (the defender, for ``defend``)
    current: int  # whose turn it was
    turn: int
    phase: Phase  # the phase the action was sent in
    battle: Battle | None  # the roll, when the action made one
    defender: int  # who defended: the attacked territory's owner before the roll (-1: no battle)
    eliminated: tuple[int, ...]
    drawn: tuple[int, ...]  # cards the current player drew
    gained: int  # armies a trade added to those to place
    bonus_territory: int | None  # where a trade's +2 went
    seat: int = -1  # whose army a setup placement was (a neutral's, in 2-player RISK)
    headquarters_of: int = -1  # whose headquarters the roll conquered (Capital RISK)
    seen_by: int = EVERYONE  # fog of war: the seats that witnessed the action (a bit each)


def apply_and_measure(game: Game, action: Action) -> Effect:
    """Apply ``action`` (raising, and changing nothing, when it is illegal) and say what it did."""
    actor, current, phase, turn, seat = game.to_act, game.current, game.phase, game.turn, game.placing_for
    owner_before = list(game.owner)
    units_before = None if game.units is None else [stack[:] for stack in game.units]
    battle_before = game.last_battle
    alive_before = list(game.alive)
    pending_before = game.pending
    armies_before = list(game.armies)
    history_length = len(game.history)
    game.apply(action)
    new_entries = game.history[history_length:]
    witnessed = game.witnessed if game.rules.fog == "on" else []
    seen_by = witnessed[history_length] if history_length < len(witnessed) else EVERYONE
    drawn = tuple(card for kind, what, card in new_entries if kind == "chance" and what == "draw")
    eliminated = tuple(p for p, was in enumerate(alive_before) if was and not game.alive[p])
    # A battle is settled by this action when there is a new last battle: a roll may also wait for
    # a dice step (1993 experts) and be settled by the action after it.
    battle = game.last_battle if game.last_battle is not battle_before else None
    defender = owner_before[battle.target] if battle is not None else -1
    if battle is not None and units_before is not None:
        # Team RISK: the seat with the most armies there defended (the first on a tie, which no one
        # controls), as the engine rolls for it.
        stack = units_before[battle.target]
        defender = stack.index(max(stack))
    headquarters_of = -1
    if battle is not None and battle.conquered and battle.target in game.capitals:
        headquarters_of = game.capitals.index(battle.target)
    gained, bonus = 0, None
    if isinstance(action, Trade):
        gained = game.pending - pending_before
        held = [c for c in action.cards if c < len(game.board) and game.armies[c] != armies_before[c]]
        bonus = held[0] if held else None
    return Effect(
        action=action,
        actor=actor,
        current=current,
        turn=turn,
        phase=phase,
        battle=battle,
        defender=defender,
        eliminated=eliminated,
        drawn=drawn,
        gained=gained,
        bonus_territory=bonus,
        seat=seat,
        headquarters_of=headquarters_of,
        seen_by=seen_by,
    )


@dataclass
class TurnLog:
    """The effects of one player's turn (or of a stretch of the setup), summarised on one line."""

    player: int
    turn: int
    claims: list[int] = field(default_factory=list)
    setup_places: dict[int, int] = field(default_factory=dict)
    neutral_places: dict[int, int] = field(default_factory=dict)  # 2-player RISK: neutral armies placed
    chose_capital: bool = False  # Capital RISK: which one is secret until all have chosen
    missions: list[str] = field(default_factory=list)  # Mission RISK: cards claimed
    trades: list[tuple[int, int | None]] = field(default_factory=list)  # armies gained, bonus territory
    placements: dict[int, int] = field(default_factory=dict)
    attacks: int = 0
    armies_lost: int = 0
    armies_killed: int = 0
    conquered: list[tuple[int, int]] = field(default_factory=list)  # territory, previous owner
    headquarters: list[tuple[int, int]] = field(default_factory=list)  # territory, whose headquarters
    eliminated: list[int] = field(default_factory=list)
    fortified: tuple[int, int, int] | None = None
    cards_drawn: int = 0
    ended: bool = False

    def add(self, effect: Effect, seen: bool = True) -> None:
        """Add an effect; one not ``seen`` (fog of war: out of the readers' sight) adds only what
        is public: the end of the turn, cards drawn, eliminations."""
        action = effect.action
        if not seen:
            self.ended = self.ended or isinstance(action, (Fortify, EndTurn))
            self.eliminated.extend(effect.eliminated)
            self.cards_drawn += len(effect.drawn)
            return
        if isinstance(action, Claim):
            self.claims.append(action.territory)
        elif isinstance(action, Place):
            target = self.setup_places if effect.phase == Phase.SETUP_PLACE else self.placements
            if effect.phase == Phase.SETUP_PLACE and effect.seat != effect.current:
                target = self.neutral_places
            target[action.territory] = target.get(action.territory, 0) + action.armies
        elif isinstance(action, Trade):
            self.trades.append((effect.gained, effect.bonus_territory))
        elif isinstance(action, Fortify):
            self.fortified = (action.source, action.target, action.armies)
        elif isinstance(action, Capital):
            self.chose_capital = True
        elif isinstance(action, ClaimMission):
            self.missions.append(action.key)
        if isinstance(action, (Fortify, EndTurn)):
            self.ended = True
        battle = effect.battle
        if battle is not None:
            self.attacks += 1
            self.armies_lost += battle.attacker_losses
            self.armies_killed += battle.defender_losses
            if battle.conquered:
                self.conquered.append((battle.target, effect.defender))
            if effect.headquarters_of >= 0:
                self.headquarters.append((battle.target, effect.headquarters_of))
        self.eliminated.extend(effect.eliminated)
        self.cards_drawn += len(effect.drawn)

    @property
    def empty(self) -> bool:
        return not (
            self.claims
            or self.setup_places
            or self.neutral_places
            or self.chose_capital
            or self.missions
            or self.trades
            or self.placements
            or self.attacks
            or self.fortified
            or self.ended
            or self.cards_drawn
        )

    @property
    def has_news(self) -> bool:
        """Whether it holds more than attacks (which a defending human has watched roll by roll)."""
        return bool(
            self.claims
            or self.setup_places
            or self.neutral_places
            or self.chose_capital
            or self.missions
            or self.trades
            or self.placements
            or self.conquered
            or self.eliminated
            or self.fortified
            or self.ended
            or self.cards_drawn
        )

    def describe(self, game: Game, palette: Palette, stop: bool = True, heading: str = "") -> Text:
        """The line; ``stop``: ending with a full stop (not when it is joined to others); ``heading``:
        words after the player's name ("Bob so far this turn: ...")."""
        board = game.board
        parts: list[str | Text] = []
        if self.claims:
            parts.append("claimed " + ", ".join(board.name_of(t) for t in self.claims))
        if self.setup_places:
            parts.append(
                "placed " + ", ".join(f"{board.name_of(t)} +{n}" for t, n in self.setup_places.items())
            )
        if self.neutral_places:
            parts.append(
                "placed neutral armies on "
                + ", ".join(f"{board.name_of(t)} +{n}" for t, n in self.neutral_places.items())
            )
        if self.chose_capital:
            parts.append("chose a headquarters (secret)")
        for key in self.missions:
            parts.append(Text(f"claimed the mission '{ranked_mission(key, board).card_text}'", style="bold"))
        claimed, left = game.missions_claimed[self.player], game.mission_cards[self.player]
        if self.missions and len(claimed) == 3 and claimed[-1] == self.missions[-1] and left:
            # "must reveal his/her fourth" mission card
            parts.append(
                Text(f"fourth card revealed: '{ranked_mission(left[0], board).card_text}'", style="bold")
            )
        for gained, bonus in self.trades:
            extra = f" and +2 on {board.name_of(bonus)}" if bonus is not None else ""
            parts.append(f"traded a set for {gained}{extra}")
        if self.placements:
            total = sum(self.placements.values())
            where = ", ".join(f"{board.name_of(t)} +{n}" for t, n in self.placements.items())
            parts.append(f"reinforced +{total} ({where})")
        if self.attacks:
            attacks = f"attacked {self.attacks} time{'s' if self.attacks != 1 else ''}"
            attacks += f" (lost {self.armies_lost}, killed {self.armies_killed})"
            if self.conquered:
                taken = Text(", conquered ")
                for index, (territory, previous) in enumerate(self.conquered):
                    if index:
                        taken.append(", ")
                    taken.append(board.name_of(territory), style="bold")
                    if previous >= 0:
                        taken.append(" (")
                        taken.append_text(palette.name(previous))
                        taken.append(")")
                parts.append(Text(attacks).append_text(taken))
            else:
                parts.append(attacks)
        elif self.placements and not self.fortified and self.ended:
            parts.append("did not attack")
        for territory, seat in self.headquarters:
            parts.append(
                Text.assemble(
                    ("captured ", "bold"),
                    palette.name(seat),
                    (f"'s headquarters {board.name_of(territory)}!", "bold"),
                )
            )
        for player in self.eliminated:
            parts.append(Text.assemble("eliminated ", palette.name(player), "!"))
        if self.fortified is not None:
            source, target, armies = self.fortified
            noun = "army" if armies == 1 else "armies"
            parts.append(f"fortified {board.name_of(source)} -> {board.name_of(target)} ({armies} {noun})")
        if self.cards_drawn:
            parts.append(f"drew {'a card' if self.cards_drawn == 1 else f'{self.cards_drawn} cards'}")
        if not parts and self.ended:
            parts.append("ended the turn")
        line = Text.assemble(palette.name(self.player), f"{heading}: ")
        line.append_text(Text("; ").join(Text(p) if isinstance(p, str) else p for p in parts))
        if stop and not line.plain.endswith(("!", ".")):
            line.append(".")
        return line


def battle_line(game: Game, palette: Palette, effect: Effect) -> Text:
    """One roll: 'Ann attacks Egypt from Middle East: 6 5 2 against 6 1; Ann loses 1, Bob loses 1 ...'."""
    battle = effect.battle
    assert battle is not None
    board = game.board
    attacker, defender = effect.current, effect.defender
    line = Text.assemble(
        palette.name(attacker),
        f" attacks {board.name_of(battle.target)} from {board.name_of(battle.source)}: ",
        (" ".join(map(str, battle.attacker_dice)), "bold"),
        " against ",
        (" ".join(map(str, battle.defender_dice)), "bold"),
        "; ",
    )
    losses: list[Text] = []
    if battle.attacker_losses:
        losses.append(Text.assemble(palette.name(attacker), f" loses {battle.attacker_losses}"))
    if battle.defender_losses:
        losses.append(Text.assemble(palette.name(defender), f" loses {battle.defender_losses}"))
    line.append_text(Text(", ").join(losses))
    source_left = game.armies[battle.source]
    if battle.conquered:
        line.append(f". {board.name_of(battle.target)} is conquered!", style="bold")
        if effect.headquarters_of >= 0:
            line.append_text(
                Text.assemble(
                    " It was ", palette.name(effect.headquarters_of), "'s headquarters.", style="bold"
                )
            )
    else:
        line.append(
            f" (left: {board.name_of(battle.source)} {source_left}, "
            f"{board.name_of(battle.target)} {game.armies[battle.target]})"
        )
    return line


@dataclass
class SetupLog:
    """The setup moves of every player since a human was last asked: one line per player."""

    turn: int = 0
    player: int = -1  # several players
    logs: dict[int, TurnLog] = field(default_factory=dict)

    def add(self, effect: Effect, seen: bool = True) -> None:
        self.logs.setdefault(effect.current, TurnLog(effect.current, effect.turn)).add(effect, seen)

    @property
    def empty(self) -> bool:
        return all(log.empty for log in self.logs.values())

    @property
    def has_news(self) -> bool:
        return not self.empty

    def describe(self, game: Game, palette: Palette) -> Text:
        logs = [log for log in self.logs.values() if not log.empty]
        # A round of single claims or placements reads best on one line.
        one_line = Text(" · ").join(log.describe(game, palette, stop=False) for log in logs)
        if one_line.cell_len < 80:
            return one_line.append(".")
        return Text("\n").join(log.describe(game, palette) for log in logs)


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
