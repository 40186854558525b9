"""Shared fixtures: the web server's stores over SQLite and a real, throwaway PostgreSQL (tests/pg.py).

- ``storage_url``: a URL of a fresh, empty database, once for "sqlite" (a file in tmp_path) and once for
  "postgresql" (a new database on the session's cluster, dropped afterwards).
- ``storage``: an open store, once each for "memory", "sqlite" and "postgresql"; closed afterwards.
- ``postgres_cluster``: the session's PostgreSQL cluster (tests/pg.py PgCluster), started on first use.
- ``own_postgres_cluster``: a cluster of the test's own, which it may stop and start again.
- ``shared_chromium``: the run's Chromium (tests/chromium.py), launched on first use.
- ``own_data_folder`` (for every test): XDG_DATA_HOME set to a folder of the session's, so that no
  test, and no `risk serve` a test starts, writes to the user's own data folder.

Without PostgreSQL the "postgresql" cases skip on a developer's machine and fail under CI=true, where
they must run; ``-m "not postgresql"`` leaves them out.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import chromium
from pg import PgCluster, unavailable_reason
from tiers import BOTH_BUILDS, BROWSER_FILES

if TYPE_CHECKING:
    from risk.server.storage import Storage

SQL_KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgresql: runs against the throwaway PostgreSQL cluster")
    config.addinivalue_line("markers", "slow: a long sweep (minutes); -m 'not slow' leaves it out")
    config.addinivalue_line(
        "markers", "browser: drives Chromium (tests/test_browser_*.py); make test runs them alone"
    )
    config.addinivalue_line(
        "markers", "both_builds: what the compiled core could get differently; make test runs it on both"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The browser tests wait on real timing: `make test` runs them in one process after the others,
    # which run in parallel (-m browser / -m "not browser").
    for item in items:
        if item.path.name.startswith(BROWSER_FILES):
            item.add_marker(pytest.mark.browser)
        if item.path.name in BOTH_BUILDS:
            item.add_marker(pytest.mark.both_builds)


@pytest.fixture(scope="session", autouse=True)
def own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The user's data folder is the session's own (platformdirs reads XDG_DATA_HOME), for this
    process and every `risk serve` it starts: the server's VAPID key is made there, never in ~."""
    folder = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(folder))
        yield folder


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[object]:
    yield from chromium.launched()


def _need_postgres() -> None:
    reason = unavailable_reason()
    if reason is not None:
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(f"PostgreSQL tests cannot run: {reason}; CI must run them (.ci/run installs it)")
        pytest.skip(f"PostgreSQL tests skipped: {reason}")


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PgCluster]:
    _need_postgres()
    with PgCluster() as cluster:
        yield cluster


@pytest.fixture
def own_postgres_cluster() -> Iterator[PgCluster]:
    """A cluster for one test alone: one the test may stop and start (the session's must stay up)."""
    _need_postgres()
    with PgCluster() as cluster:
        yield cluster


def fresh_database_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL of a new empty database of that kind, removed after the test."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("postgres_cluster")
    name = f"test_{uuid.uuid4().hex[:16]}"
    url = cluster.create_database(name)
    request.addfinalizer(lambda: cluster.drop_database(name))
    return url


@pytest.fixture(params=SQL_KINDS)
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database_url(request.param, request, tmp_path)


@pytest.fixture(params=["memory", *SQL_KINDS])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    from risk.server.sql import SqlStorage
    from risk.server.storage import MemoryStorage

    store: Storage
    if request.param == "memory":
        store = MemoryStorage()
    else:
        store = SqlStorage(fresh_database_url(request.param, request, tmp_path))
    yield store
    store.close()
