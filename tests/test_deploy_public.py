"""The deployment of docs/server.md, "Deploying for the public", for real (issue 39, item 6).

Machines of their own (network namespaces on a switch, tests/machines.py): a proxy running Debian's
nginx with deploy/nginx/risk.conf as it is shipped (the upstream addresses, the certificate's paths
and the challenge folder changed to the test's), and three `risk serve` processes, each on a machine
of its own, started with deploy/systemd/risk@.service's ExecStart and deploy/systemd/risk.env's
settings, all on one PostgreSQL on this machine. Two players, on two addresses of this machine, play
one game through the proxy over HTTPS (the test's own certificate authority): their sockets are on
two different processes, which each process's log proves (it names the player's address, from the
proxy's X-Forwarded-For). The process of one of them is SIGKILLed mid-game; the other plays and
writes in the chat meanwhile; the first reconnects through the proxy, which sends it to a process
still up; the game goes on. Every move's state and every chat message reaches both players, and
the store holds exactly the moves acknowledged. Then the database is backed up with
deploy/backup/risk-backup and restored as the guide says, and the restored game is the same game.
Last, on the processes left, two strangers sign up over HTTPS (Secure session cookies) and meet
through quick match in one rated game.

Every prerequisite (root, iproute2, nginx, openssl, PostgreSQL, systemd-analyze) missing is a failure
that names it: .ci/run installs what is missing.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import random
import re
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from machines import Network, network, program
from pg import PgCluster, unavailable_reason

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
SITE = "games.example.org"  # the name in deploy/nginx/risk.conf, kept: the certificate is made for it
SERVERS = ("web1", "web2", "web3")
PORT = "8000"  # each machine's risk@8000.service
SEED = 39_006
MOVES_BEFORE = 40  # moves before the kill
MOVES_AWAY = 6  # at most, by the player still connected, while the other is away
MOVES_AFTER = 40


def _missing() -> list[str]:
    missing = []
    if os.geteuid() != 0:
        missing.append("root (network namespaces: run the test as root, as CI does)")
    for name, package in (
        ("ip", "iproute2"),
        ("nginx", "nginx"),
        ("openssl", "openssl"),
        ("systemd-analyze", "systemd"),
    ):
        try:
            program(name)
        except FileNotFoundError:
            missing.append(f"{name} (Debian: apt-get install {package})")
    reason = unavailable_reason()
    if reason is not None:
        missing.append(reason)
    return missing


def require_prerequisites() -> None:
    missing = _missing()
    if missing:
        pytest.fail(
            f"the deployment test cannot run here; missing: {'; '.join(missing)} (.ci/run installs them)"
        )


def guide_command(start: str) -> list[str]:
    """The command of docs/server.md's guide that starts with ``start`` (after its sudo), as words."""
    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    lines = [ln.removeprefix("sudo ").split("  #")[0] for ln in page.splitlines()]
    (found,) = [ln for ln in lines if ln.startswith(start)]
    return shlex.split(found)


