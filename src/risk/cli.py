"""The `risk` command."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="RISK: the world-conquest game.")


def main() -> None:
    app()
