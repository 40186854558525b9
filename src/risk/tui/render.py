"""Rich renderables for the terminal game: the map, the players, the hand, the status line.

Everything here reads a :class:`risk.view.View`, never the game itself, so the screen can only
show what that player may know: other players' hands appear as counts.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.segment import ControlType, Segment
from rich.table import Table
from rich.text import Text

from risk.maps import SYMBOLS, WILD, Board
from risk.rules.game import TIED, Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import COLOURS, ranked_mission
from risk.view import SPECTATOR, View

# Bright colours read on dark and light backgrounds; one per seat, in seat order.
PLAYER_COLOURS = (
    "bright_red",
    "bright_blue",
    "bright_green",
    "bright_yellow",
    "bright_magenta",
    "bright_cyan",
    "orange1",
    "purple",
    "pink1",
    "chartreuse3",
)
# Team RISK: warm colours for the first team, cool ones for the second, so teams read at a glance.
TEAM_COLOURS = (
    ("bright_red", "bright_yellow", "bright_magenta"),
    ("bright_blue", "bright_green", "bright_cyan"),
)
UNCLAIMED_STYLE = "dim"
# Neutral armies (2-player RISK) are grey: no player's colour.
NEUTRAL_COLOUR = "grey62"
HEADQUARTERS_MARK = "*"
# Fog of war: a territory out of sight is dimmed; its armies as last seen carry this mark, and one
# never seen shows this instead of an owner and armies.
FOG_STYLE = "dim"
LAST_SEEN_MARK = "~"
UNKNOWN_MARK = "?"
# Team RISK: a territory shared by teammates (the controller's tag, then this), and a tied one,
# controlled by no one (shown grey, like the neutral armies that belong to no player).
SHARED_MARK = "+"
TIED_MARK = "="
TIED_STYLE = f"italic {NEUTRAL_COLOUR}"
# The players table's column for the public part of a goal (goal_text), by the kind of goal.
GOAL_COLUMNS = {GoalKind.HEADQUARTERS: "HQ", GoalKind.MISSION_CARDS: "missions"}
SYMBOL_NAMES = {**dict(enumerate(SYMBOLS)), WILD: "wild"}
PHASE_LABELS = {
    Phase.CLAIM: "setup: claim",
    Phase.SETUP_PLACE: "setup: place",
    Phase.REINFORCE: "reinforce",
    Phase.ATTACK: "attack",
    Phase.DEFEND: "defend",
    Phase.OCCUPY: "move in",
    Phase.ELIMINATION_TRADE: "trade (elimination)",
    Phase.FORTIFY: "fortify",
    Phase.GAME_OVER: "game over",
    Phase.CHOOSE_CAPITAL: "setup: headquarters",
    Phase.TURN_END: "end of turn",
    Phase.OTHER_TURN: "under the fog",  # fog of war: another player's turn, its steps out of sight
}


# Nouns whose plural is not the noun + "s".
PLURALS = {"army": "armies", "die": "dice", "territory": "territories", "setup army": "setup armies"}


def plural(count: int, noun: str) -> str:
    """'1 army', '2 armies', '1 die', '3 dice', '1 card', '0 cards'."""
    return f"{count} {noun if count == 1 else PLURALS.get(noun, noun + 's')}"


def percent(p: float, decimals: int = 0, *, uncertain: bool = False) -> str:
    """A probability as a percentage to ``decimals`` places, never rounded to 100% unless certain nor
    to 0% unless impossible: '99.7%' for 0.9967 (one more place), '>99.9%' when that is not enough.
    ``uncertain``: the event may go either way (a battle with armies on both sides), so not even a
    probability that floating point makes 1 or 0 (169 armies against 1) reads 100% or 0%."""
    if uncertain:
        p = min(max(p, math.nextafter(0.0, 1.0)), math.nextafter(1.0, 0.0))
    if p >= 1:
        return "100%"
    if p <= 0:
        return "0%"
    for places in (decimals, decimals + 1):
        value = round(100 * p, places)
        if 0 < value < 100:
            return f"{value:.{places}f}%"
    step = 10.0 ** -(decimals + 1)
    return f">{100 - step:.{decimals + 1}f}%" if p > 0.5 else f"<{step:.{decimals + 1}f}%"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop (unless it ends a sentence
    already)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def phase_label(phase: Phase) -> str:
    """The phase for the status line; a phase added to the engine later shows its own name."""
    return PHASE_LABELS.get(phase, phase.name.lower().replace("_", " "))


@dataclass(frozen=True, slots=True)
class Palette:
    """How players look on screen: a colour, a one-letter tag (for the map) and a seat label."""

    names: tuple[str, ...]
    colours: tuple[str, ...]
    tags: tuple[str, ...]
    labels: tuple[str, ...]  # "you", "human", the bot's name, or "neutral"
    neutral: tuple[bool, ...] = ()
    teams: tuple[int, ...] = ()  # Team RISK: each seat's team (0 or 1); empty in other games

    @classmethod
    def for_players(
        cls,
        names: Sequence[str],
        labels: Sequence[str] | None = None,
        neutral: Sequence[bool] = (),
        teams: Sequence[int] | None = None,
    ) -> Palette:
        flags = tuple(neutral) or (False,) * len(names)
        # A neutral's tag is its number ("Neutral 3" -> "3"), or N for the only one.
        neutral_tags = {
            i: (name[-1] if name[-1].isdigit() else "N") for i, name in enumerate(names) if flags[i]
        }
        players = [i for i in range(len(names)) if not flags[i]]
        initials = {i: names[i].strip()[0].upper() for i in players}
        tags = {**initials, **neutral_tags}
        if len(set(tags.values())) != len(tags):
            # Initials when they tell the players apart; else seat numbers (letters beside neutrals).
            fallback = "ABCDEFGHIJ" if neutral_tags else "1234567890"  # up to 10 players
            tags = {**{p: fallback[k] for k, p in enumerate(players)}, **neutral_tags}
        colours = [
            NEUTRAL_COLOUR if flags[i] else PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i in range(len(names))
        ]
        if teams:
            colours = [TEAM_COLOURS[team][i // 2 % 3] for i, team in enumerate(teams)]
        return cls(
            tuple(names),
            tuple(colours),
            tuple(tags[i] for i in range(len(names))),
            tuple(labels or [""] * len(names)),
            flags,
            tuple(teams or ()),
        )

    def team_members(self, team: int) -> list[int]:
        """Team RISK: the seats of ``team``, in seat order."""
        return [p for p, t in enumerate(self.teams) if t == team]

    def team_label(self, team: int) -> Text:
        """'Team 1: Ann, Cy', each name in its colour."""
        label = Text(f"Team {team + 1}: ", style="bold")
        return label.append_text(Text(", ").join(self.name(p) for p in self.team_members(team)))

    def is_neutral(self, player: int) -> bool:
        return 0 <= player < len(self.neutral) and self.neutral[player]

    def style(self, player: int) -> str:
        if player == TIED:
            return TIED_STYLE
        return self.colours[player] if player >= 0 else UNCLAIMED_STYLE

    def name(self, player: int) -> Text:
        return Text(self.names[player], style=f"bold {self.style(player)}")

    def short_name(self, player: int, width: int) -> str:
        """The player's name cut to ``width`` characters, or the tag when cut names would clash."""
        # "Neutral 2" -> "Neut 2": the number is what tells neutrals apart.
        names = [
            n.replace("Neutral", "Neut") if self.is_neutral(i) and len(n) > width else n
            for i, n in enumerate(self.names)
        ]
        cut = [n[:width] for n in names]
        return cut[player] if len(set(cut)) == len(cut) else self.tags[player]


