"""`risk serve`: the web app on uvicorn."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

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
    limit_boards: Annotated[
        str, typer.Option(help="per address: board checks and generated boards, COUNT/SECONDS or 'off'")
    ] = "30/600",
    no_rate_limits: Annotated[
        bool, typer.Option("--no-rate-limits", help="no rate limit at all (load tests on this machine)")
    ] = False,
    allowed_hosts: Annotated[
        str,
        typer.Option(
            help="host names the server also answers to, comma-separated (*.example.org for a whole "
            "domain); IP addresses, localhost and this machine's names always work (DNS rebinding guard)"
        ),
    ] = "",
    proxy: Annotated[
        str,
        typer.Option(
            help="addresses of reverse proxies whose X-Forwarded-For names the client, comma-separated "
            "(none by default: each client is known by its own address)"
        ),
    ] = "",
    workers: Annotated[
        int,
        typer.Option(
            help="server processes sharing the port (more than 1 needs a PostgreSQL --db; docs/web.md)",
            min=1,
            max=64,
        ),
    ] = 1,
) -> None:
    import logging
    import sys
    import threading
    import webbrowser

    import uvicorn

    from risk.server.app import create_app
    from risk.server.hosts import AllowedHosts
    from risk.server.limits import Limits, Rate
    from risk.server.logsafe import hide_secrets_everywhere, uvicorn_log_config
    from risk.server.storage import MemoryStorage, Storage, StorageError

    try:
        limits = (
            Limits.off()
            if no_rate_limits
            else Limits(
                Rate.parse(limit_games),
                Rate.parse(limit_actions),
                Rate.parse(limit_messages),
                Rate.parse(limit_boards),
            )
        )
        hosts = AllowedHosts.default(allowed_hosts.split(","))
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
        from risk.server.sql import without_password

        # Never the password: the URL shown masked, and the driver's words too (they may quote it).
        problem = without_password(str(error), url)
        typer.echo(f"risk serve: error: cannot open the game store {_safe_url(url)}: {problem}", err=True)
        raise typer.Exit(code=2) from None
    if workers > 1 and getattr(storage, "listen_conninfo", lambda: None)() is None:
        storage.close()
        typer.echo(
            f"risk serve: error: --workers {workers} needs a PostgreSQL database (--db postgresql://...): "
            "a SQLite file or memory is one process's store",
            err=True,
        )
        raise typer.Exit(code=2)
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
    settings = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 65_536,
        # uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise: then any program on
        # this machine could claim any address and escape the per-address limits.
        "proxy_headers": bool(proxy.strip()),
        "forwarded_allow_ips": proxy.strip() or None,
    }
    if workers == 1:
        application = create_app(
            storage, allow_external_bots=allow_external_bots, limits=limits, pace_gc=True, allowed_hosts=hosts
        )
        uvicorn.run(application, log_config=uvicorn_log_config(), **settings)  # type: ignore[arg-type]
        return
    # Each worker process opens the store itself (the schema is upgraded above, once) and builds its
    # own app from what this process was told, handed over in the environment.
    storage.close()
    os.environ[WORKER_SETTINGS] = json.dumps(
        {
            "db": url,
            "allow_external_bots": allow_external_bots,
            "limits": [limit_games, limit_actions, limit_messages, limit_boards],
            "no_rate_limits": no_rate_limits,
            "allowed_hosts": allowed_hosts,
        }
    )
    uvicorn.run(
        "risk.server.command:worker_app",
        factory=True,
        workers=workers,
        log_config=uvicorn_log_config(),
        **settings,  # type: ignore[arg-type]
    )


WORKER_SETTINGS = "RISK_SERVE_WORKER"


def worker_app() -> Any:
    """The app of one of ``risk serve --workers N``'s processes (uvicorn calls this in each)."""
    import logging
    import sys

    from risk.server.app import create_app
    from risk.server.hosts import AllowedHosts
    from risk.server.limits import Limits, Rate
    from risk.server.logsafe import hide_secrets_everywhere
    from risk.server.sql import open_storage

    settings = json.loads(os.environ[WORKER_SETTINGS])
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    hide_secrets_everywhere()
    limits = Limits.off() if settings["no_rate_limits"] else Limits(*map(Rate.parse, settings["limits"]))
    storage = open_storage(settings["db"])
    return create_app(
        storage,
        allow_external_bots=settings["allow_external_bots"],
        limits=limits,
        pace_gc=True,
        allowed_hosts=AllowedHosts.default(settings["allowed_hosts"].split(",")),
    )


def _safe_url(url: str) -> str:
    """The store's URL without its password."""
    from sqlalchemy.engine import make_url

    from risk.server.sql import without_password

    if url == "memory":
        return "memory (lost when the server stops)"
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return without_password(url, url)
