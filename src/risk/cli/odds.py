"""`risk odds`: exact battle odds on the command line.

The main CLI registers it with ``app.command("odds")(odds_command)``. Usage::

    risk odds A D [--stop K] [--json]
    risk odds A --chain D1,D2,... [--json]

A counts *fighting* armies: the attacking territory's armies minus the one that must stay behind.

Click reads a bare negative number such as ``-3`` as an unknown option and rejects it with its
own usage message before this command runs. Registering with
``context_settings=CONTEXT_SETTINGS`` makes such values reach this command, which then rejects
them with the usual one-line error.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from risk.cli.output import output_console
from risk.odds import BattleOdds, ChainOdds, chain, invasion

if TYPE_CHECKING:  # rich is imported by the functions that print tables, not for --json
    from rich.console import Console

__all__ = ["CONTEXT_SETTINGS", "MAX_ARMIES", "MAX_CHAIN_LENGTH", "odds_command"]

CONTEXT_SETTINGS: dict[str, Any] = {"ignore_unknown_options": True}

# Work grows with attackers × defenders; these caps keep the command interactive.
MAX_ARMIES = 10_000
MAX_CHAIN_LENGTH = 100

# Longer distributions are shown in bins so a table never exceeds this many rows.
MAX_DISTRIBUTION_ROWS = 20
# Tail mass (at each end) small enough to leave out of a displayed distribution.
HIDDEN_TAIL = 0.0005


def odds_command(
    attackers: Annotated[
        str,
        typer.Argument(
            metavar="A",
            show_default=False,
            help="Fighting armies: the attacking territory's armies minus the one that stays behind.",
        ),
    ],
    defenders: Annotated[
        str | None,
        typer.Argument(metavar="D", show_default=False, help="Armies defending the territory."),
    ] = None,
    stop: Annotated[
        str,
        typer.Option(
            "--stop",
            metavar="K",
            help="Call the invasion off once the fighting armies are down to K or fewer (0: to the end).",
        ),
    ] = "0",
    chain_path: Annotated[
        str | None,
        typer.Option(
            "--chain",
            metavar="D1,D2,...",
            show_default=False,
            help="Attack a path of territories in turn with these defenders (instead of D).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Exact odds of an invasion (A against D) or of a chain of invasions (A along --chain)."""
    fighting = _parse_count("A", attackers, minimum=0)
    stop_at = _parse_count("--stop", stop, minimum=0)
    if chain_path is not None:
        if defenders is not None:
            _fail("give either D or --chain, not both")
        if stop_at:
            _fail("--stop cannot be combined with --chain")
        path = _parse_chain(chain_path)
        chain_odds = chain(fighting, path)
        if as_json:
            typer.echo(json.dumps(_chain_json(chain_odds), indent=2))
        else:
            _print_chain(chain_odds)
        return
    if defenders is None:
        _fail("missing D (the defending armies), or use --chain D1,D2,...")
    defending = _parse_count("D", defenders, minimum=1)
    odds = invasion(fighting, defending, stop_at=stop_at)
    if as_json:
        typer.echo(json.dumps(_invasion_json(odds), indent=2))
    else:
        _print_invasion(odds)


# ---------------------------------------------------------------------------------------------
# Argument parsing: every problem becomes one line on stderr and exit code 2.
# ---------------------------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    typer.echo(f"risk odds: error: {message}", err=True)
    raise typer.Exit(code=2)