def abbreviate(name: str, width: int) -> str:
    """A territory name that fits ``width``: 'Western United States' -> 'W. United States'."""
    if len(name) <= width:
        return name
    first, _, rest = name.partition(" ")
    if rest and len(rest) + 3 <= width:
        return f"{first[0]}. {rest}"
    return name[: width - 1] + "…"


def balanced_groups(heights: Sequence[int], columns: int) -> list[list[int]]:
    """Split items (kept in order) into ``columns`` runs whose tallest run is as short as possible."""
    count = len(heights)
    columns = max(1, min(columns, count))
    best: tuple[int, list[list[int]]] | None = None

    def split(start: int, left: int, runs: list[list[int]]) -> None:
        nonlocal best
        if left == 1:
            candidate = [*runs, list(range(start, count))]
            tallest = max(sum(heights[i] for i in run) for run in candidate)
            if best is None or tallest < best[0]:
                best = (tallest, candidate)
            return
        for end in range(start + 1, count - left + 2):
            split(end, left - 1, [*runs, list(range(start, end))])

    split(0, columns, [])
    assert best is not None
    return best[1]


class MapView:
    """Every territory by continent: the name in its owner's colour, the owner's tag and the armies.

    The layout adapts to the width it is given: three columns from 76 characters (a full 80-column
    terminal), two from 50, one below; wider screens get full names and owner names.
    """

    def __init__(self, view: View, palette: Palette, highlight: Iterable[int] = ()) -> None:
        self.view = view
        self.palette = palette
        self.highlight = frozenset(highlight)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        board = self.view.board
        columns = 3 if width >= 76 else 2 if width >= 50 else 1
        gap = 2
        column_width = (width - gap * (columns - 1)) // columns
        longest = max(len(t.name) for t in board.territories)
        # The owner column shows a name when there is room for the full territory names too.
        owner_width = 6 if column_width >= longest + 6 + 6 else 1
        # Room for the continents' headings too, where the column has it (a board of short names).
        longest_heading = max(len(f"{c.name} +{c.bonus}") for c in board.continents)
        name_width = min(max(longest, longest_heading), column_width - owner_width - 5)
        heights = [len(c.territories) + 1 for c in board.continents]
        groups = balanced_groups(heights, columns)
        blocks = [self._column(group, name_width, owner_width) for group in groups]
        line_width = name_width + owner_width + 5
        for row in range(max(len(block) for block in blocks)):
            line = Text()
            for index, block in enumerate(blocks):
                cell = block[row] if row < len(block) else Text()
                cell.pad_right(line_width - cell.cell_len)
                line.append_text(cell)
                if index < len(blocks) - 1:
                    line.append(" " * gap)
            line.rstrip()
            yield line
        legend = team_map_legend(self.view, self.palette) if self.view.units is not None else None
        if legend is not None:
            yield legend
        if self.view.fogged:
            yield fog_legend(self.view)

    def _owner_label(self, player: int, owner_width: int, stack: Sequence[int] = ()) -> str:
        """The owner's tag or name; Team RISK: "=" for a tie, and where there is room the stacks of
        a shared territory by tag ("A3+C2", "B4=D4" when tied)."""
        seats = [p for p, n in enumerate(stack) if n]
        if len(seats) > 1 and owner_width > 1:
            joiner = TIED_MARK if player == TIED else SHARED_MARK
            stacks = joiner.join(f"{self.palette.tags[p]}{stack[p]}" for p in seats)
            if len(stacks) <= owner_width:
                return stacks
        if player == TIED:
            return TIED_MARK
        if player < 0:
            return "-"
        return self.palette.tags[player] if owner_width == 1 else self.palette.short_name(player, owner_width)

    def _column(self, continents: list[int], name_width: int, owner_width: int) -> list[Text]:
        view, palette, board = self.view, self.palette, self.view.board
        owner, armies, units = view.owner, view.armies, view.units
        # Headquarters the viewer may see (its own while they are being chosen), by territory.
        headquarters = {t: p for p, t in enumerate(view.capitals) if t >= 0}
        lines: list[Text] = []
        for c in continents:
            continent = board.continents[c]
            holders = {owner[t] for t in continent.territories}
            holder = holders.pop() if len(holders) == 1 else -1
            # Unheld, the heading may take the whole line (no owner tag or armies beside it).
            heading_width = name_width if holder >= 0 else name_width + owner_width + 5
            heading = Text(
                abbreviate(f"{continent.name} +{continent.bonus}", heading_width),
                style=f"bold underline {palette.style(holder)}" if holder >= 0 else "bold underline",
            )
            heading.pad_right(name_width + 1 - heading.cell_len)
            if holder >= 0:
                heading.append(self._owner_label(holder, owner_width), style=f"bold {palette.style(holder)}")
            lines.append(heading)
            for t in continent.territories:
                who = owner[t]
                style = palette.style(who)
                if who == view.player and who >= 0:
                    style = f"bold {style}"
                if not view.visible(t):  # fog of war: what was last seen, dimmed, or nothing
                    lines.append(self._fogged_line(t, name_width, owner_width))
                    continue
                if t in self.highlight:
                    style = f"{style} reverse"
                line = Text(abbreviate(board.name_of(t), name_width).ljust(name_width), style=style)
                if t in headquarters:
                    line.append(HEADQUARTERS_MARK, style=f"bold {palette.style(headquarters[t])}")
                else:
                    line.append(" ")
                stack = units[t] if units is not None else ()
                label = self._owner_label(who, owner_width, stack)
                line.append(label.ljust(owner_width), style=palette.style(who))
                # Team RISK: "A+" marks a territory the controller shares with teammates, where the
                # stacks by tag did not fit.
                shared = who >= 0 and sum(1 for n in stack if n) > 1 and SHARED_MARK not in label
                line.append(
                    f"{SHARED_MARK if shared else ' '}{armies[t]:>3}" if armies[t] else "    ", style=style
                )
                lines.append(line)
        return lines

    def _fogged_line(self, territory: int, name_width: int, owner_width: int) -> Text:
        """A territory out of sight: dimmed; the owner and armies last seen, the armies marked as
        old (``~3``), or ``?`` where it was never seen."""
        view, palette = self.view, self.palette
        style = f"{FOG_STYLE} {'reverse' if territory in self.highlight else ''}".strip()
        name = abbreviate(view.board.name_of(territory), name_width).ljust(name_width)
        line = Text(name + " ", style=style)
        if view.seen_turn(territory) < 0:
            return line.append(UNKNOWN_MARK.ljust(owner_width) + f"{UNKNOWN_MARK:>4}", style=FOG_STYLE)
        who, armies = view.owner[territory], view.armies[territory]
        label = self._owner_label(who, owner_width).ljust(owner_width)
        line.append(label, style=f"{FOG_STYLE} {palette.style(who)}")
        return line.append(f"{LAST_SEEN_MARK}{armies:>3}" if armies else "    ", style=f"{FOG_STYLE} italic")