# -- the certificate ----------------------------------------------------------------------------------
def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A certificate authority of the test's own and the site's certificate from it: (the authority's
    certificate, the site's chain, its key)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def certificate(
        subject: str,
        key: ec.EllipticCurvePrivateKey,
        issuer: str,
        signer: ec.EllipticCurvePrivateKey,
        ca: bool,
    ) -> x509.Certificate:
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if not ca:
            builder = builder.add_extension(
                x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False
            )
        return builder.sign(signer, hashes.SHA256())

    authority_key, site_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    authority = certificate("risk test authority", authority_key, "risk test authority", authority_key, True)
    site = certificate(SITE, site_key, "risk test authority", authority_key, False)
    ca_file, chain, key_file = folder / "ca.pem", folder / "fullchain.pem", folder / "privkey.pem"
    ca_file.write_bytes(authority.public_bytes(serialization.Encoding.PEM))
    chain.write_bytes(site.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        site_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    key_file.chmod(0o600)
    return ca_file, chain, key_file


# -- the proxy ------------------------------------------------------------------------------------------
SHIPPED_UPSTREAMS = (
    "    server 10.0.0.11:8000 max_fails=1 fail_timeout=10s;\n"
    "    server 10.0.0.12:8000 max_fails=1 fail_timeout=10s;\n"
)


def site_config(upstreams: list[str], chain: Path, key: Path, webroot: Path) -> str:
    """deploy/nginx/risk.conf with what a deployment changes in it changed (each must be found)."""
    text = (DEPLOY / "nginx" / "risk.conf").read_text(encoding="utf-8")
    changes = [
        (SHIPPED_UPSTREAMS, "".join(f"    server {u} max_fails=1 fail_timeout=10s;\n" for u in upstreams)),
        (f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(chain)),
        (f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(key)),
        ("root /var/www/html;", f"root {webroot};"),
    ]
    if not Path("/proc/net/if_inet6").exists():  # a kernel without IPv6 cannot listen on [::]
        changes += [("    listen [::]:80;\n", ""), ("    listen [::]:443 ssl;\n", "")]
    for shipped, ours in changes:
        assert shipped in text, f"deploy/nginx/risk.conf no longer has {shipped!r}: change the test too"
        text = text.replace(shipped, ours)
    return text


def nginx_config(prefix: Path, site: Path) -> str:
    """The main file Debian's /etc/nginx/nginx.conf stands for: the site included, everything else
    (pid, logs, temporary files) in the test's folder; the access log names the process that answered."""
    temporary = " ".join(
        f"{kind}_temp_path {prefix / 'tmp' / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        "user www-data;\nworker_processes 1;\n"
        f"pid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'} info;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        "    log_format upstreams '$remote_addr \"$request\" $status upstream=$upstream_addr';\n"
        f"    access_log {prefix / 'access.log'} upstreams;\n"
        f"    {temporary}\n"
        f"    include {site};\n"
        "}\n"
    )


# -- the service ------------------------------------------------------------------------------------------
def unit_environment(overrides: dict[str, str]) -> dict[str, str]:
    """deploy/systemd/risk.env's settings, each given the test's value (a setting the test does not
    know is a failure: the test must learn of it)."""
    shipped = {}
    for line in (DEPLOY / "systemd" / "risk.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            shipped[name] = value
    assert set(shipped) == set(overrides), (
        f"risk.env has {sorted(shipped)}, the test knows {sorted(overrides)}"
    )
    return overrides


def unit_command(environment: dict[str, str], instance: str, vapid_key: Path) -> list[str]:
    """The ExecStart of deploy/systemd/risk@.service as systemd runs it: %i the instance, ${NAME} from
    the environment file; this Python's `risk` for /opt/risk's and the test's key for /etc/risk's."""
    unit = (DEPLOY / "systemd" / "risk@.service").read_text(encoding="utf-8")
    (line,) = [ln for ln in unit.splitlines() if ln.startswith("ExecStart=")]
    words = shlex.split(line.removeprefix("ExecStart="))
    assert words[0] == "/opt/risk/bin/risk", words
    expanded = [
        re.sub(r"\$\{(\w+)\}", lambda m: environment[m.group(1)], word.replace("%i", instance))
        for word in words[1:]
    ]
    assert "/etc/risk/vapid.pem" in expanded, expanded
    expanded[expanded.index("/etc/risk/vapid.pem")] = str(vapid_key)
    return [sys.executable, "-m", "risk", *expanded]


def test_the_units_are_valid_systemd_units(tmp_path: Path) -> None:
    """systemd's own check of every unit of deploy/systemd (unknown settings, bad values), with the
    programs they run put where the units say (this Python's risk, the backup script)."""
    require_prerequisites()
    for unit in (DEPLOY / "systemd").glob("*.service"):
        text = unit.read_text(encoding="utf-8")
        text = text.replace("/opt/risk/bin/risk", str(Path(sys.executable).parent / "risk"))
        text = text.replace("/usr/local/bin/risk-backup", str(DEPLOY / "backup" / "risk-backup"))
        (tmp_path / unit.name).write_text(text, encoding="utf-8")
    shutil.copy(DEPLOY / "systemd" / "risk-backup.timer", tmp_path)
    checked = ["risk@8000.service", "risk-backup.service", "risk-backup.timer"]
    result = subprocess.run(
        [program("systemd-analyze"), "verify", *(str(tmp_path / name) for name in checked)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and not result.stderr.strip(), result.stdout + result.stderr


def test_the_database_url_is_read_from_the_environment() -> None:
    """RISK_DB (risk.env) is `risk serve --db`: a URL whose password no command line shows."""
    env = {**os.environ, "RISK_DB": "memory", "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "risk", "serve", "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--workers 2 needs a PostgreSQL database" in result.stderr, (
        result.stderr
    )


# -- the players -------------------------------------------------------------------------------------------
@dataclass
class Player:
    """One human seat's page: its socket through the proxy, reconnecting as the browser does, and
    everything it was sent."""

    name: str
    seat: int
    token: str
    source: str  # the address of this machine it connects from
    game: str
    proxy: str
    tls: ssl.SSLContext
    states: dict[int, dict[str, Any]] = field(default_factory=dict)  # by state id
    log: dict[int, str] = field(default_factory=dict)  # by position in the game's log
    chat: dict[int, str] = field(default_factory=dict)  # by seq
    acks: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    connections: int = 0
    greeted: int = 0  # the connection whose first state has come
    allowed: asyncio.Event = field(default_factory=asyncio.Event)  # cleared: the page stays away
    socket: ClientConnection | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def newest(self) -> dict[str, Any]:
        return self.states[max(self.states)]

    async def run(self, stop: asyncio.Event) -> None:
        uri = f"wss://{SITE}/api/games/{self.game}/ws"
        attempt = 0
        self.allowed.set()
        while not stop.is_set():
            await self.allowed.wait()
            try:
                async with connect(
                    uri,
                    host=self.proxy,
                    port=443,
                    ssl=self.tls,
                    local_addr=(self.source, 0),
                    # As a browser sends it: the process checks it against the Host nginx passes on.
                    origin=Origin(f"https://{SITE}"),
                    open_timeout=10,
                    close_timeout=1,
                ) as socket:
                    self.socket, attempt = socket, 0
                    self.connections += 1
                    hello = {"type": "hello", "token": self.token, "chat_after": max(self.chat, default=0)}
                    await socket.send(json.dumps(hello))
                    async for raw in socket:
                        self.receive(json.loads(raw))
            except (OSError, WebSocketException, TimeoutError):
                pass  # the process went away: reconnect below, through the proxy
            finally:
                self.socket = None
            attempt += 1
            await asyncio.sleep(min(1.0, 0.1 * 2**attempt))  # the page's back-off, shortened

    def receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            self.greeted = self.connections
            self.states[message["state_id"]] = message
            for offset, entry in enumerate(message["log"]):
                position = message["log_start"] + offset
                if self.log.setdefault(position, entry["text"]) != entry["text"]:
                    self.problems.append(f"{self.name}: log entry {position} changed")
        elif kind == "chat":
            for line in message["messages"]:
                self.chat[line["seq"]] = line["text"]
        elif kind == "ack":
            self.acks.put_nowait(message)
        elif kind == "error":
            self.problems.append(f"{self.name}: {message}")

    async def send(self, message: dict[str, Any]) -> None:
        assert self.socket is not None, f"{self.name} is not connected"
        await self.socket.send(json.dumps(message))


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """A move of the ones offered: an entry at random, a range at its most."""
    entry = rng.choice(state["legal"])
    return f"{entry['text']} {entry['max']}" if "max" in entry else str(entry["text"])


async def until(condition: Any, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


# -- the processes ------------------------------------------------------------------------------------------
@dataclass
class Machines:
    """Everything the test started, stopped whatever happens."""

    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: dict[str, Path] = field(default_factory=dict)

    def start(self, name: str, command: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.logs[name] = log
        with open(log, "wb") as output:
            self.processes[name] = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, env=env
            )

    def kill(self, name: str) -> None:
        process = self.processes[name]
        process.send_signal(signal.SIGKILL)
        process.wait(30)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(15)

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")


def wait_until_answering(machines: Machines, name: str, url: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            httpx.get(url, timeout=2, verify=False)
            return
        except httpx.HTTPError:
            if machines.processes[name].poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{name} did not start:\n{machines.log(name)[-3000:]}") from None
            time.sleep(0.1)


def accepted_sockets(log: str, game: str, source: str) -> int:
    """How many of ``source``'s sockets to ``game`` a process's log says it accepted: the address
    is the player's, so the process believed the proxy's X-Forwarded-For."""
    return sum(
        1
        for line in log.splitlines()
        if f"{source}:" in line and f'"WebSocket /api/games/{game}/ws" [accepted]' in line
    )


def served_by(machines: Machines, game: str, player: Player, before: dict[str, int]) -> str:
    """The process whose log shows one more of ``player``'s sockets than ``before`` did."""
    now = {name: accepted_sockets(machines.log(name), game, player.source) for name in SERVERS}
    grown = [name for name in SERVERS if now[name] > before.get(name, 0)]
    assert len(grown) == 1, f"{player.name}'s new socket: {before} -> {now}"
    before.update(now)
    return grown[0]


async def play(
    lan: Network, machines: Machines, game: str, tokens: dict[int, str], tls: ssl.SSLContext
) -> dict[str, Any]:
    """The game through the proxy: both players' pages on two processes, one of them killed."""
    rng, stop = random.Random(SEED), asyncio.Event()
    proxy = lan.address("proxy")
    ann, bob = (
        Player(name, seat, tokens[seat], lan.host_addresses[seat], game, proxy, tls)
        for seat, name in enumerate(("Ann", "Bob"))
    )
    players = (ann, bob)
    seen: dict[str, dict[str, int]] = {player.name: {} for player in players}
    served: dict[str, list[str]] = {player.name: [] for player in players}
    acknowledged: list[tuple[int, str]] = []
    acked_ids: list[int] = []
    chats: list[str] = []

    async def connected(player: Player, connections: int) -> str:
        await until(lambda: player.greeted >= connections, f"{player.name}'s page to connect")
        served[player.name].append(served_by(machines, game, player, seen[player.name]))
        return served[player.name][-1]

    async def move(mover: Player, everyone: tuple[Player, ...]) -> None:
        state = mover.newest
        text, ref = choose(state, rng), f"m{len(acknowledged)}"
        await mover.send({"type": "action", "action": text, "state_id": state["state_id"], "ref": ref})
        ack = await asyncio.wait_for(mover.acks.get(), 10)
        assert ack["ref"] == ref, ack
        acknowledged.append((mover.seat, text))
        acked_ids.append(ack["state_id"])
        # This move's own state reaches every page that is open, whichever process it is on.
        await until(lambda: all(ack["state_id"] in p.states for p in everyone), f"move {ref}'s state")

    async def say(writer: Player, everyone: tuple[Player, ...]) -> None:
        text = f"{writer.name}'s message {len(chats) + 1}"
        chats.append(text)
        await writer.send({"type": "chat", "text": text, "channel": "all", "ref": f"c{len(chats)}"})
        await until(
            lambda: all(text in p.chat.values() for p in everyone), f"chat {text!r} ({writer.problems})"
        )

    def to_act() -> tuple[Player, Player]:
        acting = [p for p in players if p.newest["legal"]]
        assert len(acting) == 1, [p.newest["legal"] for p in players]
        return acting[0], next(p for p in players if p is not acting[0])

    async def lockstep(moves: int) -> None:
        for number in range(moves):
            await until(lambda: max(ann.states) == max(bob.states), "both pages at the newest state")
            mover, _ = to_act()
            await move(mover, players)
            if number % 20 == 7:  # a seat may write 5 messages in 10 s: each writes 3 in all
                await say(players[number // 20 % 2], players)

    tasks = [asyncio.create_task(player.run(stop)) for player in players]
    try:
        await connected(ann, 1)
        # Bob's page is opened again until the proxy puts it on another process than Ann's.
        await connected(bob, 1)
        while served["Bob"][-1] == served["Ann"][0]:
            assert bob.connections < 6, served
            assert bob.socket is not None
            await bob.socket.close()
            await connected(bob, bob.connections + 1)
        await lockstep(MOVES_BEFORE)

        # The process of the page that is not to act is killed; that page stays away a while.
        present, away = to_act()
        victim = served[away.name][-1]
        away.allowed.clear()
        machines.kill(victim)
        await until(lambda: away.socket is None, f"{away.name}'s page to lose its process")
        for _ in range(MOVES_AWAY):
            if not present.newest["legal"]:
                break
            await move(present, (present,))
        missed = acked_ids[-1] - max(away.states)
        assert missed > 0, "no move was made while a page was away"
        await say(present, (present,))

        # Back through the proxy, to a process that is up: the page is shown where the game is.
        away.allowed.set()
        back = await connected(away, away.connections + 1)
        assert back != victim
        await until(lambda: max(away.states) == max(present.states), f"{away.name} to catch up")
        await until(lambda: away.chat == present.chat, f"{away.name}'s chat to catch up")
        await lockstep(MOVES_AFTER)
    finally:
        stop.set()
        for player in players:
            if player.socket is not None:
                await player.socket.close()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # Every page holds the whole log, the same, and the whole chat, in order.
    for player in players:
        assert sorted(player.log) == list(range(len(player.log))), f"{player.name}'s log has gaps"
        assert sorted(player.chat) == list(range(1, len(chats) + 1)), player.chat
        assert [player.chat[seq] for seq in sorted(player.chat)] == chats
    assert ann.log == bob.log
    assert acked_ids == sorted(acked_ids) and max(acked_ids) == max(ann.states) == max(bob.states)
    return {
        "acknowledged": acknowledged,
        "served": served,
        "victim_address": lan.address(victim),
        "problems": ann.problems + bob.problems,
    }


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[tuple[Network, PgCluster, Machines, Path]]:
    require_prerequisites()
    machines = Machines()
    with network(["proxy", *SERVERS]) as lan:
        cluster = PgCluster(also_listen=lan.host_addresses[0], clients=str(lan.subnet))
        with cluster:
            # nginx's workers (www-data) read the challenge's folder here; the key is its master's (root).
            prefix = Path(tempfile.mkdtemp(prefix="risk-nginx-"))
            prefix.chmod(0o755)
            try:
                yield lan, cluster, machines, prefix
            finally:
                machines.stop()
                shutil.rmtree(prefix, ignore_errors=True)


def run_checked(command: list[str], env: dict[str, str] | None = None) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{command}: {result.stdout}{result.stderr}"


def start_processes(lan: Network, url: str, machines: Machines, folder: Path) -> None:
    """`risk serve` on each server machine, as risk@8000.service starts it with risk.env's settings,
    the site's VAPID key made as the guide says."""
    vapid = folder / "vapid.pem"
    make_key = guide_command("openssl genpkey")
    assert make_key[-2:] == ["-out", "/etc/risk/vapid.pem"], make_key
    run_checked([program("openssl"), *make_key[1:-1], str(vapid)])
    for name in SERVERS:
        settings = unit_environment(
            {
                "RISK_DB": url,
                "RISK_LISTEN": lan.address(name),
                "RISK_PROXY": lan.address("proxy"),
                "RISK_DOMAIN": SITE,
            }
        )
        data = folder / name  # each machine's own folders (systemd's StateDirectory, CacheDirectory)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "XDG_DATA_HOME": str(data / "data"),
            "XDG_CACHE_HOME": str(data / "cache"),
            **settings,
        }
        command = [*lan.run_in(name), *unit_command(settings, PORT, vapid)]
        machines.start(name, command, folder / f"{name}.log", env)


def start_proxy(lan: Network, machines: Machines, prefix: Path) -> Path:
    """nginx on the proxy machine with the site of deploy/, checked first (nginx -t); the certificate
    authority's certificate that its certificate comes from."""
    ca, chain, key = make_certificates(prefix)
    webroot = prefix / "webroot"
    (webroot / ".well-known" / "acme-challenge").mkdir(parents=True)
    (webroot / ".well-known" / "acme-challenge" / "token").write_text("challenge answered\n")
    (prefix / "tmp").mkdir()
    upstreams = [f"{lan.address(name)}:{PORT}" for name in SERVERS]
    (prefix / "risk.conf").write_text(site_config(upstreams, chain, key, webroot))
    (prefix / "nginx.conf").write_text(nginx_config(prefix, prefix / "risk.conf"))
    nginx = [*lan.run_in("proxy"), program("nginx"), "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    run_checked([*nginx, "-t"])
    machines.start("proxy", [*nginx, "-g", "daemon off;"], prefix / "nginx.out")
    return ca


def back_up_and_restore(cluster: PgCluster, game: str, folder: Path) -> list[tuple[int, str]]:
    """The database backed up twice by deploy/backup/risk-backup (the older dump deleted), the dump
    restored into a new database by the guide's pg_restore: the restored game's moves."""
    backups = folder / "backups"
    env = {
        **os.environ,
        "RISK_DB": cluster.url("risk"),
        "RISK_BACKUP_DIR": str(backups),
        "RISK_BACKUP_KEEP": "1",
        "PATH": f"{cluster.bindir}{os.pathsep}{os.environ['PATH']}",
    }
    for _ in range(2):
        run_checked([str(DEPLOY / "backup" / "risk-backup")], env)
        time.sleep(1.1)  # the dumps are named by the second
    (dump,) = backups.glob("risk-*.dump")
    assert not list(backups.glob("*.partial"))
    restored_url = cluster.create_database("restored")
    pg_restore = shutil.which("pg_restore", path=env["PATH"])
    assert pg_restore is not None, "no pg_restore (Debian: apt-get install postgresql-client)"
    restore = guide_command("pg_restore")
    assert restore[-2].startswith("--dbname=postgresql://") and restore[-1].endswith(".dump"), restore
    plain_url = restored_url.replace("postgresql+psycopg://", "postgresql://")
    run_checked([pg_restore, *restore[1:-2], f"--dbname={plain_url}", str(dump)])
    return stored_moves(restored_url, game)


def stored_moves(url: str, game: str) -> list[tuple[int, str]]:
    from risk.server.sql import SqlStorage

    store = SqlStorage(url)
    try:
        return [(action.seat, action.text) for action in store.actions(game)]
    finally:
        store.close()


def strangers_meet(proxy: str, tls: ssl.SSLContext, sources: list[str]) -> str:
    """Two strangers, each from an address of their own, sign up over HTTPS through the proxy (the
    session cookie comes back Secure: the process knows the page came over HTTPS from the proxy's
    X-Forwarded-Proto) and wait in one quick match queue; whichever process matches them, both are
    placed in the same rated game, each with a seat of their own. Answers the game's id."""
    clients = [
        httpx.Client(
            transport=httpx.HTTPTransport(verify=tls, local_address=source),
            base_url=f"https://{proxy}",
            headers={"Host": SITE},
            timeout=10,
        )
        for source in sources[:2]
    ]
    try:
        csrf = []
        for number, client in enumerate(clients):
            body = {"name": f"Stranger{number}", "password": "a long enough password"}
            answer = client.post("/api/account/signup", json=body, extensions={"sni_hostname": SITE})
            assert answer.status_code == 200, answer.text
            cookie = answer.headers["set-cookie"].lower()
            assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie, cookie
            csrf.append(answer.json()["csrf"])
        for client, token in zip(clients, csrf, strict=True):
            queued = client.post(
                "/api/quickmatch",
                json={"game": "two-player", "players": 2, "pace": "live"},
                headers={"X-CSRF-Token": token},
                extensions={"sni_hostname": SITE},
            )
            assert queued.status_code == 201, queued.text
        deadline = time.monotonic() + 30
        while True:
            placed = [
                client.get("/api/quickmatch", extensions={"sni_hostname": SITE}).json()["entries"][0]
                for client in clients
            ]
            if all(entry["status"] == "placed" for entry in placed):
                break
            assert time.monotonic() < deadline, f"not matched within 30 s: {placed}"
            time.sleep(0.2)
        assert placed[0]["game_id"] == placed[1]["game_id"]
        assert {entry["seat"] for entry in placed} == {0, 1}
        game_id: str = placed[0]["game_id"]
        summary = clients[0].get(f"/api/games/{game_id}", extensions={"sni_hostname": SITE}).json()
        assert summary["rated"] is True and summary["status"] == "playing"
        # Each seat acts for its own account alone: the other's session with this seat's link is refused.
        stolen = clients[1].get(
            f"/api/games/{game_id}/view",
            headers={"Authorization": f"Bearer {placed[0]['token']}"},
            extensions={"sni_hostname": SITE},
        )
        assert stolen.status_code == 403, stolen.text
        return game_id
    finally:
        for client in clients:
            client.close()


@pytest.mark.postgresql
def test_players_on_two_machines_one_killed_every_message_reaches_everyone(
    deployment: tuple[Network, PgCluster, Machines, Path], tmp_path: Path
) -> None:
    lan, cluster, machines, prefix = deployment
    began = time.monotonic()
    cluster.create_database("risk")
    start_processes(lan, cluster.url("risk", host=lan.host_addresses[0]), machines, tmp_path)
    ca = start_proxy(lan, machines, prefix)
    for name in SERVERS:
        wait_until_answering(machines, name, f"http://{lan.address(name)}:{PORT}/api/meta")
    started = time.monotonic() - began

    tls = ssl.create_default_context(cafile=str(ca))
    proxy = lan.address("proxy")

    def https(method: str, path: str, source: str, body: Any = None, host: str = SITE) -> httpx.Response:
        """A request to the site through the proxy, from ``source``, the certificate checked."""
        transport = httpx.HTTPTransport(verify=tls, local_address=source)
        with httpx.Client(transport=transport, timeout=10) as client:
            return client.request(
                method,
                f"https://{proxy}{path}",
                json=body,
                headers={"Host": host},
                extensions={"sni_hostname": SITE},
            )

    # Plain HTTP: the certificate's challenge is answered, everything else is sent to HTTPS.
    plain = httpx.get(f"http://{proxy}/game/x?y=1", headers={"Host": SITE}, timeout=10)
    assert plain.status_code == 301 and plain.headers["location"] == f"https://{SITE}/game/x?y=1"
    challenge = httpx.get(
        f"http://{proxy}/.well-known/acme-challenge/token", headers={"Host": SITE}, timeout=10
    )
    assert challenge.text == "challenge answered\n"
    assert https("GET", "/api/meta", lan.host_addresses[0]).status_code == 200
    # A name the site is not: nginx passes it on, `risk serve --allowed-hosts` refuses it.
    assert https("GET", "/api/meta", lan.host_addresses[0], host="elsewhere.example").status_code == 400
    # A client that goes around the proxy is known by its own address, whatever it claims.
    direct = f"http://{lan.address('web1')}:{PORT}/api/meta"
    httpx.get(direct, headers={"X-Forwarded-For": "203.0.113.9"}, timeout=10)
    assert "203.0.113.9" not in machines.log("web1")

    created = https(
        "POST",
        "/api/games",
        lan.host_addresses[0],
        {
            "edition": "2008",
            "game": "two-player",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
            "seed": SEED,
            "public": False,
        },
    )
    assert created.status_code == 201, created.text
    assert "strict-transport-security" in created.headers
    game = created.json()["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created.json()["seats"]}

    report = asyncio.run(play(lan, machines, game, tokens, tls))
    assert report["problems"] == [], report["problems"]
    # After the kill every request through the proxy is answered: the dead process is skipped, and
    # nginx's log shows a request it sent on from the dead process to another.
    answers = [https("GET", "/api/meta", lan.host_addresses[0]).status_code for _ in range(len(SERVERS) + 1)]
    assert answers == [200] * len(answers)
    access = (prefix / "access.log").read_text()
    assert f"{report['victim_address']}:{PORT}, " in access, f"nothing sent on: {access[-2000:]}"
    played = time.monotonic() - began - started

    # The store holds exactly the moves acknowledged, in their order: nothing lost, nothing twice.
    stored = stored_moves(cluster.url("risk"), game)
    assert stored == report["acknowledged"]
    assert back_up_and_restore(cluster, game, tmp_path) == stored
    strangers_meet(proxy, tls, lan.host_addresses)  # and, on the processes left, strangers meet
    print(
        f"deployment: started in {started:.1f} s, played {len(stored)} moves in {played:.1f} s, "
        f"served by {report['served']}; whole test {time.monotonic() - began:.1f} s"
    )