def _parse_count(name: str, text: str, *, minimum: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        _fail(f"{name} must be a whole number, got {text!r}")
    if value < minimum:
        _fail(f"{name} must be at least {minimum}, got {value}")
    if value > MAX_ARMIES:
        _fail(f"{name} must be at most {MAX_ARMIES}, got {value}")
    return value


def _parse_chain(text: str) -> list[int]:
    items = text.split(",")
    if len(items) > MAX_CHAIN_LENGTH:
        _fail(f"--chain may list at most {MAX_CHAIN_LENGTH} territories, got {len(items)}")
    if any(not item.strip() for item in items):
        _fail(f"--chain must be a comma-separated list of defender counts like 3,2,5, got {text!r}")
    return [_parse_count(f"--chain item {index}", item, minimum=1) for index, item in enumerate(items, 1)]


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


def _distribution_json(distribution: Mapping[int, float]) -> dict[str, float]:
    return {str(armies): p for armies, p in sorted(distribution.items())}


def _invasion_json(odds: BattleOdds[float]) -> dict[str, Any]:
    return {
        "attackers": odds.attackers,
        "defenders": odds.defenders,
        "stop_at": odds.stop_at,
        "attacker_wins": odds.attacker_wins,
        "defender_wins": odds.defender_wins,
        "expected_attacker_losses": odds.expected_attacker_losses,
        "expected_defender_losses": odds.expected_defender_losses,
        "attacker_survivors": _distribution_json(odds.attacker_survivors),
        "defender_survivors": _distribution_json(odds.defender_survivors),
        "outcomes": [
            {"attacker_left": a, "defender_left": d, "probability": p} for (a, d), p in odds.outcomes.items()
        ],
    }


def _chain_json(odds: ChainOdds[float]) -> dict[str, Any]:
    return {
        "attackers": odds.attackers,
        "defenders_path": list(odds.defenders_path),
        "attacker_wins": odds.takes_all,
        "at_least": list(odds.at_least),
        "expected_conquered": odds.expected_conquered,
        "arrived": _distribution_json(odds.arrived),
    }


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------


def _percent(p: float) -> str:
    if p == 0:
        return "0%"
    if p < 0.0001:
        return "<0.01%"
    if p > 0.9999 and p < 1:
        return ">99.99%"
    return f"{100 * p:.2f}%"


def _distribution_rows(distribution: Mapping[int, float]) -> list[tuple[str, float, float]]:
    """Rows of (armies label, probability, probability of at least that many).

    Negligible tails are left out and long ranges are grouped into equal-width bins, so the
    table stays short; "at least" is computed on the full distribution.
    """
    if not distribution:
        return []
    keys = sorted(distribution)
    at_least: dict[int, float] = {}
    running = 0.0
    for armies in reversed(keys):
        running += distribution[armies]
        at_least[armies] = running
    total = running
    first, last = 0, len(keys) - 1
    low_tail = high_tail = 0.0
    while first < last and low_tail + distribution[keys[first]] < HIDDEN_TAIL * total:
        low_tail += distribution[keys[first]]
        first += 1
    while last > first and high_tail + distribution[keys[last]] < HIDDEN_TAIL * total:
        high_tail += distribution[keys[last]]
        last -= 1
    low, high = keys[first], keys[last]
    width = math.ceil((high - low + 1) / MAX_DISTRIBUTION_ROWS)
    rows: list[tuple[str, float, float]] = []
    for bin_start in range(low, high + 1, width):
        bin_end = min(bin_start + width - 1, high)
        mass = sum(distribution.get(armies, 0.0) for armies in range(bin_start, bin_end + 1))
        label = str(bin_start) if bin_start == bin_end else f"{bin_start}–{bin_end}"
        first_key = next(armies for armies in keys if armies >= bin_start)
        rows.append((label, mass, at_least[first_key]))
    if low_tail:
        rows.insert(0, (f"< {low}", low_tail, total))
    if high_tail:
        rows.append((f"> {high}", high_tail, high_tail))
    return rows


def _print_distribution(console: Console, title: str, distribution: Mapping[int, float]) -> None:
    from rich.table import Table

    table = Table()
    table.add_column("Armies", justify="right")
    table.add_column("Probability", justify="right")
    table.add_column("At least this many", justify="right")
    for label, p, at_least in _distribution_rows(distribution):
        table.add_row(label, _percent(p), _percent(at_least))
    console.print(f"[bold]{title}[/bold]", highlight=False)
    console.print(table)


def _print_invasion(odds: BattleOdds[float]) -> None:
    from rich.table import Table

    console = output_console()
    stop_note = f"; the attacker stops at {odds.stop_at} or fewer" if odds.stop_at else ""
    console.print(
        f"[bold]Invasion:[/bold] {odds.attackers} fighting armies (the territory holds {odds.attackers + 1}) "
        f"against {odds.defenders} defenders{stop_note}",
        highlight=False,
    )
    summary = Table()
    summary.add_column("Result")
    summary.add_column("Value", justify="right")
    summary.add_row("Attacker conquers", _percent(odds.attacker_wins))
    summary.add_row("Defender holds", _percent(odds.defender_wins))
    summary.add_row("Expected attacker losses", f"{odds.expected_attacker_losses:.2f}")
    summary.add_row("Expected defender losses", f"{odds.expected_defender_losses:.2f}")
    console.print(summary)
    if odds.attacker_survivors:
        _print_distribution(console, "Attacker survivors when it conquers", odds.attacker_survivors)
    if odds.defender_survivors:
        _print_distribution(console, "Defender survivors when it holds", odds.defender_survivors)


def _print_chain(odds: ChainOdds[float]) -> None:
    from rich.table import Table

    console = output_console()
    path = ", ".join(str(defenders) for defenders in odds.defenders_path)
    console.print(
        f"[bold]Chain:[/bold] {odds.attackers} fighting armies (the territory holds {odds.attackers + 1}) "
        f"through territories defended by {path}",
        highlight=False,
    )
    table = Table()
    table.add_column("Territory", justify="right")
    table.add_column("Defenders", justify="right")
    table.add_column("P(taken)", justify="right")
    table.add_column("P(chain ends with it)", justify="right")
    table.add_row("none", "", "", _percent(odds.exactly(0)))
    for index, defenders in enumerate(odds.defenders_path, 1):
        table.add_row(
            str(index), str(defenders), _percent(odds.at_least[index]), _percent(odds.exactly(index))
        )
    console.print(table)
    console.print(f"Takes all: {_percent(odds.takes_all)}", highlight=False)
    console.print(
        f"Expected territories conquered: {odds.expected_conquered:.2f} of {len(odds.defenders_path)}",
        highlight=False,
    )
    if odds.arrived:
        _print_distribution(console, "Armies in the last territory when all are taken", odds.arrived)