def fog_legend(view: View) -> Text:
    """The key to a fogged map: what is out of sight and how old what is shown of it is."""
    hidden = [t for t in range(len(view.board)) if not view.visible(t)]
    never = sum(1 for t in hidden if view.seen_turn(t) < 0)
    line = Text(
        f"Fog of war: {plural(len(hidden), 'territory')} out of your sight (dimmed) show what you last "
        f"saw there ({LAST_SEEN_MARK}N: armies then)",
        style=FOG_STYLE,
    )
    if never:
        line.append(f"; {UNKNOWN_MARK}: never seen ({never})")
    return line.append(".")


def stack_text(view: View, palette: Palette, territory: int) -> Text:
    """Team RISK: a territory's armies by player, 'Ann 3+Cy 2' (a tie noted: no one controls it)."""
    units = view.units
    assert units is not None
    stack = units[territory]
    text = Text("+").join(Text.assemble(palette.name(p), f" {n}") for p, n in enumerate(stack) if n)
    if view.owner[territory] == TIED:
        text.append(": tied, no one controls it", style=TIED_STYLE)
    return text


def team_map_legend(view: View, palette: Palette) -> Text | None:
    """Team RISK: the key to the map's marks, and every shared territory's armies by player."""
    units = view.units
    assert units is not None
    shared = [t for t, stack in enumerate(units) if sum(1 for n in stack if n) > 1]
    if not shared:
        return None
    line = Text(f"Shared ({SHARED_MARK} on the map, {TIED_MARK} tied): ", style="dim")
    entries = [
        Text(view.board.name_of(t), style=palette.style(view.owner[t]))
        .append(" (")
        .append_text(stack_text(view, palette, t))
        .append(")")
        for t in shared
    ]
    return line.append_text(Text(" · ").join(entries))


