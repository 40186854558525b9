"""``python -m risk.tui``: the play command on its own (same options as ``risk play``)."""

from __future__ import annotations

import typer

from risk.tui.command import register

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)

if __name__ == "__main__":
    app()
