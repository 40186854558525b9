"""Rich renderables for the terminal game: the map, the players, the hand, the status line.

Everything here reads a :class:`risk.view.View`, never the game itself, so the screen can only
show what that player may know: other players' hands appear as counts.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from risk.maps import SYMBOLS, WILD, Board
from risk.rules.game import Phase
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
)
UNCLAIMED_STYLE = "dim"
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
}


@dataclass(frozen=True, slots=True)
class Palette:
    """How players look on screen: a colour, a one-letter tag (for the map) and a seat label."""

    names: tuple[str, ...]
    colours: tuple[str, ...]
    tags: tuple[str, ...]
    labels: tuple[str, ...]  # "you", "human", or the bot's name

    @classmethod
    def for_players(cls, names: Sequence[str], labels: Sequence[str] | None = None) -> Palette:
        initials = [name.strip()[0].upper() for name in names]
        # Initials when they tell the players apart, seat numbers otherwise.
        tags = initials if len(set(initials)) == len(initials) else [str(i + 1) for i in range(len(names))]
        colours = [PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i in range(len(names))]
        return cls(tuple(names), tuple(colours), tuple(tags), tuple(labels or [""] * len(names)))

    def style(self, player: int) -> str:
        return self.colours[player] if player >= 0 else UNCLAIMED_STYLE

    def name(self, player: int) -> Text:
        return Text(self.names[player], style=f"bold {self.style(player)}")

    def short_name(self, player: int, width: int) -> str:
        """The player's name cut to ``width`` characters, or the tag when cut names would clash."""
        cut = [n[:width] for n in self.names]
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
        name_width = min(longest, column_width - owner_width - 5)
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

    def _owner_label(self, player: int, owner_width: int) -> str:
        if player < 0:
            return "-"
        return self.palette.tags[player] if owner_width == 1 else self.palette.short_name(player, owner_width)

    def _column(self, continents: list[int], name_width: int, owner_width: int) -> list[Text]:
        view, palette, board = self.view, self.palette, self.view.board
        owner, armies = view.owner, view.armies
        lines: list[Text] = []
        for c in continents:
            continent = board.continents[c]
            holders = {owner[t] for t in continent.territories}
            holder = holders.pop() if len(holders) == 1 else -1
            heading = Text(
                abbreviate(f"{continent.name} +{continent.bonus}", name_width),
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
                if t in self.highlight:
                    style = f"{style} reverse"
                line = Text(abbreviate(board.name_of(t), name_width).ljust(name_width), style=style)
                line.append(" ")
                line.append(self._owner_label(who, owner_width).ljust(owner_width), style=palette.style(who))
                line.append(f" {armies[t]:>3}" if who >= 0 else "    ", style=style)
                lines.append(line)
        return lines


def continent_names(view: View, player: int, short: bool = False) -> list[str]:
    board, owner = view.board, view.owner
    held = [c for c in board.continents if all(owner[t] == player for t in c.territories)]
    if not short:
        return [c.name for c in held]
    return [abbreviate(c.name, 8) for c in held]


def players_table(view: View, palette: Palette) -> Table:
    """One row per player: territories, armies, cards, continents; the player to act is marked."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("")
    table.add_column("player", no_wrap=True)
    table.add_column("seat", no_wrap=True)
    table.add_column("terr", justify="right")
    table.add_column("armies", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("reinf", justify="right")
    table.add_column("continents")
    armies_of = [0] * len(view.players)
    for t, who in enumerate(view.owner):
        if who >= 0:
            armies_of[who] += view.armies[t]
    for p, name in enumerate(view.players):
        marker = ">" if p == view.to_act else ""
        if not view.alive[p]:
            table.add_row(
                "", Text(name, style="dim strike"), palette.labels[p], "out", "", "", "", "", style="dim"
            )
            continue
        setup = view.phase in (Phase.CLAIM, Phase.SETUP_PLACE)
        table.add_row(
            Text(marker, style="bold"),
            palette.name(p).append(f" [{palette.tags[p]}]", style=palette.style(p)),
            palette.labels[p],
            str(view.territory_count[p]),
            str(armies_of[p]),
            str(view.hand_sizes[p]),
            "" if setup else str(view.reinforcement_for(p)),
            ", ".join(continent_names(view, p)),
        )
    return table


def players_line(view: View, palette: Palette) -> Text:
    """Every player on one line: territories/armies/cards (the full table is `players`)."""
    armies_of = [0] * len(view.players)
    for t, who in enumerate(view.owner):
        if who >= 0:
            armies_of[who] += view.armies[t]
    parts = []
    for p, name in enumerate(view.players):
        if not view.alive[p]:
            parts.append(Text(name, style="dim strike"))
            continue
        part = palette.name(p)
        part.append(f" {view.territory_count[p]}/{armies_of[p]}/{view.hand_sizes[p]}")
        parts.append(part)
    return Text("Territories/armies/cards: ", style="dim").append_text(Text(" · ").join(parts))


def status_line(view: View, palette: Palette) -> Text:
    """Turn, whose move, the phase, armies to place and the next set's value, on one line."""
    parts: list[Text] = []
    if view.is_over:
        winner = view.winner
        if winner is not None:
            return Text.assemble(palette.name(winner), f" has won the world on turn {view.turn}.")
        return Text("The game is over.")
    phase = view.phase
    turn = f"Turn {view.turn}" if view.turn else "Setup"
    parts.append(Text(turn, style="bold"))
    parts.append(Text.assemble(palette.name(view.to_act), " to act"))
    parts.append(Text(PHASE_LABELS[phase]))
    if phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        parts.append(Text(f"{view.setup_armies[view.to_act]} setup armies left"))
    if phase in (Phase.REINFORCE, Phase.ELIMINATION_TRADE) and view.pending:
        parts.append(Text(f"{view.pending} armies to place", style="bold"))
    value = view.next_set_value()
    parts.append(Text(f"next set: {value}" if value is not None else "sets: fixed values"))
    return Text(" · ").join(parts)


def card_label(board: Board, card: int) -> Text:
    symbol = board.card_symbols[card]
    name = board.card_name(card)
    return Text.assemble((name, "bold"), f" ({SYMBOL_NAMES[symbol]})")


def hand_text(view: View, palette: Palette, sets: Sequence[str] = ()) -> Text:
    """The viewer's cards, the next set's value, and the sets it could trade (as commands)."""
    if view.player == SPECTATOR:
        return Text("(no hand: watching)")
    board = view.board
    hand = view.hand
    text = Text.assemble(palette.name(view.player), f"'s cards ({len(hand)}): ")
    if hand:
        text.append_text(Text(", ").join(card_label(board, c) for c in hand))
    else:
        text.append("none")
    value = view.next_set_value()
    text.append(f". Next set: {value} armies." if value is not None else ". Sets: fixed values.")
    if sets:
        text.append("\nSets you could trade: ")
        text.append_text(Text(" · ").join(Text(command, style="bold") for command in sets))
    return text


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


def render_text(renderables: Iterable[RenderableType], width: int = 80) -> str:
    """Plain text of renderables as a terminal of ``width`` columns would show them (for tests, logs)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=False, color_system=None, highlight=False)
    for renderable in renderables:
        console.print(renderable)
    return buffer.getvalue()