def team_names(palette: Palette, team: int) -> Text:
    """'Ann and Cy', or 'Ann, Cy and Eve', each in its colour."""
    names = [palette.name(p) for p in palette.team_members(team)]
    return Text(", ").join(names[:-1]).append(" and ").append_text(names[-1])


def continent_names(view: View, player: int, short: bool = False) -> list[str]:
    board, owner = view.board, view.owner
    held = [c for c in board.continents if all(owner[t] == player for t in c.territories)]
    if not short:
        return [c.name for c in held]
    return [abbreviate(c.name, 8) for c in held]


def armies_by_player(view: View) -> list[int]:
    """Each player's own armies on the board (Team RISK: also those in teammates' territories)."""
    units = view.units
    if units is not None:
        return [sum(stack[p] for stack in units) for p in range(len(view.players))]
    armies_of = [0] * len(view.players)
    for t, who in enumerate(view.owner):
        if who >= 0:
            armies_of[who] += view.armies[t]
    return armies_of


def goal_text(view: View, player: int) -> str:
    """The public part of a goal: the headquarters (Capital RISK), missions claimed (Mission RISK)."""
    kind = view.goal.kind
    if kind is GoalKind.HEADQUARTERS:
        home = view.capitals[player] if player < len(view.capitals) else -1
        if home < 0:
            return ""
        lost = "" if view.owner[home] == player else " lost"
        return f"{abbreviate(view.board.name_of(home), 10)}{lost}"
    if kind is GoalKind.MISSION_CARDS:
        cards = view.to_dict().get("mission_cards", [])
        if player < len(cards):
            return f"{len(cards[player]['claimed'])}/4"
    return ""


