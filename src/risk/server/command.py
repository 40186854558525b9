"""`risk serve`: the web app on uvicorn."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # imported when serving: `risk --help` stays quick
    from risk.server.hosts import AllowedHosts
    from risk.server.limits import Limits
    from risk.server.notify.push import PushSettings
    from risk.server.notify.seal import Seal
    from risk.server.storage import Storage


def register(app: typer.Typer) -> None:
    app.command("serve", help="Play in the browser: the web app, with friends and bots (docs/web.md)")(
        serve_command
    )


# The options of `risk serve` that need more than a line to say.
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        # The environment too: a password in a URL on the command line is shown to every user of
        # the machine (ps); a service's environment file is not (deploy/systemd/risk@.service).
        envvar="RISK_DB",
        help="where games are stored: a SQLAlchemy URL, 'memory', or by default a SQLite file "
        "in your data folder",
    ),
]
HostsOption = Annotated[
    str,
    typer.Option(
        "--allowed-hosts",
        help="host names the server also answers to, comma-separated (*.example.org for a whole "
        "domain); IP addresses, localhost and this machine's names always work (DNS rebinding guard)",
    ),
]
ProxyOption = Annotated[
    str,
    typer.Option(
        "--proxy",
        help="addresses of reverse proxies whose X-Forwarded-For names the client, comma-separated "
        "(none by default: each client is known by its own address)",
    ),
]
SmtpOption = Annotated[
    str | None,
    typer.Option(
        "--smtp",
        help="send players e-mail notifications through this SMTP server: "
        "smtp://user:password@host:587 (STARTTLS) or smtps://...:465, ?from=ADDRESS (docs/web.md)",
    ),
]
SmtpRetryOption = Annotated[
    float,
    typer.Option(
        "--smtp-retry", help="seconds before a failed notification is tried again (doubling)", min=0.1
    ),
]
VapidKeyOption = Annotated[
    str | None,
    typer.Option(
        "--vapid-key",
        help="the VAPID private key (PEM, P-256) Web Push is signed with; by default one made once "
        "in your data folder (docs/web.md, Notifications)",
    ),
]
PushContactOption = Annotated[
    str | None,
    typer.Option(
        "--push-contact",
        help="mailto:ADDRESS or https://... that push services may write to about this server "
        "(default: the --smtp sender, or risk@ this machine's name)",
    ),
]
NoPushOption = Annotated[bool, typer.Option("--no-push", help="send no Web Push notifications")]
WorkersOption = Annotated[
    int,
    typer.Option(
        "--workers",
        help="server processes sharing the port (more than 1 needs a PostgreSQL --db; docs/web.md)",
        min=1,
        max=64,
    ),
]


def _rate(what: str, flag: str) -> Any:
    return typer.Option(flag, help=f"{what}, COUNT/SECONDS or 'off'")


def serve_command(
    host: Annotated[
        str, typer.Option(help="address to listen on (0.0.0.0: every network of this machine)")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=0, max=65535)] = 8000,
    db: DbOption = None,
    open_browser: Annotated[bool, typer.Option("--open", help="open the lobby in a browser")] = False,
    allow_external_bots: Annotated[
        bool,
        typer.Option("--allow-external-bots", help="let game creators seat bot programs run on this machine"),
    ] = False,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    limit_games: Annotated[
        str, _rate("per address: new games and record uploads", "--limit-games")
    ] = "20/600",
    limit_actions: Annotated[
        str, _rate("per address: moves and other requests to games", "--limit-actions")
    ] = "600/60",
    limit_messages: Annotated[
        str, _rate("per websocket connection: messages", "--limit-messages")
    ] = "100/10",
    limit_boards: Annotated[
        str, _rate("per address: board checks and generated boards", "--limit-boards")
    ] = "30/600",
    no_rate_limits: Annotated[
        bool, typer.Option("--no-rate-limits", help="no rate limit at all (load tests on this machine)")
    ] = False,
    allowed_hosts: HostsOption = "",
    proxy: ProxyOption = "",
    workers: WorkersOption = 1,
    smtp: SmtpOption = None,
    smtp_retry: SmtpRetryOption = 30.0,
    vapid_key: VapidKeyOption = None,
    push_contact: PushContactOption = None,
    no_push: NoPushOption = False,
) -> None:
    limits, hosts = _guards(
        limit_games, limit_actions, limit_messages, limit_boards, no_rate_limits, allowed_hosts
    )
    _check_smtp(smtp)
    push, key_file = (None, "") if no_push else _push_settings(vapid_key, push_contact, smtp)
    url, storage = _open_store(db, workers)
    seal_file = "" if url == "memory" else _seal_file(vapid_key, key_file)
    _say_where(host, port, url, open_browser)
    _log_safely()
    settings = _uvicorn_settings(host, port, log_level, proxy)
    if workers == 1:
        from risk.server.app import create_app

        application = create_app(
            storage,
            allow_external_bots=allow_external_bots,
            limits=limits,
            pace_gc=True,
            allowed_hosts=hosts,
            smtp=smtp,
            push=push,
            notify_retry_s=smtp_retry,
            seal=_seal(seal_file),
        )
        _run(application, settings)
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
            "smtp": smtp,
            "smtp_retry": smtp_retry,
            # The key's file, made above if it was not there: every worker signs with the same key.
            "push": None if push is None else [key_file, push.contact],
            "seal": seal_file,
        }
    )
    _run("risk.server.command:worker_app", settings, factory=True, workers=workers)


def _uvicorn_settings(host: str, port: int, log_level: str, proxy: str) -> dict[str, Any]:
    return {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 65_536,
        # uvicorn trusts X-Forwarded-For from 127.0.0.1 unless told otherwise: then any program on
        # this machine could claim any address and escape the per-address limits.
        "proxy_headers": bool(proxy.strip()),
        "forwarded_allow_ips": proxy.strip() or None,
    }


def _guards(
    games: str, actions: str, messages: str, boards: str, no_rate_limits: bool, allowed_hosts: str
) -> tuple[Limits, AllowedHosts]:
    """The rate limits and the host names answered to, from the options (exit 2 on a bad one)."""
    from risk.server.hosts import AllowedHosts
    from risk.server.limits import Limits, Rate

    try:
        rates = [Rate.parse(rate) for rate in (games, actions, messages, boards)]
        limits = Limits.off() if no_rate_limits else Limits(*rates)
        return limits, AllowedHosts.default(allowed_hosts.split(","))
    except ValueError as error:
        typer.echo(f"risk serve: error: {error}", err=True)
        raise typer.Exit(code=2) from None


def _check_smtp(smtp: str | None) -> None:
    """Exit 2 on an --smtp URL that is not one (its password never shown)."""
    from risk.server.notify.channels import SmtpSettings

    if smtp is None:
        return
    try:
        SmtpSettings.parse(smtp)
    except ValueError as error:
        typer.echo(f"risk serve: error: {error}", err=True)
        raise typer.Exit(code=2) from None


def _push_settings(
    vapid_key: str | None, contact: str | None, smtp: str | None
) -> tuple[PushSettings | None, str]:
    """Web Push's settings and the key's file (``--vapid-key``, or the data folder's, made on first
    use); None without pywebpush (said); exit 2 on a key or contact that is not one."""
    from pathlib import Path

    from risk.server.notify import push

    if not push.available():
        typer.echo("risk: Web Push is off: pywebpush is not installed")
        return None, ""
    try:
        key_file = push.vapid_key_file(Path(vapid_key) if vapid_key else None)
        contact = push.check_contact(contact or _default_contact(smtp))
        return push.PushSettings(push.load_vapid_key(key_file), contact), str(key_file)
    except ValueError as error:
        typer.echo(f"risk serve: error: {error}", err=True)
        raise typer.Exit(code=2) from None


def _seal_file(vapid_key: str | None, push_key_file: str) -> str:
    """The file the seat tokens kept for notifications are sealed with (risk.server.notify.seal): the
    VAPID key's, made in the data folder if need be, Web Push on or off, so that every process of the
    site and every restart open them ("" without py_vapid: a key of the process's own)."""
    if push_key_file:
        return push_key_file
    from pathlib import Path

    from risk.server.notify import push

    if not push.available():
        return ""
    try:
        return str(push.vapid_key_file(Path(vapid_key) if vapid_key else None))
    except ValueError as error:
        typer.echo(f"risk serve: error: {error}", err=True)
        raise typer.Exit(code=2) from None


def _seal(seal_file: str) -> Seal | None:
    from pathlib import Path

    from risk.server.notify.seal import Seal

    return Seal.of_file(Path(seal_file)) if seal_file else None


def _default_contact(smtp: str | None) -> str:
    """The --smtp sender, or risk@ this machine's name (a made-up one if the machine's has no dot)."""
    import socket

    from risk.server.notify.channels import SmtpSettings, is_address

    sender = SmtpSettings.parse(smtp).sender if smtp is not None else f"risk@{socket.getfqdn()}"
    return f"mailto:{sender}" if is_address(sender) else "mailto:risk@localhost.localdomain"


def _open_store(db: str | None, workers: int) -> tuple[str, Storage]:
    """The store ``--db`` names (its schema upgraded), and its URL; exit 2 if it cannot be opened, or
    cannot be shared by ``workers`` processes."""
    from risk.server.storage import MemoryStorage, StorageError

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
    return url, storage


def _say_where(host: str, port: int, url: str, open_browser: bool) -> None:
    """Where the games are kept and the address to open (in a browser, with ``--open``)."""
    import threading
    import webbrowser

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


def _log_safely() -> None:
    """The server's log on stderr, with no token in any line, at any level (risk.server.logsafe)."""
    import logging
    import sys

    from risk.server.logsafe import hide_secrets_everywhere

    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    hide_secrets_everywhere()


def _run(application: Any, settings: dict[str, Any], **more: Any) -> None:
    """uvicorn serving ``application`` (an app, or the import string of a factory)."""
    import uvicorn

    from risk.server.logsafe import uvicorn_log_config

    uvicorn.run(application, log_config=uvicorn_log_config(), **settings, **more)


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
    push = None
    if settings["push"] is not None:
        from pathlib import Path

        from risk.server.notify.push import PushSettings, load_vapid_key

        key, contact = settings["push"]
        push = PushSettings(load_vapid_key(Path(key)), contact)
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
        smtp=settings["smtp"],
        push=push,
        notify_retry_s=settings["smtp_retry"],
        seal=_seal(settings["seal"]),
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
