"""`risk serve`: the web app on uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("serve", help="Play in the browser: the web app, with friends and bots (docs/web.md)")(
        serve_command
    )


def serve_command(
    host: Annotated[
        str, typer.Option(help="address to listen on (0.0.0.0: every network of this machine)")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=0, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="where games are stored: a SQLAlchemy URL, 'memory', or by default a SQLite file "
            "in your data folder"
        ),
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="open the lobby in a browser")] = False,
    allow_external_bots: Annotated[
        bool,
        typer.Option("--allow-external-bots", help="let game creators seat bot programs run on this machine"),
    ] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    limit_games: Annotated[
        str, typer.Option(help="per address: new games and record uploads, COUNT/SECONDS or 'off'")
    ] = "20/600",
    limit_actions: Annotated[
        str, typer.Option(help="per address: moves and other requests to games, COUNT/SECONDS or 'off'")
    ] = "600/60",
    limit_messages: Annotated[
        str, typer.Option(help="per websocket connection: messages, COUNT/SECONDS or 'off'")
    ] = "100/10",
    no_rate_limits: Annotated[
        bool, typer.Option("--no-rate-limits", help="no rate limit at all (load tests on this machine)")
    ] = False,
) -> None:
    import logging
    import sys
    import threading
    import webbrowser

    import uvicorn

    from risk.server.app import create_app
    from risk.server.limits import Limits, Rate
    from risk.server.logsafe import hide_secrets_everywhere, uvicorn_log_config
    from risk.server.storage import MemoryStorage, Storage, StorageError

    try:
        limits = (
            Limits.off()
            if no_rate_limits
            else Limits(Rate.parse(limit_games), Rate.parse(limit_actions), Rate.parse(limit_messages))
        )
    except ValueError as error:
        typer.echo(f"risk serve: error: {error}", err=True)
        raise typer.Exit(code=2) from None
    url = db or ""
    try:
        storage: Storage
        if url == "memory":
            storage = MemoryStorage()
        else:
            from risk.server.sql import default_database_url, open_storage

            url = url or default_database_url()
            storage = open_storage(url)
    except StorageError as error:
        typer.echo(f"risk serve: error: cannot open the game store {url!r}: {error}", err=True)
        raise typer.Exit(code=2) from None
    application = create_app(storage, allow_external_bots=allow_external_bots, limits=limits)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown_host}:{port}/"
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(
            f"warning: listening on {host}: anyone who can reach this machine on port {port} can open games"
        )
    typer.echo(f"risk: games stored in {_safe_url(url)}")
    typer.echo(f"risk: open {address} in your browser (Ctrl+C stops the server; games are kept)")
    if open_browser:
        threading.Timer(1.0, lambda: webbrowser.open(address)).start()
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    hide_secrets_everywhere()  # no token in any log line, at any level (risk.server.logsafe)
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level=log_level,
        log_config=uvicorn_log_config(),
        ws_max_size=65_536,
    )


def _safe_url(url: str) -> str:
    """The store's URL without its password."""
    from sqlalchemy.engine import make_url

    if url == "memory":
        return "memory (lost when the server stops)"
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "the given database"