def players_table(view: View, palette: Palette) -> RenderableType:
    """One row per player: territories, armies, cards, continents; the player to act is marked.
    Team RISK: the teams, and a line under the table saying what the columns count."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1), collapse_padding=True)
    table.add_column("", min_width=1, no_wrap=True)
    table.add_column("player", no_wrap=True)
    teams = view.team
    if teams is not None:
        table.add_column("team", justify="right", no_wrap=True)
    table.add_column("seat", no_wrap=True)
    # Numbers never wrap: the continents give way on a narrow screen.
    for heading in ("terr", "armies", "cards", "reinf"):
        table.add_column(heading, justify="right", no_wrap=True)
    # The goals with a public part (goal_text): a column of their own.
    goal_column = GOAL_COLUMNS.get(view.goal.kind)
    if goal_column:
        table.add_column(goal_column, no_wrap=True)
    table.add_column("continents")
    armies_of = armies_by_player(view)
    # Team RISK: teammates listed together, and their shared hand counted once per row all the same.
    order = (
        sorted(range(len(view.players)), key=lambda p: (teams[p], p)) if teams else range(len(view.players))
    )
    for p in order:
        name = view.players[p]
        marker = ">" if p == view.to_act else ""
        goal = [goal_text(view, p)] if goal_column else []
        team = [str(teams[p] + 1)] if teams is not None else []
        if not view.alive[p]:
            table.add_row(
                "",
                Text(name, style="dim strike"),
                *team,
                palette.labels[p],
                "out",
                "",
                "",
                "",
                *goal,
                "",
                style="dim",
            )
            continue
        setup = view.phase in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL)
        neutral = palette.is_neutral(p)
        table.add_row(
            Text(marker, style="bold"),
            palette.name(p).append(f" [{palette.tags[p]}]", style=palette.style(p)),
            *team,
            palette.labels[p],
            str(view.territory_count[p]),
            str(armies_of[p]),
            "" if neutral else str(view.hand_sizes[p]),
            "" if setup or neutral else str(view.reinforcement_for(p)),
            *goal,
            ", ".join(continent_names(view, p)),
        )
    fog = (
        [
            Text(
                "Fog of war: the others' territories, armies, reinforcements and continents count what you "
                "last saw.",
                style=FOG_STYLE,
            )
        ]
        if view.fogged
        else []
    )
    if teams is not None:
        key = Text(" · ").join(palette.team_label(team) for team in (0, 1))
        key.append(" · armies: each player's own, wherever they are · cards: the team's hand", "dim")
        return Group(table, key, *fog)
    return Group(table, *fog) if fog else table


def players_line(view: View, palette: Palette) -> Text:
    """Every player on one line: territories/armies/cards (the full table is `players`); the
    neutral armies together, as they never act."""
    armies_of = armies_by_player(view)
    parts = []
    neutrals = [p for p in range(len(view.players)) if palette.is_neutral(p)]
    teams = view.team
    if teams is not None:
        # Team RISK: "Team 1: Ann 7/27 · Cy 6/20 · 3 cards | Team 2: ...", one hand per team; no
        # heading, so that four players fit a line (`players` has the full table).
        for team in (0, 1):
            members = palette.team_members(team)
            part = Text(f"Team {team + 1}: ", style="bold")
            part.append_text(
                Text(" · ").join(
                    palette.name(p).append(f" {view.territory_count[p]}/{armies_of[p]}")
                    if view.alive[p]
                    else out_of_the_game(view.players[p])
                    for p in members
                )
            )
            cards = view.hand_sizes[members[0]]
            parts.append(part.append(f" · {cards} card{'s' if cards != 1 else ''}", style="dim"))
        return Text(" | ").join(parts)
    for p, name in enumerate(view.players):
        if p in neutrals:
            continue
        if not view.alive[p]:
            parts.append(out_of_the_game(name))
            continue
        part = palette.name(p)
        part.append(f" {view.territory_count[p]}/{armies_of[p]}/{view.hand_sizes[p]}")
        parts.append(part)
    if neutrals:
        label = view.players[neutrals[0]] if len(neutrals) == 1 else "Neutrals"
        held = sum(view.territory_count[p] for p in neutrals)
        part = Text(label, style=f"bold {NEUTRAL_COLOUR}")
        parts.append(part.append(f" {held}/{sum(armies_of[p] for p in neutrals)}"))
    line = Text("Territories/armies/cards: ", style="dim").append_text(Text(" · ").join(parts))
    if any(t >= 0 for t in view.capitals):
        line.append(f" · {HEADQUARTERS_MARK} HQ", style="dim")
    return line


def out_of_the_game(name: str) -> Text:
    """An eliminated player in the players line: 'Bob out' (struck through where there is colour,
    and said in words for every screen)."""
    return Text.assemble((name, "dim strike"), (" out", "dim"))


def _hostile(view: View, player: int, territory: int) -> bool:
    """Whether ``territory`` is an enemy's for ``player`` (Team RISK: not a teammate's either)."""
    holder = view.owner[territory]
    if holder == player:
        return False
    teams = view.team
    return teams is None or holder < 0 or teams[holder] != teams[player]


def _territory_label(view: View, palette: Palette, territory: int, mine: bool = False) -> Text:
    """'Kamchatka (Bob 2)' in its owner's colour; 'Alberta (3)' for the viewer's own."""
    holder = view.owner[territory]
    if not view.visible(territory):  # fog of war
        label = Text(view.board.name_of(territory), style=FOG_STYLE)
        if view.seen_turn(territory) < 0:
            return label.append(" (out of sight, never seen)", style=FOG_STYLE)
        seen = Text(" (out of sight; last seen: ", style=FOG_STYLE)
        seen.append_text(palette.name(holder) if holder >= 0 else Text("no one"))
        return label.append_text(seen.append(f" {LAST_SEEN_MARK}{view.armies[territory]})", style=FOG_STYLE))
    label = Text(view.board.name_of(territory), style=palette.style(holder))
    if mine or holder < 0:
        return label.append(f" ({view.armies[territory]})")
    return label.append(" (").append_text(palette.name(holder)).append(f" {view.armies[territory]})")


def neighbours_text(view: View, palette: Palette, territory: int) -> Text:
    """One territory's neighbours: 'Alaska (Ann 10) borders 3 territories. Enemies: Kamchatka
    (Bob 2). Yours: Alberta (1), Northwest Territory (1).'"""
    board, player = view.board, view.player
    around = sorted(board.neighbours[territory], key=board.name_of)
    if view.owner[territory] == player >= 0:
        line = Text(board.name_of(territory), style=f"bold {palette.style(player)}")
        line.append(f" (yours, {view.armies[territory]})")
    else:
        line = _territory_label(view, palette, territory)
    line.append(f" borders {len(around)} territories.")
    if player < 0:  # watching: everyone's, as they are
        groups = [("", around)]
    else:
        enemies = [n for n in around if _hostile(view, player, n)]
        friends = [n for n in around if n not in enemies]
        mine = view.owner[territory] == player
        groups = [
            ("Enemies" if mine else "Others", enemies),
            ("Yours" if view.team is None else "Your team's", friends),
        ]
        if not mine:
            groups.reverse()
    for title, group in groups:
        if group:
            line.append(f" {title}: " if title else " ")
            labels = [_territory_label(view, palette, n, view.owner[n] == player) for n in group]
            line.append_text(Text(", ").join(labels)).append(".")
    return line


