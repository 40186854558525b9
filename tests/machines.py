"""Machines on a network of their own, for the deployment test (tests/test_deploy_public.py).

Each machine is a Linux network namespace with one interface, ``eth0``, and one address; all of them,
and this machine, are plugged into a switch: a bridge in a namespace of its own (so that whatever
firewall rules this machine's bridges pass through, this one passes through none). This machine's
side of the switch is one veth interface with one or more addresses, so that PostgreSQL here serves
the machines and clients here can come from several addresses. Needs root and iproute2 (``ip``).

    with network(["proxy", "web1", "web2"]) as net:
        subprocess.run([*net.run_in("web1"), "risk", "serve", "--host", net.address("web1")])
"""

from __future__ import annotations

import ipaddress
import random
import secrets
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

MACHINE_BASE = 10  # the first machine's address in the network: .10, .11, ...
HOST_ADDRESSES = 2  # this machine's addresses in the network: .1, .2 (a client on each)


def program(name: str) -> str:
    """A program of the system's, found where root's PATH may not look (/usr/sbin, /sbin)."""
    for candidate in (shutil.which(name), f"/usr/sbin/{name}", f"/sbin/{name}"):
        if candidate and Path(candidate).exists():
            return candidate
    raise FileNotFoundError(name)


def _ip(*args: str) -> None:
    result = subprocess.run([program("ip"), *args], capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {result.stderr.strip()}")


def _networks_in_use() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    shown = subprocess.run(
        ["ip", "-4", "-o", "route", "show", "table", "all"], capture_output=True, text=True
    )
    found = []
    for line in shown.stdout.splitlines():
        first = line.split()[0] if line.split() else ""
        if first in ("local", "broadcast"):
            first = line.split()[1]
        try:
            found.append(ipaddress.ip_network(first, strict=False))
        except ValueError:
            continue  # "default", "unreachable", ...
    return found


def free_network() -> ipaddress.IPv4Network:
    """A /24 of 10.0.0.0/8 that no route of this machine touches."""
    used = _networks_in_use()
    for _ in range(200):
        candidate = ipaddress.IPv4Network(f"10.{random.randint(64, 250)}.{random.randint(0, 255)}.0/24")
        if not any(candidate.overlaps(net) for net in used if net.version == 4 and net.prefixlen > 0):
            return candidate
    raise RuntimeError("no free /24 in 10.0.0.0/8 for the test's network")


class Network:
    """The machines ``names``, each at its own address, and this machine (``network`` below makes one
    and tears it down)."""

    def __init__(self, names: Sequence[str]) -> None:
        self.tag = secrets.token_hex(3)  # names this run's namespaces and interface apart from others'
        self.names = list(names)
        self.subnet = free_network()
        hosts = list(self.subnet.hosts())
        self.host_addresses = [str(hosts[i]) for i in range(HOST_ADDRESSES)]
        self._addresses = {name: str(hosts[MACHINE_BASE - 1 + i]) for i, name in enumerate(self.names)}
        self._made: list[str] = []  # namespaces made, deleted on the way out
        self._host_link = f"rk{self.tag}"  # this machine's interface: 15 characters at most

    def namespace(self, name: str) -> str:
        return f"risk-{self.tag}-{name}"

    def address(self, name: str) -> str:
        return self._addresses[name]

    def run_in(self, name: str) -> list[str]:
        """The command prefix that runs a program on machine ``name``."""
        return [program("ip"), "netns", "exec", self.namespace(name)]

    def _add_namespace(self, name: str) -> str:
        namespace = self.namespace(name)
        _ip("netns", "add", namespace)
        self._made.append(namespace)
        _ip("-n", namespace, "link", "set", "lo", "up")
        return namespace

    def start(self) -> None:
        switch = self._add_namespace("switch")
        _ip("-n", switch, "link", "add", "name", "br0", "type", "bridge")
        _ip("-n", switch, "link", "set", "br0", "up")
        _ip("link", "add", "name", self._host_link, "type", "veth", "peer", "name", "host", "netns", switch)
        _ip("-n", switch, "link", "set", "host", "master", "br0", "up")
        for address in self.host_addresses:
            _ip("addr", "add", f"{address}/{self.subnet.prefixlen}", "dev", self._host_link)
        _ip("link", "set", self._host_link, "up")
        for name in self.names:
            machine = self._add_namespace(name)
            port = f"to-{name}"[:15]
            _ip(
                "-n",
                switch,
                "link",
                "add",
                "name",
                port,
                "type",
                "veth",
                "peer",
                "name",
                "eth0",
                "netns",
                machine,
            )
            _ip("-n", switch, "link", "set", port, "master", "br0", "up")
            _ip("-n", machine, "addr", "add", f"{self.address(name)}/{self.subnet.prefixlen}", "dev", "eth0")
            _ip("-n", machine, "link", "set", "eth0", "up")

    def stop(self) -> None:
        """Delete the namespaces (each goes with its interfaces once no process is left in it) and this
        machine's interface. The processes started in them must be stopped first."""
        for namespace in reversed(self._made):
            subprocess.run([program("ip"), "netns", "del", namespace], capture_output=True, timeout=30)
        self._made.clear()
        subprocess.run([program("ip"), "link", "del", self._host_link], capture_output=True, timeout=30)


@contextmanager
def network(names: Sequence[str]) -> Iterator[Network]:
    """The machines ``names`` on their network, torn down on leaving, even after a failure."""
    made = Network(names)
    try:
        made.start()
        yield made
    finally:
        made.stop()