def front_view(view: View, palette: Palette) -> RenderableType:
    """Each of the viewer's territories with the enemy territories beside it (the front first,
    biggest stacks first; then the territories with no enemy beside them, on one line)."""
    board, player = view.board, view.player
    if player < 0 or not any(o == player for o in view.owner):
        return Text("You hold no territories.")
    own = [t for t, o in enumerate(view.owner) if o == player]
    front = {t: [n for n in board.neighbours[t] if _hostile(view, player, n)] for t in own}
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column()
    facing = sorted((t for t in own if front[t]), key=lambda t: (-view.armies[t], board.name_of(t)))
    for t in facing:
        enemies = sorted(front[t], key=lambda n: (-view.armies[n], board.name_of(n)))
        table.add_row(
            Text(board.name_of(t), style=f"bold {palette.style(player)}"),
            str(view.armies[t]),
            "beside",
            Text(", ").join(_territory_label(view, palette, n) for n in enemies),
        )
    title = hint(
        "'s territories and the enemy territories beside them (`neighbours NAME`: one territory):",
        palette.name(player),
    )
    parts: list[RenderableType] = [title, table]
    inside = sorted((t for t in own if not front[t]), key=board.name_of)
    if inside:
        parts.append(
            Text("No enemy beside: ", style="dim").append_text(
                Text(", ").join(Text(f"{board.name_of(t)} {view.armies[t]}") for t in inside)
            )
        )
    return Group(*parts)


def won_text(view: View, palette: Palette, round_number: int) -> Text:
    winner = view.winner
    if winner is None:
        return Text("The game is over.")
    if view.team is not None:
        return Text.assemble(
            "The team of ", team_names(palette, view.team[winner]), f" has won in round {round_number}."
        )
    what = "won the world" if view.goal.kind is GoalKind.WORLD else "won"
    return Text.assemble(palette.name(winner), f" has {what} in round {round_number}.")


def status_line(view: View, palette: Palette, round_number: int) -> Text:
    """Round, whose move, the phase, armies to place and the next set's value, on one line.
    ``round_number``: the round as players count it (:mod:`risk.tui.rounds`)."""
    parts: list[Text] = []
    if view.is_over:
        return won_text(view, palette, round_number)
    phase = view.phase
    turn = f"Round {round_number}" if view.turn else "Setup"
    parts.append(Text(turn, style="bold"))
    parts.append(Text.assemble(palette.name(view.to_act), " to act"))
    parts.append(Text(phase_label(phase)))
    if phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        seat = view.placing_for if phase == Phase.SETUP_PLACE else view.to_act
        whose = f"{view.players[seat]}'s " if seat != view.to_act else ""
        left = view.setup_armies[seat]
        parts.append(Text(f"{left} {whose}setup {'army' if left == 1 else 'armies'} left"))
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE) and view.pending:
        parts.append(Text(f"{plural(view.pending, 'army')} to place", style="bold"))
    value = view.next_set_value()
    parts.append(Text(f"next set: {value}" if value is not None else "sets: fixed values"))
    return Text(" · ").join(parts)


def card_label(board: Board, card: int) -> Text:
    symbol = board.card_symbols[card]
    name = board.card_name(card)
    return Text.assemble((name, "bold"), f" ({SYMBOL_NAMES[symbol]})")


def hand_text(view: View, palette: Palette, sets: Sequence[tuple[str, str]] = ()) -> Text:
    """The viewer's cards, the next set's value, and the sets it could trade: (command, what it
    gives), one a line."""
    if view.player == SPECTATOR:
        return Text("(no hand: watching)")
    board = view.board
    hand = view.hand
    if view.team is not None:
        # Team RISK: "Territory cards are shared by the team".
        text = Text.assemble(
            "Team hand of ", team_names(palette, view.team[view.player]), f" ({len(hand)}): "
        )
    else:
        text = Text.assemble(palette.name(view.player), f"'s cards ({len(hand)}): ")
    if hand:
        text.append_text(Text(", ").join(card_label(board, c) for c in hand))
    else:
        text.append("none")
    value = view.next_set_value()
    text.append(f". Next set: {value} armies." if value is not None else ". Sets: fixed values.")
    if sets:
        text.append("\nSets you could trade:")
        for command, note in sets:
            text.append("\n  ").append(command, style="bold").append(f"  {note}", style="dim")
    return text


TIMING_LABELS = {"start": "start of turn", "reinforced": "after reinforcing", "end": "end of turn"}


def secret_mission_text(view: View, palette: Palette) -> Text:
    """Secret Mission RISK: the viewer's mission (everyone's once the game is over)."""
    missions = view.to_dict().get("missions") or []
    if view.is_over:
        text = Text("Missions: ")
        shown = [
            Text.assemble(palette.name(p), ": ", mission_text(m["key"], m["text"], palette))
            for p, m in enumerate(missions)
            if m is not None
        ]
        return text.append_text(Text(" · ").join(shown))
    mission = view.mission
    if mission is None:
        return Text("(no mission: watching)")
    return Text.assemble(
        palette.name(view.player),
        "'s secret mission: ",
        mission_text(mission.key, mission.text, palette, "bold"),
    )


def mission_text(key: str, text: str, palette: Palette, style: str = "") -> Text:
    """A secret mission's text; a destroy card names the player, not only a colour: 'Destroy all of
    Cy's armies (green).' (the colour only where the screen shows that player in it)."""
    colour = key.removeprefix("destroy-")
    if colour == key or colour not in COLOURS or COLOURS.index(colour) >= len(palette.names):
        return Text(text, style=style)
    seat = COLOURS.index(colour)
    shown = f" ({colour})" if colour in palette.colours[seat] else ""
    return Text.assemble("Destroy all of ", palette.name(seat), f"'s armies{shown}.", style=style)


def mission_cards_text(
    view: View, palette: Palette, complete: Sequence[str], claimable: Sequence[str]
) -> RenderableType:
    """Mission RISK: the viewer's four cards (rank, when to claim, whether complete now), then what
    the others have claimed and any fourth card revealed. ``complete``: the viewer's unclaimed
    cards whose goal is met now; ``claimable``: those it may claim at this moment."""
    cards = view.to_dict().get("mission_cards") or []
    lines: list[RenderableType] = []
    me = view.player
    if 0 <= me < len(cards):
        mine = cards[me]
        lines.append(
            Text.assemble(palette.name(me), f"'s mission cards ({len(mine['claimed'])} of 4 claimed):")
        )
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column()
        table.add_column()
        for key in mine["unclaimed"] or []:
            mission = ranked_mission(key, view.board)
            if key in claimable:
                state = Text.assemble(("claim now: ", "bold green"), (f"mission {key}", "bold"))
            elif key in complete:
                state = Text("complete now (not its time)", style="green")
            else:
                state = Text("not yet", style="dim")
            table.add_row(
                "  " + mission.rank.title(), TIMING_LABELS[mission.timing], Text(mission.text, "bold"), state
            )
        for key in mine["claimed"]:
            mission = ranked_mission(key, view.board)
            table.add_row(
                *(Text(cell, "dim") for cell in ("  " + mission.rank.title(), TIMING_LABELS[mission.timing])),
                Text(mission.text, "dim"),
                Text("claimed", "dim"),
            )
        lines.append(table)
    for p, held in enumerate(cards):
        if p == me:
            continue
        line = Text.assemble(palette.name(p), f" claimed {len(held['claimed'])}: ")
        claimed = [ranked_mission(k, view.board) for k in held["claimed"]]
        line.append(", ".join(f"{m.rank.title()} ({m.text.rstrip('.')})" for m in claimed) or "none")
        if held["unclaimed"]:
            shown = ", ".join(ranked_mission(k, view.board).card_text for k in held["unclaimed"])
            line.append(f"; revealed: {shown}", style="bold")
        lines.append(line)
    return Group(*lines)


def hint(text: str, lead: Text | None = None) -> Text:
    """Text with the `back-quoted` parts in bold (commands to type), after an optional ``lead``."""
    line = Text() if lead is None else lead.copy()
    for index, part in enumerate(text.split("`")):
        line.append(part, style="bold" if index % 2 else "")
    return line


def menu_renderable(entries: Sequence[tuple[str, str]], title: str) -> RenderableType:
    """Numbered choices in columns: 'N) command  note'."""
    cells = []
    for number, (command, note) in enumerate(entries, start=1):
        cell = Text(f"{number:>2}) ", style="dim")
        cell.append(command, style="bold")
        if note:
            cell.append(f"  {note}", style="dim")
        cells.append(cell)
    return Columns(cells, padding=(0, 3), column_first=True, title=Text(title, style="bold"))


class ClearScreen:
    """Clears a terminal, scrollback too: in hot-seat play the next player must not see the last
    one's secrets. Elsewhere (a pipe, a test) it prints nothing."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.is_terminal:
            yield Segment("\x1b[H\x1b[2J\x1b[3J", None, [(ControlType.HOME,), (ControlType.CLEAR,)])


def render_text(renderables: Iterable[RenderableType], width: int = 80) -> str:
    """Plain text of renderables as a terminal of ``width`` columns would show them (for tests, logs)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, color_system=None, highlight=False)
    for renderable in renderables:
        console.print(renderable)
    return buffer.getvalue()
